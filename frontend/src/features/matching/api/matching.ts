import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap, type SupabaseResult } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import { ERROR_IDS } from './message-ids';
import { CATEGORIES } from '@/lib/categories';

/**
 * Matching (issue 19, spec §6 basic / advanced / custom matching): the caller's matching profile,
 * the skill vocabulary, and the engine RPCs match_people, match_projects,
 * project_role_candidates and export_matches_csv (supabase/schemas/18_matching.sql).
 * The database owns every rule (plan gating, the Basic weekly quota, exclusions, RLS); this module
 * only calls it, types its answers and names its errors.
 */

type Enums = Database['public']['Enums'];
/** What a person is (public.match_kind). */
export type MatchKind = Enums['match_kind'];
/** Roles offered and sought (public.match_role). */
export type MatchRole = Enums['match_role'];
/** Commitment (public.match_commitment). */
export type MatchCommitment = Enums['match_commitment'];
/** The ten project categories (industries). */
export type Industry = Enums['project_category'];
/** Idea / project stages. */
export type Stage = Enums['project_stage'];

/** Enum values in the database's order (for selects). */
export const MATCH_KINDS: readonly MatchKind[] = ['founder_with_idea', 'founder_seeking_idea', 'professional', 'student', 'mentor', 'investor'];
export const MATCH_ROLES: readonly MatchRole[] = [
  'technical',
  'business',
  'product',
  'design',
  'sales_marketing',
  'operations',
  'domain_expert',
  'mentor',
  'investor',
  'team_member',
];
export const COMMITMENTS: readonly MatchCommitment[] = ['full_time', 'part_time', 'side_project', 'later'];
export const INDUSTRIES: readonly Industry[] = CATEGORIES;
export const STAGES: readonly Stage[] = ['idea', 'concept', 'prototype', 'mvp', 'growth', 'established'];
/** Languages offered in the editor (ISO 639-1; the database accepts any two-letter code). */
export const LANGUAGE_CODES = ['de', 'en', 'fr', 'es', 'it', 'nl', 'pl', 'tr', 'ru', 'uk', 'ar', 'pt', 'zh'] as const;
/** Criteria a preference can make "must have" (match_profiles.must_have). */
export const MUST_CRITERIA = ['skills', 'location', 'kind', 'industries', 'commitment', 'stage', 'languages'] as const;
export type MustCriterion = (typeof MUST_CRITERIA)[number];

/** A row of the caller's match_profiles (the columns the editor reads and writes). */
export type MatchProfileRow = Pick<
  Database['public']['Tables']['match_profiles']['Row'],
  | 'id'
  | 'is_primary'
  | 'name'
  | 'active'
  | 'kind'
  | 'kinds_sought'
  | 'roles_offered'
  | 'roles_sought'
  | 'skills'
  | 'skill_tags'
  | 'skills_sought'
  | 'industries'
  | 'idea_stage'
  | 'stages_sought'
  | 'commitment'
  | 'available_from'
  | 'city'
  | 'remote_ok'
  | 'radius_km'
  | 'languages'
  | 'ticket_min_eur'
  | 'ticket_max_eur'
  | 'must_have'
  | 'weights'
  | 'updated_at'
>;
const PROFILE_COLUMNS =
  'id, is_primary, name, active, kind, kinds_sought, roles_offered, roles_sought, skills, skill_tags, skills_sought, industries, idea_stage, stages_sought, commitment, available_from, city, remote_ok, radius_km, languages, ticket_min_eur, ticket_max_eur, must_have, weights, updated_at';

/** The writable fields of a matching profile. */
export type MatchProfileInput = Omit<MatchProfileRow, 'id' | 'is_primary' | 'updated_at' | 'weights'> & { weights?: Record<string, number> };

/** The engine's default weights per criterion (private.match_weights; Premium/Enterprise may set their own, 0–100). */
export const DEFAULT_WEIGHTS = { roles: 30, skills: 20, location: 15, kind: 10, industries: 10, commitment: 5, stage: 5, languages: 5 } as const;
export type WeightCriterion = keyof typeof DEFAULT_WEIGHTS;

/** One entry of the skill vocabulary (public.skills). */
export interface Skill {
  id: number;
  key: string;
  role: MatchRole;
  label_en: string;
  label_de: string;
}

/** Query key prefix of everything matching-related. */
export const MATCHING_KEY = ['matching'] as const;

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

/** A suggested person for an open role (project_role_candidates). */
export interface RoleCandidate {
  user_id: string;
  slug: string;
  display_name: string;
  profile_img: string | null;
  headline: string | null;
  city: string | null;
  kind: MatchKind | null;
  score: number;
  reasons: MatchReason[];
}

/** An open role with its candidates (project_role_candidates). */
export interface RoleWithCandidates {
  role_id: number;
  role: MatchRole;
  title: string | null;
  skills: string[];
  commitment: MatchCommitment | null;
  filled: boolean;
  count: number;
  candidates: RoleCandidate[];
}

/** Answer of project_role_candidates. */
export interface TeamGap {
  project_id: number;
  plan: string;
  roles: RoleWithCandidates[];
  upgrade: UpgradeHint | null;
}

/** A row of project_open_roles. */
export type OpenRoleRow = Pick<
  Database['public']['Tables']['project_open_roles']['Row'],
  'id' | 'project_id' | 'role' | 'title' | 'skills' | 'commitment' | 'filled'
>;
/** The writable fields of an open role. */
export type OpenRoleInput = Pick<OpenRoleRow, 'role' | 'title' | 'skills' | 'commitment' | 'filled'>;

/**
 * Error of a matching call: ApiError plus the database's `hint` (PT429 weekly_match_limit: the
 * ISO timestamp when the Basic allowance renews).
 */
export class MatchingError extends ApiError {
  readonly hint?: string;
  constructor(message: string, status: number, code?: string, hint?: string) {
    super(message, status, 'POST', code);
    this.hint = hint;
  }
}

/** Like unwrap, but keeps the error's hint (MatchingError). */
function unwrapRpc<T>(result: SupabaseResult<T> & { error: { message: string; code?: string; hint?: string } | null }): T {
  if (result.error) throw new MatchingError(result.error.message || 'Request failed', result.status ?? 0, result.error.code, result.error.hint ?? undefined);
  return result.data as T;
}

/**
 * Message id for a matching error (the database's message names the rule, issue 19):
 * match_profile_missing, weekly_match_limit, premium_required, enterprise_required, unknown_city,
 * unknown_skill, open_role_limit, …; anything else → matching.error.generic.
 */
export function matchingErrorId(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  return ERROR_IDS[message] ?? 'matching.error.generic';
}

/** Query options of the skill vocabulary (public reference data, cached for the session). */
export const skillsQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'skills'],
    queryFn: async (): Promise<Skill[]> => unwrap(await supabase.from('skills').select('id, key, role, label_en, label_de').order('id'), 'GET') as Skill[],
    staleTime: Infinity,
  });

/** Query options of the caller's primary matching profile (null when none yet; RLS: owner only). */
export const ownMatchProfileQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'own-profile'],
    queryFn: async (): Promise<MatchProfileRow | null> =>
      unwrap(await supabase.from('match_profiles').select(PROFILE_COLUMNS).eq('is_primary', true).maybeSingle(), 'GET') as MatchProfileRow | null,
  });

/** Query options of the caller's saved match profiles (Enterprise custom matching), oldest first. */
export const savedMatchProfilesQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'saved-profiles'],
    queryFn: async (): Promise<MatchProfileRow[]> =>
      unwrap(await supabase.from('match_profiles').select(PROFILE_COLUMNS).eq('is_primary', false).order('created_at'), 'GET') as MatchProfileRow[],
  });

/**
 * Saves one of the caller's matching profiles: update when `id` is given, else insert the primary
 * profile (`primary`) or an Enterprise saved one (the database sets user_id = auth.uid(); RLS and
 * the trigger check the rest).
 * @throws ApiError (22023 unknown_skill, PT402 payment_required | enterprise_required, P0001 saved_profile_limit, 23514 check violations)
 */
export async function saveMatchProfile(id: string | null, values: MatchProfileInput, primary = true): Promise<MatchProfileRow> {
  const query = id
    ? supabase.from('match_profiles').update(values).eq('id', id).select(PROFILE_COLUMNS).single()
    : supabase
        .from('match_profiles')
        .insert({ ...values, is_primary: primary })
        .select(PROFILE_COLUMNS)
        .single();
  return unwrap(await query, id ? 'PATCH' : 'POST') as MatchProfileRow;
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

/** Query options of the team-gap finder of one own project (project_role_candidates). */
export const teamGapQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'team-gap', projectId],
    queryFn: async (): Promise<TeamGap> => unwrapRpc(await supabase.rpc('project_role_candidates', { p_project_id: projectId })) as unknown as TeamGap,
    retry: false,
  });

/** Query options of the open roles of a project, in creation order. */
export const openRolesQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'open-roles', projectId],
    queryFn: async (): Promise<OpenRoleRow[]> =>
      unwrap(
        await supabase.from('project_open_roles').select('id, project_id, role, title, skills, commitment, filled').eq('project_id', projectId).order('id'),
        'GET',
      ),
  });

/** Query options of the caller's projects that have unfilled open roles (dashboard). */
export const myProjectsWithOpenRolesQuery = (userId: string) =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'my-open-roles', userId],
    queryFn: async (): Promise<{ id: number; title: string }[]> => {
      const rows = unwrap(
        await supabase
          .from('project_open_roles')
          .select('project:projects!inner(id, title, owner_id)')
          .eq('filled', false)
          .eq('project.owner_id', userId)
          .limit(100),
        'GET',
      ) as unknown as { project: { id: number; title: string } }[];
      const seen = new Map<number, string>();
      for (const r of rows) seen.set(r.project.id, r.project.title);
      return [...seen].map(([id, title]) => ({ id, title }));
    },
  });

/**
 * Adds, changes or removes an open role of an own project (RLS: owner only; trigger: at most 10
 * per project, P0001 open_role_limit; 22023 unknown_skill).
 */
export async function saveOpenRole(projectId: number, id: number | null, values: OpenRoleInput): Promise<void> {
  if (id) unwrap(await supabase.from('project_open_roles').update(values).eq('id', id), 'PATCH');
  else unwrap(await supabase.from('project_open_roles').insert({ ...values, project_id: projectId }), 'POST');
}

/** Deletes an open role of an own project. */
export async function deleteOpenRole(id: number): Promise<void> {
  unwrap(await supabase.from('project_open_roles').delete().eq('id', id), 'DELETE');
}

/** Deletes one of the caller's saved match profiles (RLS: owner only). */
export async function deleteMatchProfile(id: string): Promise<void> {
  unwrap(await supabase.from('match_profiles').delete().eq('id', id).eq('is_primary', false), 'DELETE');
}
