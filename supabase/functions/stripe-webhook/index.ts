/**
 * `stripe-webhook` Edge Function (called by Stripe, verify_jwt = false): see handler.ts for the
 * contract. Without a valid STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET every request answers
 * 500 `server_misconfigured` (issue 12 §3), so Stripe retries the event once the secrets are set.
 */
import { createStripeWebhookHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { requireSecret, withSecrets } from '../_shared/secrets.ts';

Deno.serve(
  withSecrets(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], () =>
    createStripeWebhookHandler({ stripe: createStripe(), admin: adminClient(), webhookSecret: requireSecret('STRIPE_WEBHOOK_SECRET') }),
  ),
);
