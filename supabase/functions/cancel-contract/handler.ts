/**
 * `cancel-contract` (issue 7 "German consumer law": the §312k BGB cancellation button
 * "Verträge hier kündigen", reachable without logging in, confirmed by e-mail).
 *
 * POST (no login needed) `{ name, email, plan?: 'basic'|'premium'|'enterprise', contract?: string,
 *   reason?: string, requestedDate?: 'asap' | 'YYYY-MM-DD', locale?: 'de'|'en' }`.
 * → 202 `{ received: true, requestId }` — the same answer whether or not the address belongs to
 *   an account (no account enumeration).
 * What happens:
 * 1. The request is stored in `cancellation_requests` and the confirmation mail
 *    (cancellation_confirmation, in `locale`) queued in the same transaction
 *    (`submit_cancellation_request`, at most 5 mails per address and hour).
 * 2. When the address belongs to an account whose Stripe customer has live subscriptions
 *    (active, trialing, past_due; of `plan` when given and present, else all), each is set to end:
 *    `cancel_at_period_end` for 'asap' or a date up to the period end (the earliest possible end
 *    of an ordinary cancellation), `cancel_at` = end of the requested day (Europe/Berlin midnight)
 *    for a later date. Each is then synced through `syncSubscription`.
 * 3. The request row records the outcome: scheduled (+ subscription ids, effective_at),
 *    no_subscription, or failed (+ error) when Stripe could not be reached — the request and
 *    the mail stand, and an admin completes it (the customer can also cancel in the portal).
 * Errors: 400 `validation_failed` (missing/invalid fields, a date in the past), 405, 500.
 */
import { z } from 'npm:zod@^4';
import type { SupabaseClient } from 'npm:@supabase/supabase-js@^2';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { isStripeMissing, subscriptionPeriod, syncSubscription } from '../_shared/billing-sync.ts';

const LIVE = new Set(['active', 'trialing', 'past_due']);

const Body = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320),
  plan: z.enum(['basic', 'premium', 'enterprise']).nullish(),
  contract: z.string().trim().max(200).nullish(),
  reason: z.string().trim().max(2000).nullish(),
  requestedDate: z.union([z.literal('asap'), z.iso.date()]).optional().default('asap'),
  locale: z.enum(['de', 'en']).optional().default('de'),
});

/** Dependencies of cancel-contract. */
export interface CancelContractDeps {
  /** Service-role client (the RPC, profile lookup, outcome update). */
  admin: SupabaseClient;
  stripe: Stripe;
  /** Clock (ms); default Date.now. */
  now?: () => number;
}

/** Today's date in Germany as YYYY-MM-DD (dates on the form are German calendar days). */
export function berlinToday(nowMs: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(nowMs));
}

/** Unix seconds of the end of `date` (YYYY-MM-DD) in Europe/Berlin, i.e. the next day's 00:00 there. */
export function endOfBerlinDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d + 1);
  // Offset of Berlin at that instant (+1 h or +2 h).
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' }).formatToParts(new Date(utcMidnight));
  const off = /GMT([+-]\d+)/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '')?.[1] ?? '+1';
  return Math.floor((utcMidnight - Number(off) * 3_600_000) / 1000);
}

/** Builds the request handler of `cancel-contract` over its dependencies. */
export function createCancelContractHandler(deps: CancelContractDeps): (req: Request) => Promise<Response> {
  const now = deps.now ?? Date.now;
  return withErrors('cancel-contract', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const body = await readBody(req, Body);
    if (body.requestedDate !== 'asap' && body.requestedDate < berlinToday(now())) {
      throw new HttpError(400, 'validation_failed', 'requestedDate: must not be in the past');
    }

    const submitted = await deps.admin.rpc('submit_cancellation_request', {
      p_name: body.name,
      p_email: body.email,
      p_plan_id: body.plan ?? null,
      p_contract: body.contract ?? null,
      p_reason: body.reason ?? null,
      p_requested_date: body.requestedDate === 'asap' ? null : body.requestedDate,
      p_lang: body.locale,
    });
    if (submitted.error) throw new Error(`submit_cancellation_request: ${submitted.error.message}`);
    const row = (submitted.data as { request_id: string; user_id: string | null }[])[0]!;

    if (row.user_id) {
      const outcome = await cancelSubscriptions(deps, row.user_id, body.plan ?? null, body.requestedDate);
      const update = await deps.admin.from('cancellation_requests').update({
        status: outcome.status,
        stripe_subscription_ids: outcome.subscriptionIds,
        effective_at: outcome.effectiveAt,
        error: outcome.error,
        processed_at: new Date(now()).toISOString(),
      }).eq('id', row.request_id);
      if (update.error) console.error(JSON.stringify({ level: 'error', fn: 'cancel-contract', request: row.request_id, error: update.error.message }));
    } else {
      await deps.admin.from('cancellation_requests').update({ status: 'no_subscription', processed_at: new Date(now()).toISOString() }).eq('id', row.request_id);
    }
    return json({ received: true, requestId: row.request_id }, 202);
  });
}

interface Outcome {
  status: 'scheduled' | 'no_subscription' | 'failed';
  subscriptionIds: string[];
  effectiveAt: string | null;
  error: string | null;
}

/** Sets the account's live subscriptions to end (see the module comment); never throws. */
async function cancelSubscriptions(deps: CancelContractDeps, userId: string, plan: string | null, requestedDate: string): Promise<Outcome> {
  const ids: string[] = [];
  try {
    const profile = await deps.admin.from('profiles').select('stripe_customer_id').eq('id', userId).maybeSingle();
    if (profile.error) throw new Error(profile.error.message);
    const customerId = (profile.data as { stripe_customer_id: string | null } | null)?.stripe_customer_id;
    if (!customerId) return { status: 'no_subscription', subscriptionIds: [], effectiveAt: null, error: null };
    let subs: Stripe.Subscription[];
    try {
      subs = (await deps.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 })).data.filter((s) => LIVE.has(s.status));
    } catch (err) {
      if (isStripeMissing(err)) return { status: 'no_subscription', subscriptionIds: [], effectiveAt: null, error: null };
      throw err;
    }
    const ofPlan = plan ? subs.filter((s) => s.items.data[0]?.price?.metadata?.plan_id === plan || s.metadata?.planType === plan) : [];
    const targets = ofPlan.length ? ofPlan : subs;
    if (!targets.length) return { status: 'no_subscription', subscriptionIds: [], effectiveAt: null, error: null };

    let effective = 0;
    for (const sub of targets) {
      const periodEnd = subscriptionPeriod(sub).end ?? 0;
      const wanted = requestedDate === 'asap' ? null : endOfBerlinDay(requestedDate);
      const updated = wanted !== null && wanted > periodEnd
        ? await deps.stripe.subscriptions.update(sub.id, { cancel_at: wanted })
        : await deps.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
      ids.push(sub.id);
      effective = Math.max(effective, updated.cancel_at ?? subscriptionPeriod(updated).end ?? periodEnd);
      await syncSubscription(deps.stripe, deps.admin, sub.id, { userId });
    }
    return { status: 'scheduled', subscriptionIds: ids, effectiveAt: effective ? new Date(effective * 1000).toISOString() : null, error: null };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(JSON.stringify({ level: 'error', fn: 'cancel-contract', user: userId, error: message }));
    return { status: 'failed', subscriptionIds: ids, effectiveAt: null, error: message.slice(0, 1000) };
  }
}
