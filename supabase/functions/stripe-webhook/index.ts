/** `stripe-webhook` Edge Function (called by Stripe, verify_jwt = false): see handler.ts for the contract. */
import { createStripeWebhookHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { requireEnv } from '../_shared/env.ts';

Deno.serve(createStripeWebhookHandler({ stripe: createStripe(), admin: adminClient(), webhookSecret: requireEnv('STRIPE_WEBHOOK_SECRET') }));
