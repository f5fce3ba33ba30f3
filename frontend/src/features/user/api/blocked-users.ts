import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import { currentUserId } from '@/lib/own-profile';

/**
 * A person the signed-in user blocked, as `public.my_blocked_users` returns it (issue 8): enough to
 * recognise them, nothing more. `profile_img` is a path in the avatars bucket or null;
 * `blocked_at` an ISO timestamp.
 */
export interface BlockedUser {
  user_id: string;
  display_name: string;
  slug: string;
  profile_img: string | null;
  blocked_at: string;
}

/** Query key prefix of everything derived from the caller's block list. */
export const BLOCKED_USERS_KEY = ['blocked-users'] as const;

/**
 * Query options of the caller's block list, newest block first (RPC `my_blocked_users`; the
 * database returns only blocks made BY the caller, never who blocked them).
 * @throws ApiError (42501 when nobody is signed in)
 */
export const blockedUsersQuery = () =>
  queryOptions({
    queryKey: [...BLOCKED_USERS_KEY, 'list'],
    queryFn: async (): Promise<BlockedUser[]> => unwrap(await supabase.rpc('my_blocked_users'), 'POST') as BlockedUser[],
  });

/**
 * Query options of "did I block the person behind /u/{slug}?": the entry, or null. RLS hides a
 * blocked profile from the blocker too, so /u/{slug} asks this to offer "Unblock" instead of
 * "not found" (issue 8). Someone who blocked the caller yields null (no leak).
 * @param slug profile slug from the URL
 * @throws ApiError (42501 when nobody is signed in: only enable it for a signed-in viewer)
 */
export const blockedUserBySlugQuery = (slug: string) =>
  queryOptions({
    queryKey: [...BLOCKED_USERS_KEY, 'by-slug', slug],
    queryFn: async (): Promise<BlockedUser | null> => {
      const rows = unwrap(await supabase.rpc('my_blocked_users', { p_slug: slug }), 'POST') as BlockedUser[];
      return rows[0] ?? null;
    },
  });

/**
 * Lifts the signed-in user's block of `blockedId` (RLS: only own blocks can be deleted). A block
 * that is already gone (e.g. lifted in another tab) counts as success.
 * @throws ApiError when the request fails, Error 'Not signed in' without a session
 */
export async function unblockUser(blockedId: string): Promise<void> {
  const me = await currentUserId();
  unwrap(await supabase.from('user_blocks').delete().eq('blocker_id', me).eq('blocked_id', blockedId), 'DELETE');
}

/**
 * After a block or unblock: a block changes what the caller sees everywhere (profiles, search,
 * lists, projects, events, contacts, chat; spec issue 8), so every cached query is invalidated and
 * the ones on screen are refetched. Resolves when those refetches have finished.
 */
export async function refreshAfterBlockChange(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries();
}
