/** `login-check` Edge Function (public): see handler.ts for the contract. */
import { createClient } from 'npm:@supabase/supabase-js@^2';
import { createLoginCheckHandler, type PasswordSignIn } from './handler.ts';
import { accountBaseDepsFromEnv } from '../_shared/account-deps.ts';
import { requireEnv } from '../_shared/env.ts';

const base = accountBaseDepsFromEnv();
const anonOptions = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

Deno.serve(
  createLoginCheckHandler({
    ...base,
    async signIn(email, password, clientIp): Promise<PasswordSignIn> {
      // The gateway keeps X-Forwarded-For only on requests with the service role key (our own
      // functions); from everyone else it takes the socket address (issue 12 finding 9).
      const serviceKey = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
      const client = createClient(requireEnv('SUPABASE_URL'), serviceKey, {
        ...anonOptions,
        global: { headers: { ...(clientIp ? { 'X-Forwarded-For': clientIp } : {}), Authorization: `Bearer ${serviceKey}` } },
      });
      const { data, error } = await client.auth.signInWithPassword({ email, password });
      if (error || !data.session) {
        return { ok: false, code: (error as { code?: string } | null)?.code ?? 'invalid_credentials', status: error?.status ?? 400, message: error?.message ?? 'Login failed' };
      }
      const s = data.session;
      return { ok: true, session: { access_token: s.access_token, refresh_token: s.refresh_token, expires_in: s.expires_in, expires_at: s.expires_at, token_type: s.token_type, user: s.user } };
    },
    async revoke(accessToken) {
      await base.admin.auth.admin.signOut(accessToken).catch(() => undefined);
    },
  }),
);
