/** `cancel-ticket` Edge Function (signed-in attendees): see handler.ts for the contract. */
import { createCancelTicketHandler } from './handler.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () =>
  createCancelTicketHandler({ resolveCaller, callerClient, admin: adminClient(), stripe: createStripe() })));
