/** `process-ticket-refunds` Edge Function (pg_cron, signed-in users): see handler.ts. */
import { createProcessRefundsHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () => createProcessRefundsHandler({ resolveCaller, admin: adminClient(), stripe: createStripe() })));
