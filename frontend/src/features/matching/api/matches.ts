import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import { type Industry, type MatchCommitment, MATCHING_KEY, type MatchKind, type MatchRole, type Stage } from './match-profile';
import { unwrapRpc } from './matching-errors';

/*
 * The matching engine's answers for the caller (issue 19): match_people (matches, filters, paging,
 * the Basic quota), match_projects (open roles that fit), declines and the Enterprise CSV export
 * export_matches_csv (supabase/schemas/18_matching.sql).
 */

/** A structured reason of the engine: {code, side?, criterion, points, max, must, ...params}. */
export interface MatchReason {
  code: string;
  side?: 'you' | 'they';
  criterion: string | null;
  points: number;
  max: number;
  must: boolean;
  [param: string]: unknown;
}

/** One match of match_people. */
export interface MatchItem {
  user_id: string;
  slug: string;
  display_name: string;
  profile_img: string | null;
  headline: string | null;
  city: string | null;
  kind: MatchKind | null;
  roles_offered: MatchRole[];
  skills: string[];
  skill_tags: string[];
  score: number;
  score_mine: number;
  score_theirs: number;
  is_new: boolean;
  reasons: MatchReason[];
}

/** The upgrade hint of a result (free → basic, basic → premium). */
export interface UpgradeHint {
  plan: 'basic' | 'premium';
  reason: string;
}

/** Answer of match_people. `quota` only for Basic. */
export interface MatchPage {
  plan: string;
  count: number;
  items: MatchItem[];
  next_cursor: string | null;
  quota: { limit: number; used: number; remaining: number; resets_at: string; withheld: number } | null;
  upgrade: UpgradeHint | null;
}

/** Filters of match_people (Premium / Enterprise). */
export interface MatchFilters {
  kinds?: MatchKind[];
  roles?: MatchRole[];
  skills?: string[];
  industries?: Industry[];
  commitment?: MatchCommitment[];
  languages?: string[];
  remote?: boolean;
  city?: string;
  radius_km?: number;
  min_score?: number;
}

/** One open role of a project that fits the caller (match_projects). */
export interface ProjectMatch {
  project_id: number;
  slug: string;
  title: string;
  summary: string | null;
  city: string | null;
  category: Industry | null;
  stage: Stage | null;
  role_id: number;
  role: MatchRole;
  role_title: string | null;
  skills: string[];
  commitment: MatchCommitment | null;
  score: number;
  reasons: MatchReason[];
}

/**
 * One page of the caller's matches (match_people).
 * @param profileId null = the primary profile; else a saved profile (Enterprise)
 * @param filters {} below Premium (else PT402 premium_required)
 * @throws MatchingError (PT404 match_profile_missing, PT429 weekly_match_limit with hint, …)
 */
export async function fetchMatches(profileId: string | null, filters: MatchFilters, limit: number, cursor: string | null): Promise<MatchPage> {
  return unwrapRpc(
    await supabase.rpc('match_people', {
      p_profile_id: profileId ?? undefined,
      p_filters: filters as Database['public']['Functions']['match_people']['Args']['p_filters'],
      p_limit: limit,
      p_cursor: cursor ?? undefined,
    }),
  ) as unknown as MatchPage;
}

/** Query options of the first page of matches on /dashboard (no filters). */
export const dashboardMatchesQuery = (limit = 6) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'people', 'dashboard', limit],
    queryFn: () => fetchMatches(null, {}, limit, null),
    retry: false,
  });

/** Query options of open roles of other projects that fit the caller (match_projects, first page). */
export const projectMatchesQuery = (limit = 5) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'projects', limit],
    queryFn: async () =>
      unwrapRpc(await supabase.rpc('match_projects', { p_limit: limit })) as unknown as {
        plan: string;
        count: number;
        items: ProjectMatch[];
        upgrade: UpgradeHint | null;
      },
    retry: false,
  });

/**
 * "Not interested": records a decline (match_declines; the person is never shown again, and the
 * person does not see the caller for 30 days).
 */
export async function declineMatch(userId: string): Promise<void> {
  unwrap(await supabase.from('match_declines').insert({ declined_id: userId }), 'POST');
}

/**
 * Enterprise: the matches as CSV text (export_matches_csv).
 * @throws MatchingError (PT402 enterprise_required)
 */
export async function exportMatchesCsv(profileId: string | null, filters: MatchFilters): Promise<string> {
  return unwrapRpc(
    await supabase.rpc('export_matches_csv', {
      p_profile_id: profileId ?? undefined,
      p_filters: filters as Database['public']['Functions']['export_matches_csv']['Args']['p_filters'],
    }),
  ) as string;
}
