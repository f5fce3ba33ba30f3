import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import type { PremiumProfileSettings } from '@/features/user';
import { getSessionUserId } from '@/lib/session';

type Row = Database['public']['Views']['public_profiles']['Row'];
/** What /u/{slug} shows of a profile (public.public_profiles: no private column; views type every column as nullable). */
export type PublicProfile = {
  [K in 'id' | 'slug' | 'firstname' | 'lastname' | 'display_name' | 'display_address' | 'skills' | 'categories' | 'type' | 'social_links']: NonNullable<Row[K]>;
} & Pick<Row, 'headline' | 'bio' | 'looking_for' | 'offering' | 'city' | 'profile_img'> & { premium_profile: PremiumProfileSettings | null };

const PUBLIC_COLUMNS =
  'id, slug, firstname, lastname, display_name, display_address, headline, bio, skills, looking_for, offering, categories, city, type, profile_img, social_links, premium_profile';

/** Query options of the public profile /u/{slug}: null when visibility, blocks or suspension hide it (RLS decides, spec §3). */
export const publicProfileQuery = (slug: string) =>
  queryOptions({
    queryKey: ['public-profile', slug],
    queryFn: async (): Promise<PublicProfile | null> => {
      const result = await supabase.from('public_profiles').select(PUBLIC_COLUMNS).eq('slug', slug).maybeSingle();
      return unwrap(result as { data: PublicProfile | null; error: typeof result.error; status: number }, 'GET');
    },
  });

/** Published projects of a user shown on their profile (newest first, at most 12). */
export const profileProjectsQuery = (ownerId: string) =>
  queryOptions({
    queryKey: ['profile-projects', ownerId],
    queryFn: async () =>
      unwrap(
        await supabase
          .from('projects')
          .select('id, slug, title, summary, category, city')
          .eq('owner_id', ownerId)
          .eq('status', 'published')
          .order('published_at', { ascending: false })
          .limit(12),
        'GET',
      ),
  });

/** Response stats of a profile (issue 19): over the last 90 days of contact requests received. */
export interface ResponseStats {
  /** decided requests (answered, expired or dismissed); at least 5, else there are no stats */
  requests: number;
  /** answered (accepted or declined) / requests, 0..1 */
  rate: number;
  /** median hours to an answer; null when none was answered */
  medianHours: number | null;
}

/**
 * Query options of a profile's response stats (RPC profile_response_stats): null below 5 decided
 * requests or when the profile is not visible to the viewer. Only aggregates, nobody's identity.
 */
export const responseStatsQuery = (profileId: string) =>
  queryOptions({
    queryKey: ['profile-response-stats', profileId],
    queryFn: async (): Promise<ResponseStats | null> => {
      const rows = unwrap(await supabase.rpc('profile_response_stats', { p_profile_id: profileId }), 'POST');
      const row = rows[0];
      if (!row) return null;
      return { requests: row.requests, rate: Number(row.response_rate), medianHours: row.median_response_hours === null ? null : Number(row.median_response_hours) };
    },
    staleTime: 5 * 60_000,
  });

/** The signed-in viewer's id, or null (no session stored). */
export async function viewerId(): Promise<string | null> {
  return getSessionUserId();
}

/**
 * Blocks a user (user_blocks). Blocking someone who is already blocked (23505, e.g. from another
 * tab) counts as success: the wanted state holds.
 * @throws ApiError with the database's code: 23514 self-block (constraint user_blocks_not_self), 42501 refused by RLS
 */
export async function blockUser(blockerId: string, blockedId: string): Promise<void> {
  try {
    unwrap(await supabase.from('user_blocks').insert({ blocker_id: blockerId, blocked_id: blockedId }), 'POST');
  } catch (err) {
    if (err instanceof ApiError && err.code === '23505') return;
    throw err;
  }
}
