import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { axe } from './axe';
import { collectErrors, dePath, expectedTitle, PUBLIC_PAGES, PRODUCT } from './support';
// the visit of every page only looks: one page per worker (warm HTTP cache), see worker-page.ts
import { test as visitTest } from './worker-page';

/**
 * One visit per public page and language checks what spec §2 asks of it (status, title, URL,
 * language, one main region, description, canonical and alternate links, the footer's
 * cancellation link, no raw message ids, no console errors) and scans it with axe-core
 * (WCAG 2.1 A/AA and best practice: no serious or critical violation); the scan used to be a
 * second visit of each page in a11y.spec.ts.
 */
test.describe('every public page in both languages (spec §2): content and axe-core', () => {
  // every page stands alone: the pages are shared out among the workers
  test.describe.configure({ mode: 'parallel' });

  for (const pageDef of PUBLIC_PAGES) {
    for (const locale of ['en', 'de'] as const) {
      const path = locale === 'en' ? pageDef.path : dePath(pageDef.path);
      visitTest(`${path}`, async ({ page, baseURL }) => {
        const errors = collectErrors(page);
        const started = Date.now();
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page).toHaveTitle(expectedTitle(pageDef, locale));
        await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.locator('h1').first()).toBeVisible();
        await expect(page.locator('main')).toHaveCount(1);
        await expect(page.locator('head meta[name="description"]').last()).toHaveAttribute('content', /.{10,}/);
        await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}${path}`);
        await expect(page.locator('head link[rel="alternate"][hreflang="de"]')).toHaveAttribute('href', `${baseURL}${dePath(pageDef.path)}`);
        await expect(page.locator('head link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', `${baseURL}${pageDef.path}`);
        await expect(page.getByRole('contentinfo').getByRole('link', { name: locale === 'de' ? 'Verträge hier kündigen' : 'Cancel contracts here' })).toBeVisible();
        await page.waitForLoadState('networkidle');
        const scan = await axe(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const serious = scan.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(serious, 'axe-core: no serious or critical violations').toEqual([]);
        // give lazy data and preloading (1 s after mount) time to fail loudly: 1.2 s after the visit began at least
        await page.waitForTimeout(Math.max(0, 1200 - (Date.now() - started)));
        // no unformatted message (react-intl falls back to the id silently in production builds)
        const text = await page.locator('body').innerText();
        expect(text).not.toMatch(/\{[a-z]+\}/);
        expect(text).not.toMatch(/\b(?:nav|footer|page|cookies|landing|prices|legal|error|common)\.[a-zA-Z-]+(?:\.[a-zA-Z-]+)*\b/);
        const labels = await page.locator('[aria-label]').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
        expect(labels.filter((label) => /^[a-z]+(\.[\w-]+)+$/.test(label) || label.includes('{'))).toEqual([]);
        expect(errors).toEqual([]);
        expect(await page.title()).toContain(PRODUCT);
      });
    }
  }
});

test.describe('language', () => {
  test('switching keeps the page and is remembered in a 365-day cookie', async ({ page, context }) => {
    const errors = collectErrors(page);
    await page.goto('/prices?plan=basic');
    await expect(page.getByTestId('price-basic')).toHaveText('€19');
    await page.getByTestId('language-switch').click();
    await expect(page).toHaveURL(/\/de\/prices\?plan=basic$/);
    await expect(page).toHaveTitle('Preise | Teamwerk');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByTestId('price-basic')).toHaveText(/^19\s€$/);
    await expect(page.getByText('inkl. MwSt.').first()).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === 'teamwerk_locale');
    expect(cookie?.value).toBe('de');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);
    // a later visit of a plain URL follows the cookie
    await page.goto('/impressum');
    await expect(page).toHaveURL(/\/de\/impressum$/);
    await page.getByTestId('language-switch').click();
    await expect(page).toHaveURL(/\/impressum$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(errors).toEqual([]);
  });

  test('without a cookie the browser language decides', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/prices');
    await expect(page).toHaveURL(/\/de\/prices$/);
    await expect(page).toHaveTitle('Preise | Teamwerk');
    await context.close();
  });

  test('/search is titled "Suche" in German', async ({ page }) => {
    await page.goto('/de/search');
    await expect(page).toHaveTitle(/^Suche \| Teamwerk$/);
  });
});

test.describe('cookie notice (TDDDG §25)', () => {
  test('sets no cookie before a choice and stores the choice', async ({ page, context }) => {
    await page.goto('/');
    const notice = page.getByTestId('cookie-notice');
    await expect(notice).toBeVisible();
    // the brand font is fetched a second after loading (app/brand-font.ts); its hint for the next
    // visit must wait for the choice too
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('.woff2'))), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    await notice.getByRole('button', { name: 'Necessary only' }).click();
    await expect(notice).toBeHidden();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('teamwerk-font'))).toBe('inter');
    const consent = (await context.cookies()).find((c) => c.name === 'teamwerk_consent');
    expect(JSON.parse(decodeURIComponent(consent!.value))).toMatchObject({ necessary: true, statistics: false, marketing: false });
    await page.reload();
    await expect(page.getByTestId('cookie-notice')).toBeHidden();
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await expect(page.getByTestId('cookie-notice')).toBeVisible();
  });
});

test.describe('legal pages show the configured company data (issue 33 §17)', () => {
  // local builds embed the fictional frontend/company.demo.json; a production build needs the real file
  const company = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'company.demo.json'), 'utf8')) as Record<string, string>;
  for (const [prefix, notice] of [
    ['', 'The company data on this page is fictional demo data of a local installation.'],
    ['/de', 'Die Unternehmensangaben auf dieser Seite sind fiktive Beispieldaten einer lokalen Installation.'],
  ] as const) {
    test(`Impressum, provider identification, privacy, terms and withdrawal (${prefix || 'en'})`, async ({ page }) => {
      for (const page_ of ['/impressum', '/legal/anbieterkennzeichnung', '/legal/Datenschutzhinweise', '/legal/nutzungsvereinbarung', '/legal/widerufsbelehrung']) {
        await page.goto(`${prefix}${page_}`);
        const main = page.locator('main');
        await expect(main.getByTestId('demo-company-notice')).toHaveText(notice);
        await expect(main).toContainText(company.name!);
        // no "[Company name]"-style placeholder is left anywhere
        expect(await main.innerText(), page_).not.toMatch(/\[[^\]]{3,}\]/);
      }
      await page.goto(`${prefix}/impressum`);
      for (const value of [company.street, company.postcodeCity, company.registerNumber, company.vatId, company.managingDirectors, company.email]) {
        await expect(page.locator('main')).toContainText(value!);
      }
    });
  }
});
