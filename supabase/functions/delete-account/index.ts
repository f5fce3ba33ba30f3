/**
 * `delete-account` Edge Function (signed-in users deleting their account, admins deleting a user,
 * pg_cron working the cancellation queue): see handler.ts for the contract. Without a valid
 * STRIPE_SECRET_KEY every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createDeleteAccountHandler } from './handler.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () =>
  createDeleteAccountHandler({ resolveCaller, callerClient, admin: adminClient(), stripe: createStripe() })));
