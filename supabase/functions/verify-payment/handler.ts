/**
 * `verify-payment` (spec §3 "Checkout verification result", §4 "Payment flow", §5; issue 7).
 * Called by /signup?session_id=… and /payment/success after Stripe Checkout.
 *
 * POST `{ sessionId: 'cs_…' }` with the signed-in user's access token (or the service role key).
 * → 200 `{ customerId, subscriptionId, priceId, customerEmail, periodStart, periodEnd, status,
 *   planId, userRole }`: periodStart/periodEnd are ISO 8601 timestamps (UTC) of the current
 *   billing period; status is the Stripe subscription status; planId/userRole as stored after the
 *   sync (userRole = profiles.user_role, e.g. 'premium').
 * Before answering, the subscription is re-read from Stripe and stored with the shared
 * `syncSubscription` (the same path as the webhook), so the role is current when the SPA
 * reloads the profile. Calling it again is harmless.
 * Errors (`{ error: { code, message } }`):
 * - 400 `missing_session_id` 'Session ID is required' (spec §5: a payment return without a
 *   session id is an error); 400 `validation_failed` (not a checkout session id);
 * - 400 `payment_not_completed` 'Payment not completed' (payment_status is not paid; spec §5);
 * - 409 `duplicate_subscription` (issue 12 finding 7): the account already had a live
 *   subscription, so this one was cancelled and its payment refunded (by this call or earlier by
 *   the webhook); the customer keeps the existing subscription and is told by e-mail too;
 * - 401 `unauthorized`; 403 `forbidden` (another account's session); 404 `session_not_found`;
 * - 503 `stripe_unavailable` / `sync_failed` (Stripe or the database unreachable; nothing is
 *   lost: retry, and the webhook syncs the subscription independently), `Retry-After: 5`;
 * - 500 `stripe_not_configured` (spec §8 text), 500 `verification_failed`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, errorResponse, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { billingError, isStripeMissing, subscriptionPeriod, subscriptionPrice, syncSubscription } from '../_shared/billing-sync.ts';

export const PAYMENT_NOT_COMPLETED = 'Payment not completed';
export const MISSING_SESSION_ID = 'Session ID is required';
export const DUPLICATE_REFUNDED = 'You already have an active subscription. The new one was cancelled and your payment refunded.';

const Body = z.object({
  sessionId: z.string().trim().max(255).optional().nullable(),
});

/** Dependencies of verify-payment. */
export interface VerifyPaymentDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  admin: SupabaseClient;
  stripe: Stripe;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function iso(seconds: number | null): string | null {
  return seconds === null ? null : new Date(seconds * 1000).toISOString();
}

/** Builds the request handler of `verify-payment` over its dependencies. */
export function createVerifyPaymentHandler(deps: VerifyPaymentDeps): (req: Request) => Promise<Response> {
  const handler = withErrors('verify-payment', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const { sessionId } = await readBody(req, Body);
    if (!sessionId) throw new HttpError(400, 'missing_session_id', MISSING_SESSION_ID);
    if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw new HttpError(400, 'validation_failed', 'sessionId: expected a checkout session id (cs_…)');

    let session: Stripe.Checkout.Session;
    try {
      session = await deps.stripe.checkout.sessions.retrieve(sessionId);
    } catch (err) {
      if (isStripeMissing(err)) throw new HttpError(404, 'session_not_found', 'Checkout session not found');
      throw billingError(err, 'verification_failed', 'Payment verification failed');
    }

    const customerId = idOf(session.customer as string | { id: string } | null);
    if (caller.kind === 'user') {
      let own = session.metadata?.userId === caller.userId || session.client_reference_id === caller.userId;
      if (!own && customerId) {
        const p = await deps.admin.from('profiles').select('stripe_customer_id').eq('id', caller.userId).maybeSingle();
        own = (p.data as { stripe_customer_id?: string | null } | null)?.stripe_customer_id === customerId;
      }
      if (!own) throw new HttpError(403, 'forbidden', 'This checkout session belongs to another account');
    }
    if (session.payment_status !== 'paid') throw new HttpError(400, 'payment_not_completed', PAYMENT_NOT_COMPLETED);
    const subscriptionId = idOf(session.subscription as string | { id: string } | null);
    if (!subscriptionId) throw new HttpError(400, 'payment_not_completed', PAYMENT_NOT_COMPLETED);

    let result;
    try {
      result = await syncSubscription(deps.stripe, deps.admin, subscriptionId, {
        userId: session.metadata?.userId ?? (caller.kind === 'user' ? caller.userId : null),
        checkoutSessionId: session.id,
      });
    } catch (err) {
      throw billingError(err, 'verification_failed', 'Payment verification failed');
    }
    let duplicate = result.duplicates.includes(subscriptionId);
    if (!duplicate) {
      const known = await deps.admin.rpc('is_duplicate_subscription', { p_stripe_subscription_id: subscriptionId });
      if (known.error) throw billingError(new Error(known.error.message), 'verification_failed', 'Payment verification failed');
      duplicate = known.data === true;
    }
    if (duplicate) throw new HttpError(409, 'duplicate_subscription', DUPLICATE_REFUNDED);
    const sub = result.stripeSubscriptions[0]!;
    const period = subscriptionPeriod(sub);
    const row = result.subscriptions[0] ?? null;
    return json({
      customerId: customerId ?? idOf(sub.customer as string | { id: string }),
      subscriptionId,
      priceId: subscriptionPrice(sub)?.id ?? null,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
      periodStart: iso(period.start),
      periodEnd: iso(period.end),
      status: sub.status,
      planId: row?.plan_id ?? null,
      userRole: result.userRole,
    });
  });
  return async (req) => {
    const res = await handler(req);
    if (res.status !== 503) return res;
    // Tell clients (and the SPA's retry) when to try again.
    const body = await res.json() as { error: { code: string; message: string } };
    const out = errorResponse(503, body.error.code, body.error.message);
    out.headers.set('Retry-After', '5');
    return out;
  };
}
