import { z } from 'zod';
import { DEFAULT_WEIGHTS, type MatchProfileInput, type MatchProfileRow, type WeightCriterion } from './match-profile';

/*
 * The form model of a matching profile (issue 19 "The matching profile"): the editor's values
 * with their validation (messages are message ids), and the conversions from a stored row and to
 * the row to write. The database checks the same again (constraints, trigger, RLS).
 */

/** Longest free skill tag the editor accepts (characters). */
const TAG_MAX = 40;

/** Form values: enums and arrays as strings, numbers possibly empty (Mantine inputs). */
export const matchProfileSchema = z
  .object({
    saved: z.boolean(),
    name: z.string().trim().max(100, 'matching.error.titleTooLong'),
    city: z.string().trim().max(100, 'matching.error.titleTooLong'),
    active: z.boolean(),
    kind: z.string(),
    kinds_sought: z.array(z.string()).max(6),
    roles_offered: z.array(z.string()).max(10),
    roles_sought: z.array(z.string()).max(10),
    skills: z.array(z.string()).max(30, 'matching.error.tooManySkills'),
    skill_tags: z.array(z.string().trim().min(1).max(TAG_MAX, 'matching.error.tagTooLong')).max(20, 'matching.error.tooManyTags'),
    skills_sought: z.array(z.string()).max(30, 'matching.error.tooManySkills'),
    industries: z.array(z.string()),
    idea_stage: z.string(),
    stages_sought: z.array(z.string()),
    commitment: z.string(),
    available_from: z.string(),
    remote_ok: z.boolean(),
    radius_km: z.number({ message: 'matching.error.radius' }).int().min(1, 'matching.error.radius').max(1000, 'matching.error.radius'),
    languages: z.array(z.string().regex(/^[a-z]{2}$/)).max(10),
    ticket_min_eur: z.union([z.number().int().min(0, 'matching.error.ticket'), z.literal('')]),
    ticket_max_eur: z.union([z.number().int().min(0, 'matching.error.ticket'), z.literal('')]),
    must: z.record(z.string(), z.boolean()),
    weights: z.record(z.string(), z.union([z.number().int().min(0, 'matching.error.weight').max(100, 'matching.error.weight'), z.literal('')])),
  })
  .refine((v) => !v.saved || v.name.trim().length > 0, { path: ['name'], message: 'matching.error.nameRequired' })
  .refine((v) => v.commitment !== 'later' || /^\d{4}-\d{2}-\d{2}$/.test(v.available_from), {
    path: ['available_from'],
    message: 'matching.error.availableFrom',
  })
  .refine((v) => v.ticket_min_eur === '' || v.ticket_max_eur === '' || v.ticket_min_eur <= v.ticket_max_eur, {
    path: ['ticket_max_eur'],
    message: 'matching.error.ticketRange',
  });
export type MatchProfileValues = z.infer<typeof matchProfileSchema>;

/** Form values of a stored profile (or of an empty one). */
export function toValues(p: MatchProfileRow | null, saved: boolean): MatchProfileValues {
  return {
    saved,
    name: p?.name ?? '',
    city: p?.city ?? '',
    active: p?.active ?? true,
    kind: p?.kind ?? '',
    kinds_sought: p?.kinds_sought ?? [],
    roles_offered: p?.roles_offered ?? [],
    roles_sought: p?.roles_sought ?? [],
    skills: p?.skills ?? [],
    skill_tags: p?.skill_tags ?? [],
    skills_sought: p?.skills_sought ?? [],
    industries: p?.industries ?? [],
    idea_stage: p?.idea_stage ?? '',
    stages_sought: p?.stages_sought ?? [],
    commitment: p?.commitment ?? '',
    available_from: p?.available_from ?? '',
    remote_ok: p?.remote_ok ?? false,
    radius_km: p?.radius_km ?? 50,
    languages: p?.languages ?? [],
    ticket_min_eur: p?.ticket_min_eur ?? '',
    ticket_max_eur: p?.ticket_max_eur ?? '',
    must: Object.fromEntries((p?.must_have ?? []).map((m) => [m, true])),
    weights: { ...DEFAULT_WEIGHTS, ...((p?.weights ?? {}) as Record<string, number>) },
  };
}

/**
 * The row to write from valid form values (empty → null). Own weights (only those that differ
 * from the defaults) are written only when the plan allows them (`canWeigh`, Premium/Enterprise).
 */
export function toInput(v: MatchProfileValues, canWeigh = false): MatchProfileInput {
  const orNull = <T extends string>(s: string) => (s === '' ? null : (s as T));
  const investor = v.kind === 'investor';
  return {
    name: v.saved ? v.name.trim() : null,
    active: v.active,
    kind: orNull(v.kind),
    kinds_sought: v.kinds_sought as MatchProfileInput['kinds_sought'],
    roles_offered: v.roles_offered as MatchProfileInput['roles_offered'],
    roles_sought: v.roles_sought as MatchProfileInput['roles_sought'],
    skills: v.skills,
    skill_tags: v.skill_tags.map((t) => t.trim()),
    skills_sought: v.skills_sought,
    industries: v.industries as MatchProfileInput['industries'],
    idea_stage: orNull(v.idea_stage),
    stages_sought: v.stages_sought as MatchProfileInput['stages_sought'],
    commitment: orNull(v.commitment),
    available_from: v.commitment === 'later' ? v.available_from : null,
    city: v.saved && v.city.trim() ? v.city.trim() : null,
    remote_ok: v.remote_ok,
    radius_km: v.radius_km,
    languages: v.languages,
    ticket_min_eur: investor && v.ticket_min_eur !== '' ? v.ticket_min_eur : null,
    ticket_max_eur: investor && v.ticket_max_eur !== '' ? v.ticket_max_eur : null,
    must_have: Object.entries(v.must)
      .filter(([, on]) => on)
      .map(([k]) => k),
    ...(canWeigh
      ? {
          weights: Object.fromEntries(
            Object.entries(v.weights).filter(([k, w]) => w !== '' && w !== DEFAULT_WEIGHTS[k as WeightCriterion]) as [string, number][],
          ),
        }
      : {}),
  };
}
