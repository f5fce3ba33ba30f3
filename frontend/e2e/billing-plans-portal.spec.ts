import { expect, type Page, test } from '@playwright/test';
import { admin, dismissCookies, expectActive, newUser, paidCheckoutSession, storeSession, stripe, stripeUrl } from './billing-support';
import { ANON_KEY, collectErrors, expectStackUp, messages, nodeClient } from './support';

/**
 * Money around organisations, the portal and the demo accounts (issue 32 §2-§4), in Chromium with
 * the local Stripe sandbox:
 * - a Premium subscriber joins an Enterprise organisation: the invitation says what happens to the
 *   own plan, the dialog after joining offers to end it (at period end, stated), the choice
 *   reaches Stripe, and /user and /user/settings show the organisation's plan;
 * - the customer portal opened from the settings offers exactly Basic ⇄ Premium (every period),
 *   no seat and no Enterprise price;
 * - basic@, premium@ and enterprise@ (README demo accounts) open their portal; enterprise@ buys a
 *   seat for its seeded organisation (and gives it back) and sees its analytics.
 * Runs in the `shared-state` project: it needs the Stripe sandbox that billing-checkout takes down.
 */

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, String(v)), text);
const en = messages.en;
const DEMO_PASSWORD = 'Teamwerk!2026';

test.beforeAll(async () => {
  await expectStackUp();
});

/** The Stripe subscription id stored for a user's live subscription. */
async function stripeSubscriptionOf(userId: string): Promise<string> {
  const { data, error } = await admin.from('subscriptions').select('stripe_subscription_id').eq('user_id', userId).eq('status', 'active').single();
  expect(error).toBeNull();
  return data!.stripe_subscription_id;
}

/** Signs a demo account in through Auth and puts the session into the SPA. */
async function signInDemo(page: Page, email: string): Promise<{ userId: string }> {
  const client = nodeClient(ANON_KEY);
  const signedIn = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  expect(signedIn.error, email).toBeNull();
  await storeSession(page, signedIn.data.session);
  return { userId: signedIn.data.user!.id };
}

/** Opens the portal with "Manage subscription" on /user/settings; returns the portal's plan options (labels). */
async function openPortal(page: Page): Promise<string[]> {
  await page.goto('/user/settings');
  await page.getByTestId('manage-subscription').click();
  await expect(page).toHaveURL(new RegExp(`^${stripeUrl.replace(/[.:/]/g, '\\$&')}/billing_portal/`));
  await expect(page.getByTestId('current-plan').first()).toBeVisible();
  return page.locator('select[name="price"] option').allTextContents();
}

test('a Premium member who joins an Enterprise organisation is offered to end the own plan; then Enterprise is shown everywhere', async ({ page }) => {
  const errors = collectErrors(page);
  const owner = await newUser('org-owner');
  await paidCheckoutSession(owner, 'enterprise', 'en');
  await expectActive(owner.client, true);
  const orgName = `Plan Works ${Date.now().toString(36)}`;
  const created = await owner.client.rpc('create_organization', { p_name: orgName });
  expect(created.error).toBeNull();

  const member = await newUser('org-member');
  await paidCheckoutSession(member, 'premium', 'en');
  await expectActive(member.client, true);
  const invited = await owner.client.rpc('invite_to_organization', { p_organization_id: created.data as string, p_email: member.email, p_locale: 'en' });
  expect(invited.error).toBeNull();
  const mail = await admin.from('email_queue').select('payload').eq('email', member.email).eq('email_type', 'organization_invitation').single();
  const path = (mail.data!.payload as { path: string }).path;

  await storeSession(page, member.session);
  await page.goto(path);
  await dismissCookies(page);
  // before joining: what happens to the own plan
  await expect(page.getByTestId('own-plan-notice')).toContainText(`You pay for your own Premium plan (€49, Monthly). As a member of ${orgName} you get Enterprise`);
  await page.getByTestId('invitation-accept').click();
  // after joining: the offer to end it, with the rule
  const dialog = page.getByRole('dialog', { name: fill(en['billing.ownPlan.title']!, { plan: 'Premium' }) });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('it stays active until the end of the paid period');
  await expect(dialog).toContainText('nothing more is charged and nothing is refunded');
  await dialog.getByTestId('end-own-plan-confirm').click();
  await expect(page).toHaveURL(/\/org\//);

  // Stripe: the own subscription ends at period end; the database follows through the sync
  const ownSub = await stripeSubscriptionOf(member.userId);
  expect((await stripe.subscriptions.retrieve(ownSub)).cancel_at_period_end).toBe(true);
  await expect
    .poll(async () => (await admin.from('subscriptions').select('cancel_at_period_end').eq('stripe_subscription_id', ownSub).single()).data?.cancel_at_period_end)
    .toBe(true);

  // the plan shown is the organisation's everywhere
  await page.goto('/user');
  await expect(page.getByTestId('home-plan')).toContainText('Your plan: Enterprise');
  await page.goto('/user/settings');
  await expect(page.getByTestId('effective-plan')).toHaveText(fill(en['billing.panel.planThroughOrganization']!, { plan: 'Enterprise', organization: orgName }));
  await expect(page.getByTestId('own-plan-redundant')).toHaveCount(0);
  await expect(page.getByTestId('subscription-cancel-notice')).toBeVisible();
  expect(errors).toEqual([]);
});

test('the customer portal offers exactly Basic ⇄ Premium: no seats, no Enterprise', async ({ page }) => {
  const user = await newUser('portal-plans');
  await paidCheckoutSession(user, 'basic', 'en');
  await expectActive(user.client, true);
  await storeSession(page, user.session);
  await page.goto('/user/settings');
  await dismissCookies(page);
  const options = await openPortal(page);
  expect(options).toHaveLength(8);
  for (const o of options) expect(o).toMatch(/^Teamwerk (Basic|Premium): /);
  expect(options.join('\n')).not.toMatch(/seat|Enterprise/i);
  await page.locator('select[name="price"]').selectOption({ label: options.find((o) => o.startsWith('Teamwerk Premium') && o.includes('/ month')) ?? options.find((o) => o.startsWith('Teamwerk Premium'))! });
  await page.getByRole('button', { name: 'Change plan' }).click();
  await expect(page.getByTestId('current-plan')).toContainText('Teamwerk Premium');
  await expect
    .poll(async () => (await admin.from('subscriptions').select('plan_id').eq('user_id', user.userId).eq('status', 'active').single()).data?.plan_id)
    .toBe('premium');
});

test('each demo account opens its portal; enterprise@ buys a seat for its organisation and sees its analytics', async ({ page }) => {
  // three portals, two seat changes through Stripe and the analytics page: a long journey
  test.slow();
  for (const [email, plan] of [
    ['basic@teamwerk.test', 'Basic'],
    ['premium@teamwerk.test', 'Premium'],
    ['enterprise@teamwerk.test', 'Enterprise'],
  ] as const) {
    await signInDemo(page, email);
    const options = await openPortal(page);
    await expect(page.getByTestId('current-plan')).toContainText(`Teamwerk ${plan}`);
    // Enterprise is not switched in the portal; Basic and Premium switch between each other only
    if (plan === 'Enterprise') expect(options).toEqual([]);
    else expect(options.every((o) => /^Teamwerk (Basic|Premium): /.test(o))).toBe(true);
  }

  // enterprise@ (still signed in): its seeded organisation, 4 of 5 seats used; one extra seat, then back to none
  const { data: org } = await admin.from('organizations').select('slug, subscription_id').eq('slug', 'hoffmann-digital').single();
  const sub = await admin.from('subscriptions').select('stripe_subscription_id').eq('id', org!.subscription_id!).single();
  const seatsAtStripe = async () =>
    (await stripe.subscriptions.retrieve(sub.data!.stripe_subscription_id)).items.data.find((i) => i.price.metadata.teamwerk_item === 'extra_seat')?.quantity ?? 0;
  await page.goto('/org/hoffmann-digital/settings');
  await expect(page.getByTestId('org-seats-text')).toHaveText(fill(en['org.seats.used']!, { used: 4, limit: 5 }));
  for (const extra of [1, 0]) {
    await page.getByTestId('org-seats-extra').fill(String(extra));
    await page.getByTestId('org-seats-change').click();
    await page.getByTestId('org-seats-confirm').click();
    await expect(page.getByText(fill(en['org.seats.changed']!, { seats: 5 + extra }))).toBeVisible();
    expect(await seatsAtStripe()).toBe(extra);
  }

  await page.goto('/org/hoffmann-digital/analytics');
  await expect(page.getByTestId('analytics-total-view')).not.toHaveText('0');
  await expect(page.getByTestId('analytics-item').first()).toBeVisible();
});
