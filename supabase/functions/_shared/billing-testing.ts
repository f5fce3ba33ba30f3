/**
 * Test support for the billing function tests (not imported by any function): the stack's
 * Stripe sandbox (port 12111 + TEAMWERK_STACK_OFFSET), paying on its hosted checkout page with
 * plain form posts, signing webhook payloads, and making sure the prices have Stripe ids.
 * Sets STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_API_HOST/PORT/PROTOCOL for handlers
 * built in-process (unless set), like the functions runner does.
 */
import Stripe from 'stripe';
import { assertEquals } from './assert.ts';
import { invoke, stack, stackConf, withDb } from './testing.ts';

/** The local stack's sandbox key and webhook secret (generated per data folder, scripts/local-stack/secrets.ts). */
export const SANDBOX_KEY = Deno.env.get('STRIPE_SECRET_KEY') ?? stackConf.stripeSecretKey;
export const WEBHOOK_SECRET = Deno.env.get('STRIPE_WEBHOOK_SECRET') ?? stackConf.stripeWebhookSecret;
export const stripePort = Number(Deno.env.get('STRIPE_API_PORT') ?? stackConf.ports.stripe);
export const stripeUrl = `http://127.0.0.1:${stripePort}`;

for (const [k, v] of Object.entries({
  STRIPE_SECRET_KEY: SANDBOX_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_HOST: '127.0.0.1',
  STRIPE_API_PORT: String(stripePort),
  STRIPE_API_PROTOCOL: 'http',
})) {
  if (!Deno.env.get(k)) Deno.env.set(k, v);
}

/** A Stripe SDK client for the sandbox (API version 2023-10-16). */
export function sandboxStripe(maxNetworkRetries = 0): Stripe {
  return new Stripe(SANDBOX_KEY, {
    apiVersion: '2023-10-16' as Stripe.LatestApiVersion,
    host: '127.0.0.1',
    port: stripePort,
    protocol: 'http',
    maxNetworkRetries,
    httpClient: Stripe.createFetchHttpClient(),
  });
}

/** `<plan>_<billing period>` of a price row. */
export type PriceKey = `${'basic' | 'premium' | 'enterprise'}_${'monthly' | 'quarterly' | 'semiannual' | 'yearly'}`;

/**
 * Makes sure every price row has a Stripe id the sandbox knows (runs scripts/stripe/sync-prices.ts
 * once, as the stack start does) and returns `{ '<plan>_<period>': 'price_…' }`.
 */
export async function ensurePrices(): Promise<Record<PriceKey, string>> {
  const stripe = sandboxStripe();
  const read = () =>
    withDb(async (db) => (await db.query(`select plan_id, billing_period::text, stripe_price_id from public.prices where active`)).rows as {
      plan_id: string;
      billing_period: string;
      stripe_price_id: string | null;
    }[]);
  let rows = await read();
  const known = async () => {
    if (rows.some((r) => !r.stripe_price_id)) return false;
    try {
      await stripe.prices.retrieve(rows[0]!.stripe_price_id!);
      return true;
    } catch {
      return false;
    }
  };
  if (!(await known())) {
    const out = await new Deno.Command('npx', {
      args: ['tsx', 'scripts/stripe/sync-prices.ts'],
      env: { TEAMWERK_STACK_OFFSET: String(stack.offset) },
      stdout: 'piped',
      stderr: 'piped',
    }).output();
    if (!out.success) throw new Error(`sync-prices failed: ${new TextDecoder().decode(out.stderr)}`);
    rows = await read();
  }
  return Object.fromEntries(rows.map((r) => [`${r.plan_id}_${r.billing_period}`, r.stripe_price_id!])) as Record<PriceKey, string>;
}

/** Test cards of the sandbox (README "Test cards"). */
export const CARDS = { ok: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', failsOnRenewal: '4000 0000 0000 0341' };

/**
 * Pays a checkout session on the sandbox's hosted page with a plain form post, as a browser
 * would. Returns the HTTP status and the redirect target (303 → success_url on success).
 */
export async function payCheckout(url: string, card: string = CARDS.ok, email?: string): Promise<{ status: number; location: string | null; text: string }> {
  const page = await fetch(url);
  const html = await page.text();
  if (!page.ok) throw new Error(`checkout page ${page.status}: ${html.slice(0, 200)}`);
  const exp = new Date();
  const form = new URLSearchParams({
    cardNumber: card,
    cardExpiry: `12 / ${String((exp.getUTCFullYear() + 3) % 100).padStart(2, '0')}`,
    cardCvc: '123',
    billingName: 'Test Kunde',
  });
  if (email || /name="email"/.test(html)) form.set('email', email ?? 'buyer@test.teamwerk.de');
  const res = await fetch(`${url.replace(/\/$/, '')}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** A `Stripe-Signature` header for `payload`, signed with the webhook secret at `timestamp` (unix s). */
export async function signPayload(payload: string, timestamp = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET): Promise<string> {
  return await sandboxStripe().webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}

/** Posts a webhook payload to the deployed stripe-webhook function (no apikey, as Stripe does). */
// deno-lint-ignore no-explicit-any -- test answers are inspected field by field
export async function postWebhook(payload: string, signature: string | null): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signature) headers['Stripe-Signature'] = signature;
  const res = await fetch(`${stack.apiUrl}/functions/v1/stripe-webhook`, { method: 'POST', headers, body: payload });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** Calls a sandbox-specific endpoint (README "Sandbox-specific endpoints"). */
export async function sandboxCall(method: string, path: string, form: Record<string, string> = {}): Promise<Response> {
  return await fetch(`${stripeUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${SANDBOX_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: method === 'GET' ? undefined : new URLSearchParams(form).toString(),
  });
}

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes; returns the last value. */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 15_000, stepMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** The stored subscription rows of a user and their role. */
export async function billingState(userId: string) {
  return await withDb(async (db) => {
    // one snapshot for both reads: the webhook's sync_subscription writes the subscription and the
    // role in one transaction, and may commit between two separate statements (subs [] but role set)
    await db.query('begin transaction isolation level repeatable read read only');
    const subs = (await db.query(
      `select stripe_subscription_id, status::text, plan_id, cancel_at_period_end, last_synced_at, stripe_checkout_session_id, updated_at
       from public.subscriptions where user_id = $1 order by created_at`,
      [userId],
    )).rows;
    const p = (await db.query(`select user_role::text, stripe_customer_id from public.profiles where id = $1`, [userId])).rows[0];
    await db.query('commit');
    return { subs, role: p?.user_role as string, customerId: p?.stripe_customer_id as string | null };
  });
}

/**
 * Opens a checkout session for `user` through create-checkout-session (as the SPA does).
 * Returns the hosted page's URL and the session id. Errors: a failed assertion on a non-200 answer.
 */
export async function startCheckout(
  user: { id: string; email: string; accessToken: string },
  priceId: string,
  planType: string,
  locale: 'de' | 'en' = 'en',
): Promise<{ url: string; sessionId: string }> {
  const res = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'Test Kunde', priceId, planType, locale }, { token: user.accessToken });
  assertEquals(res.status, 200, JSON.stringify(res.body));
  return res.body as { url: string; sessionId: string };
}
