/**
 * `process-email-queue` (spec §7; issue 6 "E-mail pipeline").
 *
 * POST, `Authorization: Bearer <service_role key>` (pg_cron every minute, other functions) or an
 * admin's access token; empty body (`{}` accepted).
 * → 200 `{ processed, sent, failed, dead }`: rows claimed, mails sent, failed send attempts (row
 *   back to pending with backoff), of which `dead` reached the attempt limit and are `failed`.
 * Errors: 401 `unauthorized` (no/invalid bearer), 403 `forbidden` (signed-in non-admin),
 * 405 `method_not_allowed`, 500 `internal_error` (e.g. the claim RPC failed; nothing is lost,
 * claimed rows are reclaimed after their lock expires).
 * Tuning (env): EMAIL_QUEUE_BATCH_SIZE (50), EMAIL_QUEUE_CONCURRENCY (8),
 * EMAIL_QUEUE_MAX_ATTEMPTS (5), EMAIL_QUEUE_LOCK_SECONDS (60); EMAIL_FROM is the sender.
 */
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { processEmailQueue, type MailSender, type QueueOptions, type QueueStore } from '../_shared/email/queue.ts';

/** Dependencies of process-email-queue. */
export interface ProcessQueueDeps {
  /** Throws HttpError 401/403 unless the caller is the service role or an admin. */
  authorize: (req: Request) => Promise<unknown>;
  store: QueueStore;
  sender: MailSender;
  options: QueueOptions;
}

/** Builds the request handler of `process-email-queue` over its dependencies. */
export function createProcessEmailQueueHandler(deps: ProcessQueueDeps): (req: Request) => Promise<Response> {
  return withErrors('process-email-queue', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    await deps.authorize(req);
    await req.body?.cancel();
    const result = await processEmailQueue(deps.store, deps.sender, deps.options);
    return json(result);
  });
}
