/**
 * `confirm-email` Edge Function (public): see handler.ts for the contract. Without a valid
 * TOKEN_SECRET every request answers 500 `server_misconfigured` (issue 12 §3).
 */
import { createConfirmEmailHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';
import { withSecrets } from '../_shared/secrets.ts';

Deno.serve(withSecrets(['TOKEN_SECRET'], () => createConfirmEmailHandler(accountDepsFromEnv())));
