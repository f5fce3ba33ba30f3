import type { MatchProfileRow } from './match-profile';

/**
 * Completeness of a matching profile (issue 19: "a completeness meter with the next most useful
 * field to fill in"). Fields are listed in order of usefulness for the engine: roles are the
 * prerequisite of every match (private.match_rank), then the criteria by default weight (roles 30,
 * skills 20, location 15, kind 10, industries 10, commitment 5, stage 5, languages 5).
 */

/** One field of the meter: its weight (percentage points) and whether the profile fills it. */
interface FieldRule {
  field: CompletenessField;
  weight: number;
  filled: (p: MatchProfileRow) => boolean;
}

/** Field names of the meter (also the message ids `matching.field.<name>`). */
export type CompletenessField =
  'roles_offered' | 'roles_sought' | 'skills' | 'skills_sought' | 'kind' | 'kinds_sought' | 'industries' | 'commitment' | 'languages' | 'idea_stage';

const RULES: readonly FieldRule[] = [
  { field: 'roles_offered', weight: 20, filled: (p) => p.roles_offered.length > 0 },
  { field: 'roles_sought', weight: 20, filled: (p) => p.roles_sought.length > 0 },
  { field: 'skills', weight: 15, filled: (p) => p.skills.length > 0 },
  { field: 'skills_sought', weight: 10, filled: (p) => p.skills_sought.length > 0 },
  { field: 'kind', weight: 10, filled: (p) => p.kind !== null },
  { field: 'industries', weight: 8, filled: (p) => p.industries.length > 0 },
  { field: 'commitment', weight: 7, filled: (p) => p.commitment !== null },
  { field: 'kinds_sought', weight: 4, filled: (p) => p.kinds_sought.length > 0 },
  { field: 'languages', weight: 4, filled: (p) => p.languages.length > 0 },
  { field: 'idea_stage', weight: 2, filled: (p) => p.idea_stage !== null || p.stages_sought.length > 0 },
];

/**
 * Percentage (0–100, integer) of the weighted fields a matching profile fills, and the next most
 * useful empty field (null when complete). A missing profile is 0 % with next = roles_offered.
 */
export function matchProfileCompleteness(p: MatchProfileRow | null): { percent: number; next: CompletenessField | null; missing: CompletenessField[] } {
  if (!p) return { percent: 0, next: RULES[0]!.field, missing: RULES.map((r) => r.field) };
  const total = RULES.reduce((s, r) => s + r.weight, 0);
  const done = RULES.filter((r) => r.filled(p));
  const missing = RULES.filter((r) => !r.filled(p)).map((r) => r.field);
  return { percent: Math.round((100 * done.reduce((s, r) => s + r.weight, 0)) / total), next: missing[0] ?? null, missing };
}
