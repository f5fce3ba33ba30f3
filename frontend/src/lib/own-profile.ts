import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from './api-error';
import type { Database } from './database.types';
import { getSessionUserId } from './session';
import { supabase } from './supabase';

/** The caller's profile with private fields and the computed display fields (public.my_profile(), spec §3). */
export type OwnProfile = Database['public']['Functions']['my_profile']['Returns'][number];

/** The signed-in user's id (lib/session); throws when nobody is signed in. */
export async function currentUserId(): Promise<string> {
  const id = await getSessionUserId();
  if (!id) throw new Error('Not signed in');
  return id;
}

/**
 * Query options of the signed-in user's own profile: every column including the private ones,
 * display_name/display_address, premium_profile and suspended, through public.my_profile() (the
 * only path to one's private fields; issue 12). Shared by the header, the user area and the
 * matching dashboard.
 */
export const ownProfileQuery = () =>
  queryOptions({
    queryKey: ['own-profile'],
    queryFn: async (): Promise<OwnProfile> => {
      await currentUserId(); // throws when nobody is signed in
      return unwrap(await supabase.rpc('my_profile').single(), 'GET');
    },
  });

/** The signed-in user's profile (TanStack Query). */
export function useOwnProfile() {
  return useQuery(ownProfileQuery());
}
