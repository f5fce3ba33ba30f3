/**
 * `confirm-cancellation` (issue 12 finding 2): the account holder confirms a cancellation that was
 * submitted without login, with the link mailed to the account's address by cancel-contract.
 *
 * POST `{ token }` (no login needed; the SPA page /cancel-subscription/confirm posts it on the
 * holder's click — a GET never acts, since mail scanners follow links).
 * The token is signed for the account and the request (purpose cancel_contract), valid 24 hours
 * (CANCEL_LINK_TTL_SECONDS) and single use (`consume_auth_token`). Then the request is marked
 * confirmed (`confirm_cancellation_request`, which queues the receipt to the account address) and
 * the subscriptions are set to end exactly as for a signed-in cancellation.
 * → 200 `{ confirmed: true, requestId, status: 'scheduled'|'no_subscription'|'failed', effectiveAt }`.
 * Errors: 400 `token_expired` (forged, altered, expired or undecodable; spec §5), 400 `token_used`
 * (a second use, or the request was confirmed already), 405, 500.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { verifyToken } from '../_shared/tokens.ts';
import { CANCEL_LINK_TTL_SECONDS, scheduleAndRecord } from '../cancel-contract/handler.ts';

const Body = z.object({ token: z.string().min(1).max(2048) });

/** Dependencies of confirm-cancellation. */
export interface ConfirmCancellationDeps {
  /** Service-role client (ledger, request, outcome). */
  admin: SupabaseClient;
  stripe: Stripe;
  /** TOKEN_SECRET. */
  tokenSecret: string;
  /** Clock (ms); default Date.now. */
  now?: () => number;
}

const TOKEN_EXPIRED = () => new HttpError(400, 'token_expired', 'This link has expired or is invalid; please submit the cancellation again');
const TOKEN_USED = () => new HttpError(400, 'token_used', 'This cancellation has already been confirmed');

/** Builds the request handler of `confirm-cancellation` over its dependencies. */
export function createConfirmCancellationHandler(deps: ConfirmCancellationDeps): (req: Request) => Promise<Response> {
  const now = deps.now ?? Date.now;
  return withErrors('confirm-cancellation', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const { token } = await readBody(req, Body);
    const verified = await verifyToken(token, 'cancel_contract', { secret: deps.tokenSecret, now: now(), ttlSeconds: CANCEL_LINK_TTL_SECONDS });
    if (!verified.ok || !verified.payload.r) throw TOKEN_EXPIRED();
    const { sub: userId, r: requestId, n: nonce, iat } = verified.payload;

    const consumed = await deps.admin.rpc('consume_auth_token', {
      p_nonce: nonce,
      p_user_id: userId,
      p_purpose: 'cancel_contract',
      p_expires_at: new Date((iat + CANCEL_LINK_TTL_SECONDS) * 1000).toISOString(),
    });
    if (consumed.error) {
      // the account was deleted meanwhile (foreign key): nothing left to cancel
      if (consumed.error.code === '23503') throw TOKEN_EXPIRED();
      throw new Error(`consume_auth_token: ${consumed.error.message}`);
    }
    if (consumed.data !== true) throw TOKEN_USED();

    const confirmed = await deps.admin.rpc('confirm_cancellation_request', { p_request_id: requestId, p_user_id: userId });
    if (confirmed.error) {
      if (confirmed.error.code === 'PT404') throw TOKEN_USED();
      throw new Error(`confirm_cancellation_request: ${confirmed.error.message}`);
    }
    const row = (confirmed.data as { request_id: string; plan_id: string | null; requested_date: string | null }[])[0]!;
    const outcome = await scheduleAndRecord(deps, row.request_id, userId, row.plan_id, row.requested_date ?? 'asap', now);
    return json({ confirmed: true, requestId: row.request_id, status: outcome.status, effectiveAt: outcome.effectiveAt });
  });
}
