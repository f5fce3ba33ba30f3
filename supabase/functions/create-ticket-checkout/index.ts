/**
 * `create-ticket-checkout` Edge Function (signed-in users): see handler.ts for the contract.
 * Without a valid STRIPE_SECRET_KEY every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createTicketCheckoutHandler } from './handler.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { siteUrl } from '../_shared/env.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () =>
  createTicketCheckoutHandler({ resolveCaller, callerClient, admin: adminClient(), stripe: createStripe(), siteUrl: siteUrl() })));
