/** `confirm-email` Edge Function (public): see handler.ts for the contract. */
import { createConfirmEmailHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';

Deno.serve(createConfirmEmailHandler(accountDepsFromEnv()));
