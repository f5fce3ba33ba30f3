/** `register` Edge Function (public): see handler.ts for the contract. */
import { createRegisterHandler } from './handler.ts';
import { accountDepsFromEnv } from '../_shared/account-deps.ts';

Deno.serve(createRegisterHandler(accountDepsFromEnv()));
