import { expect, type Page, test } from '@playwright/test';
import { admin, dismissCookies, expectActive, newUser, paidCheckoutSession, storeSession, stripe } from './billing-support';
import { collectErrors, expectAccessible, expectStackUp, messages } from './support';

/**
 * Buying extra organisation seats (issue 15 "Seats": Enterprise includes 5, more as a quantity on
 * the Stripe subscription), in both languages, through the real parts: an Enterprise subscriber
 * who bought 1 extra seat at Checkout (sandbox, webhook) sees 6 seats on /org/{slug}/settings,
 * buys 2 more in English (confirmation names seats and price; Stripe's seat item and the stored
 * seats follow) and gives all extra seats back in German. Runs in the `shared-state` project:
 * it needs the Stripe sandbox that billing-checkout takes down for a while.
 */

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, String(v)), text);

test.beforeAll(async () => {
  await expectStackUp();
});

/** The quantity of the subscription's extra-seat item at Stripe (0 without one). */
async function stripeSeats(subscriptionId: string): Promise<number> {
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  return sub.items.data.find((i) => i.price.metadata.teamwerk_item === 'extra_seat')?.quantity ?? 0;
}

/** Sets the extra seats on the settings page and confirms the dialog, whose text is checked. */
async function changeSeats(page: Page, t: Record<string, string>, extra: number, expectedText: string) {
  await page.getByTestId('org-seats-extra').fill(String(extra));
  await page.getByTestId('org-seats-change').click();
  await expect(page.getByRole('dialog', { name: t['org.seats.confirmTitle'] })).toBeVisible();
  await expect(page.getByTestId('org-seats-confirm-text')).toHaveText(expectedText);
  await page.getByTestId('org-seats-confirm').click();
  await expect(page.getByRole('dialog')).toBeHidden();
}

test('an Enterprise owner buys 2 extra seats (en) and gives the extra seats back (de)', async ({ page }) => {
  const errors = collectErrors(page);
  const owner = await newUser('seats');
  await paidCheckoutSession(owner, 'enterprise', 'en', 1);
  await expectActive(owner.client, true);
  const created = await owner.client.rpc('create_organization', { p_name: `Seat Works ${Date.now().toString(36)}` });
  expect(created.error).toBeNull();
  const org = await admin.from('organizations').select('slug, seats, subscription_id').eq('id', created.data as string).single();
  expect(org.data?.seats).toBe(6);
  const sub = await admin.from('subscriptions').select('stripe_subscription_id').eq('id', org.data!.subscription_id!).single();
  const subscriptionId = sub.data!.stripe_subscription_id!;
  expect(await stripeSeats(subscriptionId)).toBe(1);

  // English: 5 included + 1 bought; buy 2 more → 8 seats
  const en = messages.en;
  await storeSession(page, owner.session);
  await page.goto(`/org/${org.data!.slug}/settings`);
  await dismissCookies(page);
  await expect(page.getByTestId('org-seats-text')).toHaveText(fill(en['org.seats.used']!, { used: 1, limit: 6 }));
  await expect(page.getByTestId('org-seats-breakdown')).toContainText('1 extra seat bought. An extra seat costs €15 per month.');
  await expect(page.getByTestId('org-seats-change')).toBeDisabled();
  await changeSeats(page, en, 3, fill(en['org.seats.confirmText']!, { seats: 8, extra: 3, total: '€45', period: 'per month' }));
  await expect(page.getByText(fill(en['org.seats.changed']!, { seats: 8 }))).toBeVisible();
  await expect(page.getByTestId('org-seats-text')).toHaveText(fill(en['org.seats.used']!, { used: 1, limit: 8 }));
  expect(await stripeSeats(subscriptionId)).toBe(3);
  expect((await admin.from('organizations').select('seats').eq('slug', org.data!.slug).single()).data?.seats).toBe(8);
  await expectAccessible(page, 'seat purchase');

  // German: give the extra seats back → 5 seats, no seat item left at Stripe
  const de = messages.de;
  await page.goto(`/de/org/${org.data!.slug}/settings`);
  await expect(page.getByTestId('org-seats-text')).toHaveText(fill(de['org.seats.used']!, { used: 1, limit: 8 }));
  await changeSeats(page, de, 0, fill(de['org.seats.confirmText']!, { seats: 5, extra: 0, total: '0 €', period: 'pro Monat' }));
  await expect(page.getByText(fill(de['org.seats.changed']!, { seats: 5 }))).toBeVisible();
  await expect(page.getByTestId('org-seats-text')).toHaveText(fill(de['org.seats.used']!, { used: 1, limit: 5 }));
  expect(await stripeSeats(subscriptionId)).toBe(0);
  expect(errors).toEqual([]);
});
