import type { Session } from '@supabase/supabase-js';
import { type Locale } from '@site/locale';
import { supabase } from '@/lib/supabase';
import { broadcastAuth, isFreshLoginRequired, setFreshLoginRequired } from '@/lib/auth-browser-state';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
import type { OAuthProvider } from './providers';

/** What a login attempt ended with (spec §8: login returns false in every failure case). */
export type LoginResult =
  | { ok: true; userId: string }
  | {
      ok: false;
      /** `suspended`, `password_update_required`, `email_not_confirmed`, `invalid_credentials`, or another code. */
      code: string;
      /** The backend's message in the page's language (empty for unknown errors: show the generic text). */
      message: string;
    };

const KNOWN_CODES = new Set(['suspended', 'password_update_required', 'email_not_confirmed', 'invalid_credentials', 'over_request_rate_limit']);

/**
 * Logs in through the `login-check` function (spec §4/§5 order: suspended, legacy old_user,
 * unconfirmed), then stores the returned session with `supabase.auth.setSession`.
 * @param locale language of the backend's messages (the page's locale)
 * @returns `{ ok: true }` when signed in, else the failure code and message; never throws
 */
export async function loginWithPassword(email: string, password: string, locale: Locale): Promise<LoginResult> {
  try {
    const answer = await invokeFunction<{ status: string; session: Session }>('login-check', { email, password, locale });
    const { data, error } = await supabase.auth.setSession({
      access_token: answer.session.access_token,
      refresh_token: answer.session.refresh_token,
    });
    if (error || !data.session) return { ok: false, code: 'session_failed', message: '' };
    setFreshLoginRequired(false);
    broadcastAuth('signed-in');
    return { ok: true, userId: data.session.user.id };
  } catch (err) {
    if (err instanceof FunctionCallError && KNOWN_CODES.has(err.code)) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: err instanceof FunctionCallError ? err.code : 'unknown_error', message: '' };
  }
}

/** Role of a signed-in user from their profile (admin login check); null when unreadable. */
export async function fetchOwnRole(userId: string): Promise<string | null> {
  const { data } = await supabase.rpc('my_profile').select('id, user_role').maybeSingle();
  return data && data.id === userId ? data.user_role : null;
}

/**
 * Starts OAuth sign-in (spec §4: Google, LinkedIn). The provider returns to `returnPath` (the
 * login page, which picks the session up from the URL and continues to /user: a /user URL would
 * be refused by the navigation check before supabase-js has read the session from the fragment).
 * After a sign-out (the fresh-login flag, spec §4) Google is asked to let the person choose the
 * account (`prompt=select_account`, passed on by Auth) instead of signing the last one in
 * silently; LinkedIn always asks.
 * @returns an error message when the redirect could not start (the browser leaves the page otherwise)
 */
export async function signInWithProvider(provider: OAuthProvider, returnPath: string): Promise<string | null> {
  const fresh = provider === 'google' && isFreshLoginRequired();
  const { error } = await supabase.auth.signInWithOAuth({
    provider,
    options: { redirectTo: `${window.location.origin}${returnPath}`, ...(fresh ? { queryParams: { prompt: 'select_account' } } : {}) },
  });
  return error ? error.message : null;
}

/**
 * Completes an OAuth return: supabase-js reads the session from the URL (fragment or `?code=`)
 * while it initialises.
 * @returns 'none' when the URL carries no OAuth answer, 'ok' when signed in, 'failed' otherwise
 */
export async function completeOAuthReturn(url: URL): Promise<'none' | 'ok' | 'failed'> {
  const hash = new URLSearchParams(url.hash.slice(1));
  const hasAnswer = hash.has('access_token') || url.searchParams.has('code');
  const hasError = hash.has('error') || url.searchParams.has('error');
  if (!hasAnswer && !hasError) return 'none';
  if (hasError) return 'failed';
  const { data, error } = await supabase.auth.getSession();
  if (error || !data.session) return 'failed';
  setFreshLoginRequired(false);
  broadcastAuth('signed-in');
  return 'ok';
}
