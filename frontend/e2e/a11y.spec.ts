import { axe } from './axe';
// these tests only visit pages: one page per worker (warm HTTP cache), see worker-page.ts
import { expect, test } from './worker-page';

// every public page in both languages is scanned during its visit in public-pages.spec.ts
test.describe('axe-core: no serious or critical violations', () => {
  test('error page and mobile menu', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/no/such/page');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Mobile navigation' })).toBeVisible();
    const results = await axe(page).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
});

/**
 * Badges are readable: axe reported nothing while type badges drew their text in the colour of
 * their own background (Mantine's light variant with a fixed shade), so this measures every
 * visible badge: WCAG contrast of its text against the first opaque background behind it ≥ 4.5.
 */
test.describe('badge contrast', () => {
  test.describe.configure({ mode: 'parallel' });

  for (const path of ['/search?q=projekt', '/working-remote-jobs', '/events', '/prices']) {
    test(path, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.locator('.mantine-Badge-root').first()).toBeVisible();
      const weak = await page.evaluate(() => {
        const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
        const lum = ([r, g, b]: number[]) => {
          const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
        };
        const background = (el: Element | null): number[] => {
          for (let e = el; e; e = e.parentElement) {
            const c = rgba(getComputedStyle(e).backgroundColor);
            if ((c[3] ?? 1) > 0.5) return c;
          }
          return [255, 255, 255];
        };
        return [...document.querySelectorAll('.mantine-Badge-root')]
          .filter((el) => (el as HTMLElement).offsetParent !== null)
          .map((el) => {
            const label = el.querySelector('.mantine-Badge-label') ?? el;
            const [a, b] = [lum(rgba(getComputedStyle(label).color)), lum(background(el))];
            return { text: el.textContent, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
          })
          .filter((x) => x.ratio < 4.5)
          .map((x) => `${x.text}: ${x.ratio.toFixed(2)}`);
      });
      expect(weak).toEqual([]);
    });
  }
});
