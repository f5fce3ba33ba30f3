/** `verify-ticket` Edge Function (signed-in buyers): see handler.ts for the contract. */
import { createVerifyTicketHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () => createVerifyTicketHandler({ resolveCaller, admin: adminClient(), stripe: createStripe() })));
