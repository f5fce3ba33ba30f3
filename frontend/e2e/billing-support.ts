import { expect, type Page } from '@playwright/test';
import Stripe from 'stripe';
import { ANON_KEY, apiUrl, nodeClient, SERVICE_ROLE_KEY, stack } from './support';

/** The Stripe sandbox of this stack offset (scripts/local-stack/services/stripe/README.md) and its generated key. */
export const stripeUrl = stack.stripeUrl;
export const STRIPE_KEY = stack.stripeSecretKey;
export const stripe = new Stripe(STRIPE_KEY, { apiVersion: '2023-10-16' as Stripe.LatestApiVersion, host: '127.0.0.1', port: stack.ports.stripe, protocol: 'http' });
export const admin = nodeClient(SERVICE_ROLE_KEY);
/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
export const storageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;
export const PASSWORD = 'Correct-Horse-42';

/** A fresh confirmed free user (admin API) with a signed-in API client. */
export async function newUser(tag: string) {
  const email = `billing-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { firstname: 'Bea', lastname: 'Billing' } });
  expect(created.error).toBeNull();
  const client = nodeClient(ANON_KEY);
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(signedIn.error).toBeNull();
  return { email, userId: created.data.user!.id, session: signedIn.data.session!, client };
}

/** Puts an API session into the SPA's storage (login is not the subject of the test). */
export async function storeSession(page: Page, session: unknown) {
  await page.goto('/ueber-teamwerk');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKey, JSON.stringify(session)]);
}

/** Closes the cookie notice so it does not cover buttons at the bottom. */
export async function dismissCookies(page: Page) {
  await page.getByTestId('cookie-notice').getByRole('button', { name: /^(Necessary only|Nur notwendige)$/ }).click();
}

const CARD_LABELS = {
  en: { number: 'Card number', expiry: 'Expiry date (MM / YY)', cvc: 'CVC', name: 'Name on card', pay: 'Pay and subscribe' },
  de: { number: 'Kartennummer', expiry: 'Ablaufdatum (MM / JJ)', cvc: 'Prüfziffer (CVC)', name: 'Name auf der Karte', pay: 'Zahlungspflichtig abonnieren' },
} as const;

/** The order button of a payment-mode checkout (event tickets; German: §312j BGB wording). */
export const TICKET_PAY_BUTTON = { en: 'Pay', de: 'Zahlungspflichtig bestellen' } as const;

/** Fills and submits the sandbox's hosted checkout form (`mode` payment: the ticket button). */
export async function payOnCheckoutPage(page: Page, card: string, locale: 'en' | 'de', mode: 'subscription' | 'payment' = 'subscription') {
  const l = { ...CARD_LABELS[locale], ...(mode === 'payment' ? { pay: TICKET_PAY_BUTTON[locale] } : {}) };
  await page.getByLabel(l.number, { exact: true }).fill(card);
  await page.getByLabel(l.expiry).fill('12 / 34');
  await page.getByLabel(l.cvc).fill('123');
  await page.getByLabel(l.name).fill('Bea Billing');
  await page.getByRole('button', { name: l.pay, exact: true }).click();
}

/** Waits until the database (payment-required rule) grants or withdraws the paid area for a user. */
export async function expectActive(client: ReturnType<typeof nodeClient>, active: boolean) {
  await expect
    .poll(async () => (await client.rpc('has_active_subscription')).data, { timeout: 15_000, intervals: [200, 300, 500] })
    .toBe(active);
}

/** The Stripe price id of plan × period from public.prices. */
export async function priceId(plan: string, period: string): Promise<string> {
  const { data, error } = await admin.from('prices').select('stripe_price_id').eq('plan_id', plan).eq('billing_period', period).single();
  expect(error).toBeNull();
  return data!.stripe_price_id!;
}

/**
 * Creates a checkout session for a signed-in API user and pays it with a plain form post (as the
 * hosted page does). `extraSeats`: organisation seats on top of Enterprise's 5 (issue 15).
 */
export async function paidCheckoutSession(
  user: Awaited<ReturnType<typeof newUser>>,
  plan: 'basic' | 'premium' | 'enterprise',
  locale: 'en' | 'de',
  extraSeats = 0,
): Promise<string> {
  const created = await user.client.functions.invoke('create-checkout-session', {
    body: { userId: user.userId, email: user.email, name: 'Bea Billing', priceId: await priceId(plan, 'monthly'), planType: plan, locale, extraSeats },
  });
  expect(created.error).toBeNull();
  const { url, sessionId } = created.data as { url: string; sessionId: string };
  const paid = await fetch(`${url}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Bea Billing' }).toString(),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  return sessionId;
}

/** Makes every sandbox /v1 request fail with 503 for `seconds` (README "Sandbox-specific endpoints"); `false` ends it. */
export async function stripeOutage(seconds: number | false) {
  const res = await fetch(`${stripeUrl}/_sandbox/outage`, {
    method: seconds === false ? 'DELETE' : 'POST',
    headers: { Authorization: `Bearer ${STRIPE_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    ...(seconds === false ? {} : { body: `seconds=${seconds}` }),
  });
  expect(res.ok).toBe(true);
}
