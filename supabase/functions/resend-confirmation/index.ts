/** `resend-confirmation` Edge Function (public): see handler.ts for the contract. */
import { createResendConfirmationHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';

Deno.serve(createResendConfirmationHandler(accountDepsFromEnv()));
