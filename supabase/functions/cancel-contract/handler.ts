/**
 * `cancel-contract` (issue 7 "German consumer law": the §312k BGB cancellation button
 * "Verträge hier kündigen", reachable without logging in; issue 12 finding 2: it acts only for the
 * account holder).
 *
 * POST `{ name, email, plan?: 'basic'|'premium'|'enterprise', contract?: string,
 *   reason?: string, requestedDate?: 'asap' | 'YYYY-MM-DD', locale?: 'de'|'en' }`, with or without
 *   a signed-in user's access token.
 * → 202 `{ received: true, requestId, confirmation: 'done' | 'email' }`.
 *
 * Signed in (a valid user access token): the CALLER's account is cancelled at once, whatever
 * address was typed — nobody cancels someone else's contract by typing their address.
 *   1. The declaration is stored (`submit_cancellation_request`, confirmed via session) and the
 *      receipt (cancellation_confirmation) queued to the account's address in the same transaction.
 *   2. Live subscriptions (active, trialing, past_due; of `plan` when given and present, else all)
 *      are set to end: `cancel_at_period_end` for 'asap' or a date up to the period end,
 *      `cancel_at` = end of the requested day (Europe/Berlin) for a later date; each is synced.
 *   3. The request records the outcome: scheduled, no_subscription, or failed (admin follows up).
 *   Answer `confirmation: 'done'`.
 * Anonymous: nothing happens at Stripe. The declaration is stored (the legal record with its
 * receipt time), rate limited per client IP and per address (429 `rate_limited`). When the address
 * belongs to an account, a link signed for that account and request (purpose cancel_contract,
 * 24 h, single use) is mailed to the ACCOUNT's address; only confirming it (confirm-cancellation)
 * schedules the cancellation. Unknown addresses get no mail. The answer is the same either way
 * (`confirmation: 'email'`): no account enumeration.
 * Errors: 400 `validation_failed` (missing/invalid fields, a date in the past), 401 `unauthorized`
 * (an invalid or expired access token), 405, 429 `rate_limited`, 500.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { bearer, HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { localizedUrl } from '../_shared/accounts.ts';
import { clientIpKey } from '../_shared/client-ip.ts';
import { berlinToday, CANCELLATION_LIMITS } from '../_shared/site/index.ts';
import type { Caller } from '../_shared/supabase.ts';
import { signToken } from '../_shared/tokens.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { customerSubscriptions, subscriptionPeriod, syncSubscription } from '../_shared/billing-sync.ts';

const LIVE = new Set(['active', 'trialing', 'past_due']);

const Body = z.object({
  name: z.string().trim().min(1).max(CANCELLATION_LIMITS.name),
  email: z.email().max(CANCELLATION_LIMITS.email),
  plan: z.enum(['basic', 'premium', 'enterprise']).nullish(),
  contract: z.string().trim().max(CANCELLATION_LIMITS.contract).nullish(),
  reason: z.string().trim().max(CANCELLATION_LIMITS.reason).nullish(),
  requestedDate: z.union([z.literal('asap'), z.iso.date()]).optional().default('asap'),
  locale: z.enum(['de', 'en']).optional().default('de'),
});

/** Dependencies of cancel-contract. */
export interface CancelContractDeps {
  /** Service-role client (the RPC, profile lookup, outcome update). */
  admin: SupabaseClient;
  stripe: Stripe;
  /** Who calls when the request carries a user's access token (throws HttpError 401 for an invalid one). */
  resolveCaller: (req: Request) => Promise<Caller>;
  /** True for a public key of the project (publishable or legacy anon): such a bearer means "not signed in" (keys.ts isPublicKey). */
  isPublicKey: (token: string) => boolean;
  /** SPA origin for the confirmation link. */
  siteUrl: string;
  /** TOKEN_SECRET for the confirmation link. */
  tokenSecret: string;
  /** Clock (ms); default Date.now. */
  now?: () => number;
}

/** Validity of a cancellation confirmation link: 24 hours (a mail may sit unread for a while; the
 * link only confirms what the holder's own address received, and works once). */
export const CANCEL_LINK_TTL_SECONDS = 24 * 3600;

/** The signed-in user behind the request, or null for an anonymous one (no bearer, or the anon key). */
async function signedInUser(req: Request, deps: CancelContractDeps): Promise<string | null> {
  const token = bearer(req);
  if (!token || deps.isPublicKey(token)) return null;
  const caller = await deps.resolveCaller(req);
  if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'The cancellation form is for customers');
  return caller.userId;
}

/** Maps a failed database call: PT429 → 429 rate_limited (with the database's detail), else a 500. */
function rpcError(what: string, error: { code?: string; message: string; details?: string | null; hint?: string | null }): Error {
  if (error.code === 'PT429') {
    return new HttpError(429, 'rate_limited', error.details ?? 'Too many cancellation requests; please try again later.');
  }
  return new Error(`${what}: ${error.message}`);
}

export { berlinToday } from '../_shared/site/index.ts';

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

    const accountId = await signedInUser(req, deps);
    const submitted = await deps.admin.rpc('submit_cancellation_request', {
      p_name: body.name,
      p_email: body.email,
      p_plan_id: body.plan ?? null,
      p_contract: body.contract ?? null,
      p_reason: body.reason ?? null,
      p_requested_date: body.requestedDate === 'asap' ? null : body.requestedDate,
      p_lang: body.locale,
      p_account_id: accountId,
      p_client_ip: accountId ? null : clientIpKey(req.headers),
    });
    if (submitted.error) throw rpcError('submit_cancellation_request', submitted.error);
    const row = (submitted.data as { request_id: string; user_id: string | null; needs_confirmation: boolean; lang: 'de' | 'en' }[])[0]!;

    if (accountId) {
      await scheduleAndRecord(deps, row.request_id, accountId, body.plan ?? null, body.requestedDate, now);
      return json({ received: true, requestId: row.request_id, confirmation: 'done' }, 202);
    }
    if (row.needs_confirmation && row.user_id) {
      const token = await signToken('cancel_contract', row.user_id, { secret: deps.tokenSecret, now: now(), requestId: row.request_id });
      const link = localizedUrl(deps.siteUrl, row.lang, '/cancel-subscription/confirm', { token });
      const queued = await deps.admin.rpc('queue_cancellation_link', { p_request_id: row.request_id, p_link: link });
      if (queued.error) throw rpcError('queue_cancellation_link', queued.error);
    }
    return json({ received: true, requestId: row.request_id, confirmation: 'email' }, 202);
  });
}

/**
 * Schedules the end of the account's subscriptions for request `requestId` and records the
 * outcome on the request (scheduled / no_subscription / failed). Used by cancel-contract (signed
 * in) and confirm-cancellation (the mailed link). Never throws for Stripe failures (they are
 * recorded as failed; an admin follows up).
 * @param requestedDate 'asap' or YYYY-MM-DD (German calendar day)
 */
export async function scheduleAndRecord(
  deps: Pick<CancelContractDeps, 'admin' | 'stripe'>,
  requestId: string,
  userId: string,
  plan: string | null,
  requestedDate: string,
  now: () => number,
): Promise<Outcome> {
  const outcome = await cancelSubscriptions(deps, userId, plan, requestedDate);
  const update = await deps.admin.from('cancellation_requests').update({
    status: outcome.status,
    stripe_subscription_ids: outcome.subscriptionIds,
    effective_at: outcome.effectiveAt,
    error: outcome.error,
    processed_at: new Date(now()).toISOString(),
  }).eq('id', requestId);
  if (update.error) console.error(JSON.stringify({ level: 'error', fn: 'cancel-contract', request: requestId, error: update.error.message }));
  return outcome;
}

/** What happened at Stripe for one request. */
export interface Outcome {
  status: 'scheduled' | 'no_subscription' | 'failed';
  subscriptionIds: string[];
  effectiveAt: string | null;
  error: string | null;
}

/** Sets the account's live subscriptions to end (see the module comment); never throws. */
async function cancelSubscriptions(deps: Pick<CancelContractDeps, 'admin' | 'stripe'>, userId: string, plan: string | null, requestedDate: string): Promise<Outcome> {
  const ids: string[] = [];
  try {
    const profile = await deps.admin.from('profiles').select('stripe_customer_id').eq('id', userId).maybeSingle();
    if (profile.error) throw new Error(profile.error.message);
    const customerId = (profile.data as { stripe_customer_id: string | null } | null)?.stripe_customer_id;
    if (!customerId) return { status: 'no_subscription', subscriptionIds: [], effectiveAt: null, error: null };
    const subs = (await customerSubscriptions(deps.stripe, customerId)).filter((s) => LIVE.has(s.status));
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
