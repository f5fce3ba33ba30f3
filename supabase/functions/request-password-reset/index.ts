/** `request-password-reset` Edge Function (public): see handler.ts for the contract. */
import { createRequestPasswordResetHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';

Deno.serve(createRequestPasswordResetHandler(accountDepsFromEnv()));
