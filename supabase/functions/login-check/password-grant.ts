/**
 * The Auth password grant login-check makes for the browser (supabase-js signInWithPassword).
 *
 * It calls Auth with the project's secret key and passes the browser's address as
 * `Sb-Forwarded-For`, so Auth's per-IP limits and its audit log count the browser, not the
 * function (docs "IP address forwarding": honoured only with an `sb_secret_…` key and with the
 * project setting `security_sb_forwarded_for_enabled`, which the deploy script turns on). With
 * only the legacy service_role key the header is not sent: hosted Auth would ignore it.
 */
import { createClient } from '@supabase/supabase-js';
import type { PasswordSignIn } from './handler.ts';

const clientOptions = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

/**
 * A password grant against Auth at `supabaseUrl` with `apiKey`.
 * Input of the returned function: e-mail, password and the browser's address (or null).
 * Output: the session, or Auth's refusal as `{ code, status, message }` (code as supabase-js reads
 * it: `error_code` of the legacy body, `code` of the 2024-01-01 body). Never throws for a refusal.
 */
export function createPasswordSignIn(supabaseUrl: string, apiKey: string): (email: string, password: string, clientAddress: string | null) => Promise<PasswordSignIn> {
  const forwards = apiKey.startsWith('sb_secret_');
  return async (email, password, clientAddress) => {
    const headers: Record<string, string> = forwards && clientAddress ? { 'Sb-Forwarded-For': clientAddress } : {};
    const client = createClient(supabaseUrl, apiKey, { ...clientOptions, global: { headers } });
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    if (error || !data.session) {
      return { ok: false, code: (error as { code?: string } | null)?.code ?? 'invalid_credentials', status: error?.status ?? 400, message: error?.message ?? 'Login failed' };
    }
    const s = data.session;
    return { ok: true, session: { access_token: s.access_token, refresh_token: s.refresh_token, expires_in: s.expires_in, expires_at: s.expires_at, token_type: s.token_type, user: s.user } };
  };
}
