import { getSessionUserId } from '@/lib/session';
import type { NavigationDeps } from './check-navigation';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** The signed-in user's role from public.my_profile() (the owner's path to private fields; `userId` guards against a stale session). */
async function userRole(userId: string): Promise<string | null> {
  const supabase = await client();
  const { data, error } = await supabase.rpc('my_profile').select('id, user_role').maybeSingle().retry(false);
  if (error || !data || data.id !== userId) return null;
  return typeof data.user_role === 'string' ? data.user_role : null;
}

/**
 * Navigation facts: who is signed in from lib/session (no supabase-js without a stored session),
 * subscription and role from the database. supabase-js is imported on first use only, so public
 * pages (which never ask) do not load it.
 */
export const sessionDeps: NavigationDeps = {
  userId: getSessionUserId,
  /** public.has_active_subscription(): a live paid subscription or admin, decided by the database (spec §6). */
  hasActiveSubscription: async () => {
    const supabase = await client();
    const { data, error } = await supabase.rpc('has_active_subscription').retry(false);
    return !error && data === true;
  },
  isAdmin: async (userId) => (await userRole(userId)) === 'admin',
};
