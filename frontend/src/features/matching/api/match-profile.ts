import type { Database } from '@/lib/database.types';
import { CATEGORIES } from '@/lib/categories';

/**
 * Matching (issue 19, spec §6 basic / advanced / custom matching): the model of a matching
 * profile: the enums in the database's order, the row the editors read and write, the default
 * weights, the skill vocabulary's entry and the query key prefix (supabase/schemas/18_matching.sql).
 * The database owns every rule (plan gating, the Basic weekly quota, exclusions, RLS); the api
 * modules of this feature only call it, type its answers and name its errors.
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
/** The columns of {@link MatchProfileRow} as a PostgREST select list. */
export const PROFILE_COLUMNS =
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
