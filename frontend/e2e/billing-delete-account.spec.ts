import { expect, test } from '@playwright/test';
import { admin, dismissCookies, expectActive, newUser, paidCheckoutSession, storeSession, stripe } from './billing-support';
import { collectErrors, expectStackUp } from './support';

/**
 * Issue 32 §1 "Deleting an account keeps charging", as the customer and an admin experience it:
 * a paying user (Basic, card 4242 in the Stripe sandbox) deletes the account in Settings; the
 * dialog warns before confirming that the subscription ends at once without refund; after
 * confirming, the sandbox holds the subscription as canceled (no renewal), the cancellation is
 * recorded and the confirmation mail is queued. An admin deleting a paying user: the same.
 */
test.beforeAll(async () => {
  await expectStackUp();
});

async function subscriptionOf(userId: string): Promise<string> {
  const row = await admin.from('subscriptions').select('stripe_subscription_id').eq('user_id', userId).single();
  expect(row.error).toBeNull();
  return row.data!.stripe_subscription_id;
}

const sandboxStatus = async (subscriptionId: string) => (await stripe.subscriptions.retrieve(subscriptionId)).status;

const deletionMails = async (email: string) =>
  ((await admin.from('email_queue').select('email_type').eq('email', email.toLowerCase()).like('email_type', 'account_deleted%')).data ?? [])
    .map((m) => m.email_type);

test('a paying user deletes the account in Settings: warned in the dialog, the subscription is canceled in the sandbox (en)', async ({ page }) => {
  const errors = collectErrors(page);
  const user = await newUser('delete-self');
  await paidCheckoutSession(user, 'basic', 'en');
  await expectActive(user.client, true);
  const subscriptionId = await subscriptionOf(user.userId);
  expect(await sandboxStatus(subscriptionId)).toBe('active');

  await storeSession(page, user.session);
  await page.goto('/user/settings');
  await dismissCookies(page);
  await page.getByRole('button', { name: 'Delete account', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByTestId('delete-subscription-warning')).toHaveText(
    'You have a paid subscription. Deleting your account cancels it immediately: no further payments are taken, and the period already paid is not refunded. You will get a confirmation by e-mail.',
  );
  expect(await sandboxStatus(subscriptionId), 'the warning alone changes nothing').toBe('active');
  await dialog.getByLabel('Type your e-mail address to confirm').fill(user.email);
  expect(errors, 'nothing failed before the deletion').toEqual([]);
  await dialog.getByRole('button', { name: 'Delete account permanently' }).click();
  await expect(page.locator('.notify-success', { hasText: 'Your account has been deleted.' })).toBeVisible();

  await expect.poll(() => sandboxStatus(subscriptionId), { timeout: 15_000 }).toBe('canceled');
  expect((await admin.auth.admin.getUserById(user.userId)).data.user).toBeNull();
  await expect.poll(() => deletionMails(user.email), { timeout: 10_000 }).toEqual(['account_deleted_subscription_cancelled']);
  // After the deletion the SPA signs out with the token of an account that no longer exists: Auth
  // answers 403 to the logout and 401 to requests still in flight; nothing else may fail.
  expect(errors.filter((e) => !/status of (401|403)/.test(e))).toEqual([]);
});

test('an admin deletes a paying user: the dialog warns, the subscription is canceled in the sandbox (de)', async ({ page }) => {
  const errors = collectErrors(page);
  const target = await newUser('delete-by-admin');
  await paidCheckoutSession(target, 'premium', 'de');
  await expectActive(target.client, true);
  const subscriptionId = await subscriptionOf(target.userId);
  const adminUser = await newUser('delete-admin');
  expect((await admin.from('profiles').update({ user_role: 'admin' }).eq('id', adminUser.userId)).error).toBeNull();
  const refreshed = await adminUser.client.auth.refreshSession();
  expect(refreshed.error).toBeNull();

  await storeSession(page, refreshed.data.session);
  await page.goto('/de/admin/users');
  await dismissCookies(page);
  await page.getByLabel('Nach Name oder E-Mail suchen').fill(target.email);
  const row = page.locator(`tr[data-email="${target.email}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Aktionen für ${target.email}` }).click();
  await page.getByRole('menuitem', { name: 'Löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nutzer löschen?' });
  await expect(dialog.getByTestId('delete-subscription-warning')).toContainText('sofort beim Zahlungsanbieter gekündigt, ohne Erstattung');
  await dialog.getByRole('button', { name: 'Löschen' }).click();
  await expect(page.locator('.notify-success', { hasText: 'Der Nutzer wurde gelöscht.' })).toBeVisible();

  await expect.poll(() => sandboxStatus(subscriptionId), { timeout: 15_000 }).toBe('canceled');
  await expect.poll(() => deletionMails(target.email), { timeout: 10_000 }).toEqual(['account_deleted_subscription_cancelled']);
  expect(errors).toEqual([]);
});
