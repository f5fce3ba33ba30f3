/**
 * Supabase clients for Edge Functions and the caller's identity.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { HttpError, bearer } from './http.ts';
import { requireEnv } from './env.ts';
import { isServiceKey, publicKey, serviceKey } from './keys.ts';

const options = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

/** A service_role client (bypasses RLS): only for writes the database grants to service_role. */
export function adminClient(): SupabaseClient {
  return createClient(requireEnv('SUPABASE_URL'), serviceKey(), options);
}

/** A client acting as the caller (their JWT), so RLS applies. */
export function callerClient(accessToken: string): SupabaseClient {
  return createClient(requireEnv('SUPABASE_URL'), publicKey(), {
    ...options,
    global: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
}

/** Who is calling: the service role (bearer = a secret key or the service_role JWT) or a signed-in user. */
export type Caller =
  | { kind: 'service_role' }
  | { kind: 'user'; userId: string; email: string | null; accessToken: string; isAdmin: boolean };

/**
 * Resolves the caller from the Authorization header. The user's token is checked by Auth
 * (`auth.getUser`), the admin flag read from `profiles.user_role` (spec §6).
 * Errors: HttpError 401 `unauthorized` without a valid token.
 */
export async function resolveCaller(req: Request): Promise<Caller> {
  const token = bearer(req);
  if (!token) throw new HttpError(401, 'unauthorized', 'Missing bearer token');
  if (isServiceKey(token)) return { kind: 'service_role' };
  const admin = adminClient();
  const { data, error } = await admin.auth.getUser(token);
  if (error || !data.user) throw new HttpError(401, 'unauthorized', 'Invalid or expired token');
  const profile = await admin.from('profiles').select('user_role').eq('id', data.user.id).maybeSingle();
  return {
    kind: 'user',
    userId: data.user.id,
    email: data.user.email ?? null,
    accessToken: token,
    isAdmin: (profile.data as { user_role?: string } | null)?.user_role === 'admin',
  };
}

/** Like resolveCaller, but only the service role or an admin pass. Errors: 401, 403 `forbidden`. */
export async function requireServiceOrAdmin(req: Request): Promise<Caller> {
  const caller = await resolveCaller(req);
  if (caller.kind === 'user' && !caller.isAdmin) throw new HttpError(403, 'forbidden', 'Only admins may call this function');
  return caller;
}
