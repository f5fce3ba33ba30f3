/**
 * `create-checkout-session` (spec §4 "Checkout", §7 "POST /api/create-checkout-session", §8;
 * issue 7). The SPA calls it with `supabase.functions.invoke('create-checkout-session', …)`;
 * `/api/create-checkout-session` is the same contract.
 *
 * POST `{ userId: uuid, email, name, priceId: 'price_…', planType: 'basic'|'premium'|'enterprise',
 *        locale?: 'de'|'en', extraSeats?: 0..995 }` with the signed-in user's access token.
 * → 200 `{ url, sessionId }`: the Stripe Checkout page (subscription mode, card only, the plan's
 *   item of quantity 1, plus for Enterprise `extraSeats` organisation seats on top of the 5
 *   included as a second item on the extra-seat price of the same billing period (issue 15,
 *   public.seat_prices); success → `${SITE_URL}[/de]/signup?session_id={CHECKOUT_SESSION_ID}`, cancel →
 *   `${SITE_URL}[/de]/prices`; Checkout shown in German or English).
 * The Stripe customer is created once per account (e-mail, name, metadata.userId; an
 * idempotency key per user makes concurrent first calls share one) and its id stored on
 * profiles.stripe_customer_id with the service role; later calls reuse it.
 * Errors (`{ error: { code, message } }`):
 * - 401 `unauthorized`; 403 `forbidden` (userId is not the caller);
 * - 400 `validation_failed` (also extra seats with another plan than Enterprise), `invalid_price`
 *   (not an active price of public.prices, or no seat price for its period), `plan_mismatch`
 *   (planType differs from the price's plan);
 * - 409 `already_subscribed` (a paid subscription exists: plan changes go through the portal);
 * - 500 `stripe_not_configured` 'Stripe is not properly configured with a valid API key.';
 * - 500 `customer_failed` 'Failed to create checkout session' (customer not created/stored);
 * - 502 `checkout_failed` 'Failed to create checkout session'; 502 `no_checkout_url`
 *   'No checkout URL returned'; 503 `stripe_unavailable` (Stripe down, retry).
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { billingError, isStripeMissing } from '../_shared/billing-sync.ts';
import { localePrefix } from '../_shared/site/index.ts';

export const CHECKOUT_FAILED = 'Failed to create checkout session';
export const NO_CHECKOUT_URL = 'No checkout URL returned';

const Body = z.object({
  userId: z.uuid(),
  email: z.email().max(320),
  name: z.string().trim().max(200).optional().default(''),
  priceId: z.string().regex(/^price_[A-Za-z0-9_]+$/, 'expected a Stripe price id (price_…)'),
  planType: z.enum(['basic', 'premium', 'enterprise']),
  locale: z.enum(['de', 'en']).optional().default('en'),
  extraSeats: z.number().int().min(0).max(995).optional().default(0),
}).refine((b) => b.extraSeats === 0 || b.planType === 'enterprise', { message: 'Extra seats are only sold with Enterprise', path: ['extraSeats'] });

/** Dependencies of create-checkout-session. */
export interface CheckoutDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  /** Service-role client: profile and price reads, storing the customer id. */
  admin: SupabaseClient;
  stripe: Stripe;
  /** SPA origin without trailing slash (spec §9 default: local development address). */
  siteUrl: string;
}

/** `${site}` or `${site}/de` (spec §9: de has the /de prefix, en none). */
export function localeBase(siteUrl: string, locale: 'de' | 'en'): string {
  return `${siteUrl}${localePrefix(locale)}`;
}

/** Builds the request handler of `create-checkout-session` over its dependencies. */
export function createCheckoutSessionHandler(deps: CheckoutDeps): (req: Request) => Promise<Response> {
  return withErrors('create-checkout-session', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const body = await readBody(req, Body);
    if (caller.kind === 'user' && caller.userId !== body.userId.toLowerCase()) {
      throw new HttpError(403, 'forbidden', 'You can only start a checkout for your own account');
    }
    const userId = body.userId.toLowerCase();

    const price = await deps.admin
      .from('prices')
      .select('id, plan_id, active, stripe_price_id, billing_period')
      .eq('stripe_price_id', body.priceId)
      .maybeSingle();
    if (price.error) throw new Error(`price lookup: ${price.error.message}`);
    const row = price.data as { plan_id: string; active: boolean; billing_period: string } | null;
    if (!row || !row.active) throw new HttpError(400, 'invalid_price', 'Unknown or inactive price');
    if (row.plan_id !== body.planType) throw new HttpError(400, 'plan_mismatch', `The price belongs to plan ${row.plan_id}`);
    const lineItems: { price: string; quantity: number }[] = [{ price: body.priceId, quantity: 1 }];
    if (body.extraSeats > 0) {
      const seat = await deps.admin.from('seat_prices').select('stripe_price_id').eq('billing_period', row.billing_period).eq('active', true).maybeSingle();
      if (seat.error) throw new Error(`seat price lookup: ${seat.error.message}`);
      const seatPriceId = (seat.data as { stripe_price_id: string | null } | null)?.stripe_price_id;
      if (!seatPriceId) throw new HttpError(400, 'invalid_price', 'No extra-seat price for this billing period');
      lineItems.push({ price: seatPriceId, quantity: body.extraSeats });
    }

    const profile = await deps.admin.from('profiles').select('id, stripe_customer_id').eq('id', userId).maybeSingle();
    if (profile.error) throw new Error(`profile lookup: ${profile.error.message}`);
    if (!profile.data) throw new HttpError(404, 'not_found', 'User not found');

    const paid = await deps.admin
      .from('subscriptions')
      .select('id')
      .eq('user_id', userId)
      .in('status', ['active', 'trialing', 'past_due'])
      .limit(1);
    if (paid.error) throw new Error(`subscription lookup: ${paid.error.message}`);
    if ((paid.data ?? []).length > 0) {
      throw new HttpError(409, 'already_subscribed', 'You already have an active subscription. Change it in your settings.');
    }

    let customerId = (profile.data as { stripe_customer_id: string | null }).stripe_customer_id;
    if (!customerId) customerId = await createCustomer(deps, userId, body.email, body.name, null);

    const base = localeBase(deps.siteUrl, body.locale);
    // payment_method_types is valid in API version 2023-10-16 (spec §7: card only); the SDK's
    // types follow newer versions without it.
    const params: Stripe.Checkout.SessionCreateParams & { payment_method_types: ['card'] } = {
      mode: 'subscription',
      customer: customerId,
      payment_method_types: ['card'],
      line_items: lineItems,
      success_url: `${base}/signup?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}/prices`,
      locale: body.locale,
      client_reference_id: userId,
      metadata: { userId, planType: body.planType },
      subscription_data: { metadata: { userId, planType: body.planType } },
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await deps.stripe.checkout.sessions.create(params);
    } catch (err) {
      if (!(isStripeMissing(err) && (err as { param?: string }).param === 'customer')) throw checkoutError(err);
      // The stored customer no longer exists in Stripe (deleted, or demo data): make a new one.
      params.customer = await createCustomer(deps, userId, body.email, body.name, customerId);
      try {
        session = await deps.stripe.checkout.sessions.create(params);
      } catch (err2) {
        throw checkoutError(err2);
      }
    }
    if (!session.url) throw new HttpError(502, 'no_checkout_url', NO_CHECKOUT_URL);
    return json({ url: session.url, sessionId: session.id });
  });
}

/** Session creation failures: Stripe down → 503, bad key → 500 (spec §8 text), else 502 'Failed to create checkout session'. */
function checkoutError(err: unknown): HttpError {
  const mapped = billingError(err, 'checkout_failed', CHECKOUT_FAILED);
  return mapped.code === 'checkout_failed' && mapped.status === 500 ? new HttpError(502, mapped.code, mapped.message) : mapped;
}

/**
 * Creates the account's Stripe customer (e-mail, name, metadata.userId; spec §7) and stores its
 * id on the profile. `replacing` = the stored id that Stripe does not know; otherwise the id is
 * only stored while the profile has none, and a concurrent call's id wins.
 * Errors: HttpError from billingError (500 `stripe_not_configured` with the spec §8 text when
 * the key is missing, 503 when Stripe is down, 500 `customer_failed` otherwise).
 */
async function createCustomer(deps: CheckoutDeps, userId: string, email: string, name: string, replacing: string | null): Promise<string> {
  let customerId: string;
  try {
    const customer = await deps.stripe.customers.create(
      { email, name: name || undefined, metadata: { userId } },
      // One customer per account even when two first checkouts race (Stripe replays the answer).
      { idempotencyKey: `teamwerk-customer-${userId}${replacing ? `-replaces-${replacing}` : ''}` },
    );
    customerId = customer.id;
  } catch (err) {
    throw billingError(err, 'customer_failed', CHECKOUT_FAILED);
  }
  let update = deps.admin.from('profiles').update({ stripe_customer_id: customerId }).eq('id', userId);
  update = replacing ? update.eq('stripe_customer_id', replacing) : update.is('stripe_customer_id', null);
  const stored = await update.select('stripe_customer_id');
  if (stored.error) {
    // spec §8: a failed profile update with the customer id is only logged; checkout goes on and
    // the subscription sync stores the id later.
    console.error(JSON.stringify({ level: 'error', fn: 'create-checkout-session', message: 'storing customer id failed', error: stored.error.message }));
    return customerId;
  }
  if ((stored.data ?? []).length === 0) {
    const again = await deps.admin.from('profiles').select('stripe_customer_id').eq('id', userId).single();
    return (again.data as { stripe_customer_id: string | null } | null)?.stripe_customer_id ?? customerId;
  }
  return customerId;
}
