/**
 * The environment the local stack gives its Edge Functions: what hosted Supabase provides
 * (SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL, and the opaque keys
 * as JSON maps `SUPABASE_PUBLISHABLE_KEYS` / `SUPABASE_SECRET_KEYS` `{ "default": "sb_…" }`, as
 * supabase/cli `internal/functions/serve/templates/main.ts` passes them) plus the
 * project's secrets with this stack's values (issue 12 §3: generated per data folder, see
 * secrets.ts): TOKEN_SECRET, the Stripe sandbox (key, webhook secret, address), the mailbox as
 * Resend, SITE_URL. `supabase/functions/.env` overrides them (applied by the runner).
 * Imports nothing at run time, so Deno tests can use it to start a runner of their own.
 */
import type { StackConfig } from '../../config.ts';

/** The env of the functions of the stack described by `config`. */
export function functionsEnv(config: StackConfig): Record<string, string> {
  return {
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: config.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: config.secretKey }),
    SUPABASE_DB_URL: config.dbUrl,
    TOKEN_SECRET: config.tokenSecret,
    STRIPE_SECRET_KEY: config.stripeSecretKey,
    STRIPE_WEBHOOK_SECRET: config.stripeWebhookSecret,
    STRIPE_API_HOST: config.host,
    STRIPE_API_PORT: String(config.ports.stripe),
    STRIPE_API_PROTOCOL: 'http',
    RESEND_API_KEY: config.resendApiKey,
    RESEND_BASE_URL: config.mailboxUrl,
    SITE_URL: config.siteUrl,
  };
}
