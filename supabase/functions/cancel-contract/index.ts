/**
 * `cancel-contract` Edge Function (public, §312k BGB): see handler.ts for the contract.
 * Without a valid STRIPE_SECRET_KEY or TOKEN_SECRET every request answers 500
 * `server_misconfigured` (issue 12 §3).
 */
import { createCancelContractHandler } from './handler.ts';
import { adminClient, resolveCaller } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';
import { siteUrl } from '../_shared/env.ts';
import { isPublicKey } from '../_shared/keys.ts';
import { tokenSecret } from '../_shared/tokens.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY', 'TOKEN_SECRET'], () => createCancelContractHandler({
  admin: adminClient(),
  stripe: createStripe(),
  resolveCaller,
  isPublicKey,
  siteUrl: siteUrl(),
  tokenSecret: tokenSecret(),
})));
