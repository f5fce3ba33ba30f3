import { expect, test } from '@playwright/test';
import { collectErrors } from './support';

test.describe('navigation errors (spec §2, §8)', () => {
  test('unmatched path: non-fatal "Page not found: {path}" inside the layout', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/no/such/page');
    const errorPage = page.getByTestId('error-page');
    await expect(errorPage).toHaveAttribute('data-status', '404');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /no/such/page');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(errors).toEqual([]);
  });

  test('route validation failure: fatal "Page Not Found: {path}" in the default frame (header and footer, issue 33 §11)', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/not-a-project');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found: /not-a-project');
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.goto('/de/user/projects/abc');
    await expect(page).toHaveURL(/\/de\/login$/); // logged out: the /user rule comes first
    expect(errors).toEqual([]);
  });

  test('German 404 uses the German layout, heading and link home (issue 33 §7)', async ({ page }) => {
    await page.goto('/de/gibt/es/nicht');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seite nicht gefunden: /de/gibt/es/nicht');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await page.getByRole('link', { name: 'Zur Startseite' }).click();
    await expect(page).toHaveURL(/\/de$/);
  });

  test('500: "Internal Server Error" unless the error has its own message', async ({ page }) => {
    await page.goto('/test/error?status=500');
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '500');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
    await expect(page).toHaveTitle('Internal Server Error | Teamwerk');
    await page.goto('/test/error?status=503&message=Down%20for%20maintenance');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Down for maintenance');
    await page.goto('/test/error?status=404');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await page.goto('/de/test/error?status=500');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Interner Serverfehler');
  });

  test('errors seen by bots are only logged, not shown', async ({ browser }) => {
    const context = await browser.newContext({
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (msg) => logged.push(msg.text()));
    await page.goto('/no/such/page');
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
    await expect(page.getByText('Page not found: /no/such/page')).toHaveCount(0);
    expect(logged.some((line) => line.includes('[error seen by bot]'))).toBe(true);
    await context.close();
  });
});
