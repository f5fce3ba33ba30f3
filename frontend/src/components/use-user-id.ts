import { useQuery } from '@tanstack/react-query';

/** Query key of the signed-in user's id. */
export const USER_ID_KEY = ['session', 'user-id'] as const;

/**
 * Id of the signed-in user from the stored supabase-js session, or null when logged out.
 * Loads supabase-js lazily (public pages stay light).
 */
export async function getUserId(): Promise<string | null> {
  const { supabase } = await import('@/lib/supabase');
  const { data } = await supabase.auth.getSession();
  return data.session?.user.id ?? null;
}

/** Hook around getUserId (cached for the page's life; the session watcher reloads on sign-out). */
export function useUserId() {
  return useQuery({ queryKey: USER_ID_KEY, queryFn: getUserId, staleTime: 30_000 });
}
