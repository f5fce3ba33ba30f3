import type { MatchFilters } from './matches';

/** Filters of /matches (issue 19, Premium and Enterprise): form values and the RPC's filter object. */

/** The /matches filter form's values. */
export interface FilterValues {
  kinds: string[];
  roles: string[];
  skills: string[];
  industries: string[];
  commitment: string[];
  languages: string[];
  remote: boolean;
  city: string;
  radius_km: number | string;
  min_score: number | string;
}
/** No filter set. */
export const EMPTY_FILTERS: FilterValues = {
  kinds: [],
  roles: [],
  skills: [],
  industries: [],
  commitment: [],
  languages: [],
  remote: false,
  city: '',
  radius_km: 50,
  min_score: '',
};

/** The RPC's filter object from the form (only what is set). */
export function toFilters(v: FilterValues): MatchFilters {
  const f: MatchFilters = {};
  if (v.kinds.length) f.kinds = v.kinds as MatchFilters['kinds'];
  if (v.roles.length) f.roles = v.roles as MatchFilters['roles'];
  if (v.skills.length) f.skills = v.skills;
  if (v.industries.length) f.industries = v.industries as MatchFilters['industries'];
  if (v.commitment.length) f.commitment = v.commitment as MatchFilters['commitment'];
  if (v.languages.length) f.languages = v.languages;
  if (v.remote) f.remote = true;
  if (v.city.trim()) {
    f.city = v.city.trim();
    if (typeof v.radius_km === 'number') f.radius_km = v.radius_km;
  }
  if (typeof v.min_score === 'number') f.min_score = v.min_score;
  return f;
}
