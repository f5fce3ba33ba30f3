import { supabase } from '@/lib/supabase';
import { broadcastAuth, clearAllCookies, setFreshLoginRequired } from '@/lib/auth-browser-state';

/**
 * Signs out (spec §4): ends the session with Auth, removes it from storage, clears all cookies,
 * sets the fresh-login-required flag and tells the other tabs. The caller then replaces the
 * history entry with /login.
 * @returns the Auth error message when the server-side logout failed (the local session is gone anyway), else null
 */
export async function signOut(): Promise<string | null> {
  const { error } = await supabase.auth.signOut();
  if (error) await supabase.auth.signOut({ scope: 'local' });
  clearAllCookies();
  setFreshLoginRequired(true);
  broadcastAuth('signed-out');
  return error ? error.message : null;
}
