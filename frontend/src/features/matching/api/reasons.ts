import type { MatchReason } from './matches';
import { FIT_REASON_IDS, THEY_REASON_IDS, YOU_REASON_IDS } from './message-ids';

/**
 * Turns the engine's structured reasons (issue 19; codes documented at private.match_reasons and
 * private.role_fit_reasons in supabase/schemas/18_matching.sql; the codes are the database's enums
 * match_reason_code and fit_reason_code) into a message id
 * and its values, so the UI renders them in English and German.
 */

/** Localises keys and lists (given by the caller from react-intl and the skill vocabulary). */
export interface ReasonLabels {
  role: (key: string) => string;
  skill: (key: string) => string;
  kind: (key: string) => string;
  industry: (key: string) => string;
  stage: (key: string) => string;
  commitment: (key: string) => string;
  language: (code: string) => string;
  /** "A, B and C" in the page's language. */
  list: (items: string[]) => string;
  /** A date (YYYY-MM-DD) in the page's language. */
  date: (iso: string) => string;
}

/** Message id + values of one reason. */
export interface ReasonText {
  id: string;
  values: Record<string, string | number>;
}

/** Reason codes of a person match (private.match_reasons); the message depends on the side. */
export const MATCH_REASON_CODES = [
  'offers_sought_role',
  'role_not_offered',
  'has_sought_skills',
  'lacks_sought_skills',
  'same_city',
  'within_radius',
  'both_remote',
  'too_far',
  'location_unknown',
  'is_sought_kind',
  'not_sought_kind',
  'shared_industries',
  'no_shared_industry',
  'same_commitment',
  'commitment_mismatch',
  'stage_fits',
  'stage_mismatch',
  'shared_languages',
  'no_shared_language',
  'open_to_all',
] as const;

/** Reason codes of an open-role fit (private.role_fit_reasons). */
export const FIT_REASON_CODES = [
  'needs_your_role',
  'has_role_skills',
  'lacks_role_skills',
  'same_commitment',
  'role_commitment_mismatch',
  'same_city',
  'within_radius',
  'remote_project',
  'too_far',
  'location_unknown',
  'in_industry',
  'other_industry',
  'stage_fits',
  'stage_mismatch',
] as const;

const arr = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
/** The values of the place reasons (same_city, within_radius, too_far) of people and open roles: city, distance and radius in km. */
const placeValues = (r: MatchReason) => ({ city: str(r.city), km: Number(r.km ?? 0), radius: Number(r.radius_km ?? 0) });

/**
 * The message of a person-match reason: id `matching.reason.<side>.<code>` (side 'you' = what the
 * caller looks for, 'they' = what the match looks for), values already localised.
 * Unknown codes → `matching.reason.unknown`.
 */
export function describeMatchReason(r: MatchReason, l: ReasonLabels): ReasonText {
  const side = r.side === 'they' ? 'they' : 'you';
  const id = (side === 'they' ? THEY_REASON_IDS : YOU_REASON_IDS)[r.code] ?? 'matching.reason.unknown';
  const values: Record<string, string | number> = {};
  const skills = arr(r.skills);
  switch (r.code) {
    case 'offers_sought_role':
      values.roles = l.list(arr(r.roles).map(l.role));
      values.skills = l.list(skills.map(l.skill));
      values.withSkills = skills.length > 0 ? 'yes' : 'no';
      break;
    case 'role_not_offered':
      values.roles = l.list(arr(r.roles).map(l.role));
      break;
    case 'has_sought_skills':
      values.skills = l.list(skills.map(l.skill));
      values.missing = l.list(arr(r.missing).map(l.skill));
      values.withMissing = arr(r.missing).length > 0 ? 'yes' : 'no';
      break;
    case 'lacks_sought_skills':
      values.skills = l.list(skills.map(l.skill));
      break;
    case 'same_city':
    case 'within_radius':
    case 'too_far':
      Object.assign(values, placeValues(r));
      break;
    case 'is_sought_kind':
    case 'not_sought_kind':
      values.kind = r.kind ? l.kind(str(r.kind)) : '–';
      values.sought = l.list(arr(r.sought).map(l.kind));
      break;
    case 'shared_industries':
      values.industries = l.list(arr(r.industries).map(l.industry));
      break;
    case 'no_shared_industry':
      values.sought = l.list(arr(r.sought).map(l.industry));
      break;
    case 'same_commitment':
      values.commitment = l.commitment(str(r.commitment));
      break;
    case 'commitment_mismatch':
      values.mine = l.commitment(str(r.mine)) + (r.mine_from ? ` (${l.date(str(r.mine_from))})` : '');
      values.theirs = l.commitment(str(r.theirs)) + (r.theirs_from ? ` (${l.date(str(r.theirs_from))})` : '');
      break;
    case 'stage_fits':
    case 'stage_mismatch':
      values.stage = r.stage ? l.stage(str(r.stage)) : '–';
      values.sought = l.list(arr(r.sought).map(l.stage));
      break;
    case 'shared_languages':
      values.languages = l.list(arr(r.languages).map(l.language));
      break;
    case 'no_shared_language':
      values.sought = l.list(arr(r.sought).map(l.language));
      break;
  }
  return { id, values };
}

/**
 * The message of an open-role fit reason: id `matching.fit.<code>`, values localised. Used for
 * suggested people of a role (team-gap finder) and for roles that fit the caller.
 */
export function describeFitReason(r: MatchReason, l: ReasonLabels): ReasonText {
  const id = FIT_REASON_IDS[r.code] ?? 'matching.reason.unknown';
  const values: Record<string, string | number> = {};
  switch (r.code) {
    case 'needs_your_role':
      values.role = l.role(str(r.role));
      break;
    case 'has_role_skills':
      values.skills = l.list(arr(r.skills).map(l.skill));
      values.missing = l.list(arr(r.missing).map(l.skill));
      values.withMissing = arr(r.missing).length > 0 ? 'yes' : 'no';
      break;
    case 'lacks_role_skills':
      values.skills = l.list(arr(r.skills).map(l.skill));
      break;
    case 'same_commitment':
      values.commitment = l.commitment(str(r.commitment));
      break;
    case 'role_commitment_mismatch':
      values.person = r.person ? l.commitment(str(r.person)) : '–';
      values.role = r.role ? l.commitment(str(r.role)) : '–';
      break;
    case 'same_city':
    case 'within_radius':
    case 'too_far':
      Object.assign(values, placeValues(r));
      break;
    case 'in_industry':
    case 'other_industry':
      values.industry = r.industry ? l.industry(str(r.industry)) : '–';
      values.sought = l.list(arr(r.sought).map(l.industry));
      break;
    case 'stage_fits':
    case 'stage_mismatch':
      values.stage = r.stage ? l.stage(str(r.stage)) : '–';
      values.sought = l.list(arr(r.sought).map(l.stage));
      break;
  }
  return { id, values };
}

/** Whether a reason counts for the match (full points), against it (no points) or partly. */
export function reasonTone(r: MatchReason): 'good' | 'partial' | 'bad' | 'neutral' {
  if (!r.max) return 'neutral';
  if (r.points >= r.max) return 'good';
  return r.points > 0 ? 'partial' : 'bad';
}
