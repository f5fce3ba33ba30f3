import { expect, type Page, test } from '@playwright/test';
import { dismissCookies, newUser, paidCheckoutSession, storeSession } from './billing-support';
import { collectErrors, dePath, expectStackUp, messages } from './support';

/** /prices from public.prices (issue 7, spec §6, §9), the payment return pages without a session, the §312k BGB form. */
test.describe('prices', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('periods, savings, VAT and order buttons in English', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/prices');
    await expect(page.getByTestId('price-basic')).toHaveText('€19');
    await expect(page.getByTestId('price-premium')).toHaveText('€49');
    await expect(page.getByTestId('price-enterprise')).toHaveText('€99');
    await expect(page.getByText('incl. VAT')).toHaveCount(3);
    await expect(page.getByTestId('saving-basic')).toHaveCount(0);
    await expect(page.getByTestId('order-basic')).toHaveText('Order now, subject to payment');

    await page.getByTestId('billing-period').getByText('Quarterly').click();
    await expect(page.getByTestId('price-basic')).toHaveText('€54');
    await expect(page.getByTestId('saving-basic')).toHaveText('Save 5% vs. monthly');
    await expect(page.getByTestId('free-months-basic')).toHaveCount(0);

    await page.getByTestId('billing-period').getByText('6 months').click();
    await expect(page.getByTestId('price-premium')).toHaveText('€264');
    await expect(page.getByTestId('saving-premium')).toHaveText('Save 10% vs. monthly');
    await expect(page.getByTestId('monthly-equivalent-premium')).toHaveText('equals €44 per month');

    await page.getByTestId('billing-period').getByText('Yearly').click();
    await expect(page.getByTestId('price-basic')).toHaveText('€190');
    await expect(page.getByTestId('saving-basic')).toHaveText('Save 17% vs. monthly');
    for (const plan of ['basic', 'premium', 'enterprise']) await expect(page.getByTestId(`free-months-${plan}`)).toHaveText('2 months free');

    await page.getByTestId('order-enterprise').click();
    await expect(page).toHaveURL(/\/contact\?topic=enterprise$/);
    await expect(page.getByLabel('Topic')).toHaveValue('enterprise');
    expect(errors).toEqual([]);
  });

  test('German: end prices incl. MwSt., "2 Monate gratis", "zahlungspflichtig bestellen"', async ({ page }) => {
    await page.goto('/de/prices?period=yearly');
    await expect(page.getByTestId('price-premium')).toHaveText(/^490\s€$/);
    await expect(page.getByTestId('free-months-premium')).toHaveText('2 Monate gratis');
    await expect(page.getByTestId('saving-premium')).toHaveText(/^17\s%\sgespart ggü\. monatlich$/);
    await expect(page.getByTestId('monthly-equivalent-premium')).toHaveText(/^entspricht 40,83\s€ pro Monat$/);
    await expect(page.getByText('inkl. MwSt.')).toHaveCount(3);
    await expect(page.getByTestId('order-premium')).toHaveText('Jetzt zahlungspflichtig bestellen');
  });

  test('a logged-out choice is remembered and leads to the login', async ({ page }) => {
    await page.goto('/de/prices');
    await page.getByTestId('billing-period').getByText('Vierteljährlich').click();
    await page.getByTestId('order-premium').click();
    await expect(page).toHaveURL(/\/de\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('selectedPlan'), localStorage.getItem('pricePlan')])).toEqual(['premium', 'quarterly']);
  });
});

test.describe('subscription required and developer pages', () => {
  test('/subscription-required explains the plans with their monthly prices and links to /prices', async ({ page }) => {
    await page.goto('/de/subscription-required');
    await expect(page.getByTestId('required-plan-premium')).toContainText(/Premium49\s€ pro Monat/);
    await expect(page.getByRole('link', { name: 'Tarife ansehen' })).toHaveAttribute('href', '/de/prices');
  });

  test('the billing test pages are not routed in a production build', async ({ page }) => {
    for (const path of ['/test/payment', '/test/webhook', '/test/subscriptions', '/test/dropdown']) {
      await page.goto(path);
      await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
    }
  });
});

test.describe('payment return without a session id (spec §5, §8)', () => {
  test('/payment/success and /signup name the missing session id in both languages', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/payment/success');
    await expect(page.getByTestId('payment-failed')).toHaveText(/Session ID is missing\. Please contact support if the problem persists\./);
    await page.goto('/signup');
    await expect(page.getByTestId('payment-failed')).toHaveText(/No session ID found\. Please try again or contact support\./);
    // the heading no longer says "Activating …" beside the failure (issue 33 §11)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your subscription is not active yet');
    await page.goto('/de/payment/success');
    await expect(page.getByTestId('payment-failed')).toHaveText(/Die Sitzungs-ID fehlt\./);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihr Abonnement ist noch nicht aktiv');
    await expect(page.getByTestId('payment-retry')).toHaveCount(0);
    expect(errors).toEqual([]);
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

  test('"Already have an account? Log in" is for visitors only', async ({ page }) => {
    for (const locale of ['en', 'de'] as const) {
      await page.goto(locale === 'de' ? dePath('/prices') : '/prices');
      await expect(page.getByTestId('order-basic')).toBeEnabled();
      await expect(page.getByText(messages[locale]['prices.haveAccount']!)).toBeVisible();
    }
    const user = await newUser('have-account');
    await storeSession(page, user.session);
    for (const locale of ['en', 'de'] as const) {
      await page.goto(locale === 'de' ? dePath('/prices') : '/prices');
      await expect(page.getByTestId('order-basic')).toBeEnabled();
      // signed in: the header offers the account, the page no log-in
      await expect(page.getByRole('link', { name: messages[locale]['nav.login']!, exact: true })).toHaveCount(0);
      await expect(page.getByText(messages[locale]['prices.haveAccount']!)).toHaveCount(0);
    }
  });

  test('/signup says the subscription is active once it is, in both languages', async ({ page }) => {
    for (const locale of ['en', 'de'] as const) {
      const user = await newUser(`signup-${locale}`);
      await storeSession(page, user.session);
      const sessionId = await paidCheckoutSession(user, 'basic', locale);
      await page.goto(`${locale === 'de' ? '/de' : ''}/signup?session_id=${sessionId}`);
      await expect(page.getByTestId('payment-confirmed')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages[locale]['billing.verify.title.done']!);
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(messages[locale]['billing.verify.title.signup']!);
    }
  });
});

test.describe('Verträge hier kündigen (§312k BGB)', () => {
  test('reachable from the footer, works logged out, validates and confirms', async ({ page }) => {
    await page.goto('/de/impressum');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Verträge hier kündigen' })).toHaveAttribute('href', '/de/cancel-subscription');
    await page.goto('/de/cancel-subscription');
    await dismissCookies(page);
    await expect(page).toHaveURL(/\/de\/cancel-subscription$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verträge hier kündigen');
    await page.getByRole('button', { name: 'Jetzt kündigen' }).click();
    await expect(page.getByText('Bitte geben Sie Ihren Namen ein (höchstens 200 Zeichen).')).toBeVisible();
    await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
    await page.getByLabel('Vor- und Nachname').fill('Erika Mustermann');
    await page.getByLabel('E-Mail-Adresse Ihres Kontos').fill(`kuendigung-${Date.now()}@example.com`);
    await page.getByLabel('Einem bestimmten Datum').check();
    await page.getByRole('textbox', { name: 'Datum', exact: true }).fill('2020-01-01');
    await page.getByRole('button', { name: 'Jetzt kündigen' }).click();
    await expect(page.getByText('Das Datum darf nicht in der Vergangenheit liegen.')).toBeVisible();
    await page.getByLabel('Nächstmöglichen Zeitpunkt (Ende des aktuellen Abrechnungszeitraums)').check();
    await page.getByRole('button', { name: 'Jetzt kündigen' }).click();
    await expect(page.getByTestId('cancellation-received')).toContainText('Wir haben Ihre Kündigung erhalten.');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kündigung eingegangen');
  });
});
