/**
 * Dependencies of the account functions (register, confirm-email, resend-confirmation,
 * request-password-reset, complete-password-reset, login-check), built from the environment
 * by `accountDepsFromEnv`; tests pass their own clock, secret, captcha and queue kick.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { adminClient } from './supabase.ts';
import { env, siteUrl } from './env.ts';
import { tokenSecret, tokenTtlSeconds } from './tokens.ts';
import { captchaVerifierFromEnv, type CaptchaVerifier } from './accounts.ts';
import { processEmailQueue, resendSenderFromEnv, supabaseQueueStore, type QueueRunResult } from './email/queue.ts';

export interface AccountDeps {
  /** Service-role client (auth admin API, profiles, email_queue, RPCs). */
  admin: SupabaseClient;
  /** SPA origin for links in mails. */
  siteUrl: string;
  /** Clock, milliseconds since the epoch. */
  now: () => number;
  tokenSecret: string;
  tokenTtlSeconds: number;
  captcha: CaptchaVerifier;
  /** Sends due mails right away (the minute cron is the safety net). Never throws. */
  kickQueue: () => Promise<QueueRunResult | null>;
}

/**
 * Starts `work` without holding the response: `EdgeRuntime.waitUntil` on hosted Supabase keeps
 * the worker alive until it settles; locally the runner process stays up anyway.
 */
export function background(work: Promise<unknown>): void {
  const runtime = (globalThis as unknown as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime;
  const guarded = work.catch((err) => console.error(JSON.stringify({ background: String(err) })));
  if (runtime?.waitUntil) runtime.waitUntil(guarded);
}

/** Processes up to two batches of the queue now; errors are logged, the answer is null then. */
export function queueKicker(admin: SupabaseClient, site: string): () => Promise<QueueRunResult | null> {
  return async () => {
    try {
      return await processEmailQueue(supabaseQueueStore(admin), resendSenderFromEnv(), {
        siteUrl: site,
        maxBatches: 2,
        timeBudgetMs: 5_000,
      });
    } catch (err) {
      console.error(JSON.stringify({ fn: 'kickQueue', error: err instanceof Error ? err.message : String(err) }));
      return null;
    }
  };
}

/** The account dependencies without the token secret (for functions that sign no token, e.g. login-check). */
export type AccountBaseDeps = Omit<AccountDeps, 'tokenSecret'>;

/** The production/local dependencies from the environment, without TOKEN_SECRET (see env.ts). */
export function accountBaseDepsFromEnv(): AccountBaseDeps {
  const admin = adminClient();
  const site = siteUrl();
  return {
    admin,
    siteUrl: site,
    now: Date.now,
    tokenTtlSeconds: tokenTtlSeconds(),
    captcha: captchaVerifierFromEnv(),
    kickQueue: env('EMAIL_QUEUE_KICK', 'on') === 'off' ? () => Promise.resolve(null) : queueKicker(admin, site),
  };
}

/**
 * The production/local dependencies from the environment (see env.ts, tokens.ts).
 * Errors: throws MisconfiguredError (500 `server_misconfigured`) without a valid TOKEN_SECRET;
 * the functions build it inside `withSecrets(['TOKEN_SECRET'], …)`, which answers that first.
 */
export function accountDepsFromEnv(): AccountDeps {
  return { ...accountBaseDepsFromEnv(), tokenSecret: tokenSecret() };
}
