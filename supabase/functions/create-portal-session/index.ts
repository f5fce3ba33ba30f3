/**
 * `create-portal-session` Edge Function (signed-in users): see handler.ts for the contract.
 * Without a valid STRIPE_SECRET_KEY every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createPortalSessionHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { env, siteUrl } from '../_shared/env.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () => createPortalSessionHandler({
  resolveCaller,
  admin: adminClient(),
  stripe: createStripe(),
  siteUrl: siteUrl(),
  portalConfiguration: env('STRIPE_PORTAL_CONFIGURATION') || null,
})));
