/** `cancel-contract` Edge Function (public, §312k BGB): see handler.ts for the contract. */
import { createCancelContractHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';

Deno.serve(createCancelContractHandler({ admin: adminClient(), stripe: createStripe() }));
