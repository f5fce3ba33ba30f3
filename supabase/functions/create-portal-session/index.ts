/** `create-portal-session` Edge Function (signed-in users): see handler.ts for the contract. */
import { createPortalSessionHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { siteUrl } from '../_shared/env.ts';

Deno.serve(createPortalSessionHandler({ resolveCaller, admin: adminClient(), stripe: createStripe(), siteUrl: siteUrl() }));
