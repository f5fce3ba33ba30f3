import { expect, type Page, test } from '@playwright/test';
import { dePath, messages } from './support';

/**
 * /prices and the billing pages where only a browser can tell: the production build's routes and
 * the layout (nothing cut off). Prices, periods, savings, the paywall's plans, the payment return
 * pages' messages and the §312k BGB form are component tests
 * (src/features/billing/__tests__/billing-screens.test.tsx); the checkout journeys are
 * billing-checkout.spec.ts.
 */

test.describe('developer pages', () => {
  test('the billing test pages are not routed in a production build', async ({ page }) => {
    for (const path of ['/test/payment', '/test/webhook', '/test/subscriptions', '/test/dropdown']) {
      await page.goto(path);
      await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
    }
  });
});

/** Texts of the elements `selector` finds that are cut off (content wider than the box), with both widths. */
async function clipped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.textContent}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
}

test.describe('German layout and frames of /prices and /signup (issue 33 §7, §11)', () => {
  test('the order buttons read in full at 1280 px, in both languages', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const locale of ['en', 'de'] as const) {
      await page.goto(locale === 'de' ? dePath('/prices') : '/prices');
      for (const plan of ['basic', 'premium']) {
        await expect(page.getByTestId(`order-${plan}`)).toBeEnabled();
        await expect(page.getByTestId(`order-${plan}`)).toHaveText(messages[locale]['prices.order']!);
      }
      expect(await clipped(page, '[data-testid^="order-"], [data-testid^="order-"] .mantine-Button-label'), locale).toEqual([]);
    }
  });

  test('the period switch shows every period on a phone, "Jährlich" included', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/de/prices');
    await expect(page.getByTestId('price-basic')).toBeVisible();
    const periods = page.getByTestId('billing-period');
    expect(await clipped(page, '[data-testid="billing-period"] .mantine-SegmentedControl-label')).toEqual([]);
    const box = (await periods.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, 'the switch fits the screen').toBeLessThanOrEqual(360);
    const yearly = periods.getByText('Jährlich', { exact: true });
    await expect(yearly).toBeInViewport({ ratio: 1 });
    await yearly.click();
    await expect(page.getByTestId('free-months-basic')).toBeVisible();
  });
});
