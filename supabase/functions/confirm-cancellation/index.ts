/**
 * `confirm-cancellation` Edge Function (public): see handler.ts. Without a valid
 * STRIPE_SECRET_KEY or TOKEN_SECRET every request answers 500 `server_misconfigured`.
 */
import { createConfirmCancellationHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';
import { withSecrets } from '../_shared/secrets.ts';
import { tokenSecret } from '../_shared/tokens.ts';

Deno.serve(withSecrets(['STRIPE_SECRET_KEY', 'TOKEN_SECRET'], () => createConfirmCancellationHandler({
  admin: adminClient(),
  stripe: createStripe(),
  tokenSecret: tokenSecret(),
})));
