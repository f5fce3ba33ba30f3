/** `login-check` Edge Function (public): see handler.ts for the contract. */
import { createLoginCheckHandler, databaseLoginAttempts } from './handler.ts';
import { createPasswordSignIn } from './password-grant.ts';
import { accountBaseDepsFromEnv } from '../_shared/account-deps.ts';
import { requireEnv } from '../_shared/env.ts';
import { serviceKey } from '../_shared/keys.ts';

const base = accountBaseDepsFromEnv();

Deno.serve(
  createLoginCheckHandler({
    ...base,
    signIn: createPasswordSignIn(requireEnv('SUPABASE_URL'), serviceKey()),
    attempts: databaseLoginAttempts(base.admin),
    async revoke(accessToken) {
      await base.admin.auth.admin.signOut(accessToken).catch(() => undefined);
    },
  }),
);
