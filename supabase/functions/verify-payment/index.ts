/** `verify-payment` Edge Function (signed-in users, service role): see handler.ts for the contract. */
import { createVerifyPaymentHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';

Deno.serve(createVerifyPaymentHandler({ resolveCaller, admin: adminClient(), stripe: createStripe() }));
