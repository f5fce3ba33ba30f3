/**
 * Deleting an account ends its subscriptions at Stripe (issue 32 §1 "Deleting an account keeps
 * charging"). The deletion itself (any path: delete_my_account, admin_delete_user, the Auth admin
 * API) queues one row per deleted account with a Stripe customer in
 * `private.account_deletion_cancellations` (trigger on profiles, supabase/schemas/04_billing.sql),
 * so the deletion never waits for Stripe and nothing is lost while Stripe is down. This module
 * works that queue: the delete-account function right after a deletion it made, pg_cron every
 * minute for everything else and for retries.
 *
 * Rule (no refund rule is stated in the product, spec §9 / README): every subscription of the
 * customer that has not ended is cancelled AT ONCE (`DELETE /v1/subscriptions/:id`, no proration,
 * no final invoice, so no refund and no further charge); the delete dialogs say so before
 * confirming.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Stripe } from './stripe.ts';
import { customerSubscriptions, subscriptionPlan } from './billing-sync.ts';

/** Subscription statuses that can no longer charge. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** Outcome of one run of the queue. */
export interface DeletionCancellationRun {
  /** Rows claimed. */
  claimed: number;
  /** Rows completed (no live subscription left at Stripe; confirmation mail queued). */
  done: number;
  /** Rows that failed this time (kept pending, retried with backoff). */
  failed: number;
  /** Subscriptions cancelled at Stripe by this run (`sub_…`). */
  canceled: string[];
}

interface ClaimedCancellation {
  id: number;
  user_id: string;
  stripe_customer_id: string;
  known_subscription_ids: string[];
  attempts: number;
}

/**
 * Runs the deletion-cancellation queue once: claims up to `limit` due rows (or only the one of the
 * deleted account `userId`), and for each cancels every subscription of its Stripe customer that
 * has not ended, at once, with the idempotency key `account-deleted-cancel-<sub id>` (a retry
 * after a lost answer cancels once). Then `complete_account_deletion_cancellation` records the
 * ended subscriptions (those cancelled now, plus known ones already canceled by an earlier attempt)
 * and queues the confirmation mail once. A failure (Stripe unreachable, a refused call) is stored
 * on the row and retried after 2^attempts minutes (`fail_account_deletion_cancellation`).
 * Inputs: `limit` 1..100 (default 20). Output: the counts and the cancelled subscription ids.
 * Errors: throws only when the claim itself fails (database unavailable).
 */
export async function processDeletionCancellations(
  stripe: Stripe,
  admin: SupabaseClient,
  options: { limit?: number; userId?: string | null } = {},
): Promise<DeletionCancellationRun> {
  const claim = await admin.rpc('claim_account_deletion_cancellations', { p_limit: options.limit ?? 20, p_user_id: options.userId ?? null });
  if (claim.error) throw new Error(`claim_account_deletion_cancellations: ${claim.error.message}`);
  const rows = (claim.data ?? []) as ClaimedCancellation[];
  const run: DeletionCancellationRun = { claimed: rows.length, done: 0, failed: 0, canceled: [] };
  for (const row of rows) {
    try {
      const ended: string[] = [];
      const plans = new Set<string>();
      for (const sub of await customerSubscriptions(stripe, row.stripe_customer_id)) {
        if (ENDED.has(sub.status)) {
          // ended by an earlier attempt of this row whose answer was lost
          if (sub.status === 'canceled' && row.known_subscription_ids.includes(sub.id)) {
            ended.push(sub.id);
            const plan = subscriptionPlan(sub);
            if (plan) plans.add(plan);
          }
          continue;
        }
        await stripe.subscriptions.cancel(
          sub.id,
          { prorate: false, invoice_now: false, cancellation_details: { comment: 'account deleted (issue 32)' } },
          { idempotencyKey: `account-deleted-cancel-${sub.id}` },
        );
        ended.push(sub.id);
        run.canceled.push(sub.id);
        const plan = subscriptionPlan(sub);
        if (plan) plans.add(plan);
      }
      const done = await admin.rpc('complete_account_deletion_cancellation', {
        p_id: row.id,
        p_canceled_subscription_ids: ended,
        p_plan_ids: [...plans],
      });
      if (done.error) throw new Error(`complete_account_deletion_cancellation: ${done.error.message}`);
      run.done += 1;
      console.info(JSON.stringify({ level: 'info', fn: 'account-deletion', user: row.user_id, customer: row.stripe_customer_id, canceled: ended }));
    } catch (err) {
      run.failed += 1;
      const message = err instanceof Error ? err.message : String(err);
      console.error(JSON.stringify({ level: 'error', fn: 'account-deletion', user: row.user_id, attempt: row.attempts, error: message }));
      const failed = await admin.rpc('fail_account_deletion_cancellation', { p_id: row.id, p_error: message });
      if (failed.error) console.error(JSON.stringify({ level: 'error', fn: 'account-deletion', user: row.user_id, error: failed.error.message }));
    }
  }
  return run;
}
