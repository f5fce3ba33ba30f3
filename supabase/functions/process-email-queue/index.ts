/**
 * `process-email-queue` Edge Function (service role or admin): see handler.ts for the contract.
 * Without a valid RESEND_API_KEY every request answers 500 `server_misconfigured` (issue 12 §3)
 * and the queue is left untouched.
 */
import { createProcessEmailQueueHandler } from './handler.ts';
import { adminClient, requireServiceOrAdmin } from '../_shared/supabase.ts';
import { env, siteUrl } from '../_shared/env.ts';
import { resendSenderFromEnv, supabaseQueueStore } from '../_shared/email/queue.ts';
import { withSecrets } from '../_shared/secrets.ts';

const int = (name: string, fallback: number) => {
  const n = Number.parseInt(env(name, String(fallback)), 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

Deno.serve(
  withSecrets(['RESEND_API_KEY'], () =>
    createProcessEmailQueueHandler({
      authorize: requireServiceOrAdmin,
      store: supabaseQueueStore(adminClient()),
      sender: resendSenderFromEnv(),
      options: {
        siteUrl: siteUrl(),
        batchSize: int('EMAIL_QUEUE_BATCH_SIZE', 50),
        concurrency: int('EMAIL_QUEUE_CONCURRENCY', 8),
        maxAttempts: int('EMAIL_QUEUE_MAX_ATTEMPTS', 5),
        lockSeconds: int('EMAIL_QUEUE_LOCK_SECONDS', 60),
        // one-click unsubscribe links of notification mails (issue 13); without a usable
        // TOKEN_SECRET those mails link to the settings page instead
        unsubscribeSecret: env('TOKEN_SECRET').length >= 32 ? env('TOKEN_SECRET') : undefined,
        functionsUrl: env('SUPABASE_URL') ? `${env('SUPABASE_URL').replace(/\/+$/, '')}/functions/v1` : undefined,
      },
    }),
  ),
);
