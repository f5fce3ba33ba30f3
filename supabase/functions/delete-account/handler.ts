/**
 * `delete-account` (DSGVO Art. 17 and admin user deletion, issue 32 §1: deleting an account ends
 * its subscriptions at Stripe).
 *
 * POST with a signed-in user's access token:
 * - `{ email }`: deletes the CALLER's account (`delete_my_account`, called with the caller's own
 *   session; the typed address must be the account's).
 * - `{ userId }`: an admin deletes that user (`admin_delete_user`, with the admin's session).
 *   → 200 `{ deleted: true, subscriptions: { canceled: ['sub_…'], pending: boolean } }`.
 * POST `{}` with the service key (pg_cron every minute): works the queue once →
 *   200 `{ claimed, done, failed, canceled }`.
 *
 * The database is the authority: the deletion queues the Stripe cancellation in its own
 * transaction (trigger on profiles, private.account_deletion_cancellations), whichever way the
 * account is deleted. This function then works that row at once (`processDeletionCancellations`):
 * every subscription of the customer that has not ended is cancelled immediately, without
 * proration or refund, the result is recorded and the confirmation mail queued. When Stripe is
 * unreachable the account is deleted all the same and the row stays queued (`pending: true`);
 * pg_cron retries with backoff until Stripe confirms. A deletion through the RPCs directly (or the
 * Auth admin API) is picked up by the cron run within a minute. (Should a cron run claim the row
 * first, this answer lists no cancellation although that run is making it.)
 * Errors: 400 `validation_failed` / `email_mismatch` / `cannot_delete_self`, 401 `unauthorized`,
 * 403 `forbidden` (not an admin), 404 `not_found`, 405; a failing database 500.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { rpcError } from '../_shared/rpc-error.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { processDeletionCancellations } from '../_shared/account-deletion.ts';

const Body = z.object({
  // no control characters (Postgres text holds no NUL): the RPC answers email_mismatch for anything else
  email: z.string().trim().min(1).max(320).refine((v) => ![...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127), 'no control characters').optional(),
  userId: z.uuid().optional(),
}).strict();

/** Dependencies of delete-account. */
export interface DeleteAccountDeps {
  /** Who calls (throws HttpError 401 without a valid token). */
  resolveCaller: (req: Request) => Promise<Caller>;
  /** A client acting with the caller's session (the deletion RPCs check who calls). */
  callerClient: (accessToken: string) => SupabaseClient;
  /** Service-role client (the cancellation queue). */
  admin: SupabaseClient;
  stripe: Stripe;
}

/** Builds the request handler of `delete-account` over its dependencies. */
export function createDeleteAccountHandler(deps: DeleteAccountDeps): (req: Request) => Promise<Response> {
  return withErrors('delete-account', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const body = await readBody(req, Body);
    if (caller.kind === 'service_role') {
      return json(await processDeletionCancellations(deps.stripe, deps.admin, { limit: 50 }));
    }
    if ((body.email === undefined) === (body.userId === undefined)) {
      throw new HttpError(400, 'validation_failed', 'Send either email (your own account) or userId (admins)');
    }
    const client = deps.callerClient(caller.accessToken);
    const target = body.userId ?? caller.userId;
    const deleted = body.userId !== undefined
      ? await client.rpc('admin_delete_user', { p_user_id: body.userId })
      : await client.rpc('delete_my_account', { p_email: body.email });
    if (deleted.error) throw rpcError(deleted.error);

    let run = { canceled: [] as string[], failed: 0 };
    try {
      run = await processDeletionCancellations(deps.stripe, deps.admin, { userId: target, limit: 1 });
    } catch (err) {
      // the account is gone and the cancellation is queued: the cron run retries it
      console.error(JSON.stringify({ level: 'error', fn: 'delete-account', user: target, error: err instanceof Error ? err.message : String(err) }));
      run.failed = 1;
    }
    return json({ deleted: true, subscriptions: { canceled: run.canceled, pending: run.failed > 0 } });
  });
}
