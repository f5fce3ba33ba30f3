/**
 * `cancel-contract` Edge Function (public, §312k BGB): see handler.ts for the contract.
 * Without a valid STRIPE_SECRET_KEY every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createCancelContractHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY'], () => createCancelContractHandler({ admin: adminClient(), stripe: createStripe() })));
