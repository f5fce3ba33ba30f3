import { expect, test } from '@playwright/test';
import { admin, dismissCookies, expectActive, newUser, paidCheckoutSession } from './billing-support';
import { linkFromMail } from './accounts-support';
import { collectErrors, expectStackUp } from './support';

/**
 * Issue 12 finding 2 as the customer experiences it (German): the §312k BGB form sent without
 * login cancels nothing by itself; the account's address gets a link; opening it shows a button
 * (opening alone does nothing), the click ends the subscription, and the link works once.
 */
test.beforeAll(async () => {
  await expectStackUp();
});

const cancelFlag = async (userId: string) =>
  (await admin.from('subscriptions').select('cancel_at_period_end').eq('user_id', userId).single()).data?.cancel_at_period_end;

test('anonymous cancellation → link to the account address → confirmation page → subscription ends (de)', async ({ page }) => {
  const errors = collectErrors(page);
  const user = await newUser('cancel-de');
  await paidCheckoutSession(user, 'premium', 'de');
  await expectActive(user.client, true);

  await page.goto('/de/cancel-subscription');
  await dismissCookies(page);
  await page.getByLabel('Vor- und Nachname').fill('Bea Billing');
  await page.getByLabel('E-Mail-Adresse Ihres Kontos').fill(user.email);
  await page.getByRole('button', { name: 'Jetzt kündigen' }).click();
  await expect(page.getByTestId('cancellation-received')).toContainText('Bestätigungslink');
  expect(await cancelFlag(user.userId), 'nothing changes before the holder confirms').toBe(false);

  const run = await admin.functions.invoke('process-email-queue', { body: {} });
  expect(run.error).toBeNull();
  const link = await linkFromMail(user.email, '/cancel-subscription/confirm');
  expect(link.startsWith('/de/cancel-subscription/confirm?token=')).toBe(true);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kündigung bestätigen');
  await expect(page.getByTestId('cancel-confirm-submit')).toBeVisible();
  expect(await cancelFlag(user.userId), 'opening the link does not act').toBe(false);
  await page.getByTestId('cancel-confirm-submit').click();
  await expect(page.getByTestId('cancel-confirmed')).toContainText('Ihre Kündigung ist bestätigt');
  await expect.poll(() => cancelFlag(user.userId), { timeout: 10_000 }).toBe(true);

  await page.goto(link);
  await page.getByTestId('cancel-confirm-submit').click();
  await expect(page.getByTestId('cancel-confirm-error')).toHaveText('Diese Kündigung wurde bereits bestätigt.');
  // the confirm call that refuses a reused link answers 400 by design
  expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
});
