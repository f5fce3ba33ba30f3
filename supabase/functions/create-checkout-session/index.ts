/** `create-checkout-session` Edge Function (signed-in users): see handler.ts for the contract. */
import { createCheckoutSessionHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { siteUrl } from '../_shared/env.ts';

Deno.serve(createCheckoutSessionHandler({ resolveCaller, admin: adminClient(), stripe: createStripe(), siteUrl: siteUrl() }));
