/** `complete-password-reset` Edge Function (public): see handler.ts for the contract. */
import { createCompletePasswordResetHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';

Deno.serve(createCompletePasswordResetHandler(accountDepsFromEnv()));
