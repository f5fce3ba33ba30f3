import type { NavigationDeps } from './check-navigation';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** supabase-js keeps the session under `sb-<project-ref>-auth-token`; without one nobody is signed in. */
function hasStoredSession(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith('sb-') && key.endsWith('-auth-token')) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** The signed-in user's role from public.my_profile() (the owner's path to private fields; `userId` guards against a stale session). */
async function userRole(userId: string): Promise<string | null> {
  const supabase = await client();
  const { data, error } = await supabase.rpc('my_profile').select('id, user_role').maybeSingle().retry(false);
  if (error || !data || data.id !== userId) return null;
  return typeof data.user_role === 'string' ? data.user_role : null;
}

/**
 * Navigation facts from supabase-js. supabase-js is imported on first use only, so public pages
 * (which never ask) do not load it.
 */
export const sessionDeps: NavigationDeps = {
  userId: async () => {
    if (!hasStoredSession()) return null;
    const supabase = await client();
    const { data } = await supabase.auth.getSession();
    return data.session?.user.id ?? null;
  },
  /** public.has_active_subscription(): a live paid subscription or admin, decided by the database (spec §6). */
  hasActiveSubscription: async () => {
    const supabase = await client();
    const { data, error } = await supabase.rpc('has_active_subscription').retry(false);
    return !error && data === true;
  },
  isAdmin: async (userId) => (await userRole(userId)) === 'admin',
};
