/**
 * Message ids of the matching feature written out (issue 19), so the catalogue test sees every
 * key: enum labels, reason codes per side, errors, fields and criteria.
 */

/** Kinds of person (public.match_kind). */
export const KIND_IDS: Record<string, string> = {
  founder_seeking_idea: 'matching.kind.founder_seeking_idea',
  founder_with_idea: 'matching.kind.founder_with_idea',
  investor: 'matching.kind.investor',
  mentor: 'matching.kind.mentor',
  professional: 'matching.kind.professional',
  student: 'matching.kind.student',
};

/** Roles (public.match_role). */
export const ROLE_IDS: Record<string, string> = {
  business: 'matching.role.business',
  design: 'matching.role.design',
  domain_expert: 'matching.role.domain_expert',
  investor: 'matching.role.investor',
  mentor: 'matching.role.mentor',
  operations: 'matching.role.operations',
  product: 'matching.role.product',
  sales_marketing: 'matching.role.sales_marketing',
  team_member: 'matching.role.team_member',
  technical: 'matching.role.technical',
};

/** Commitments (public.match_commitment). */
export const COMMITMENT_IDS: Record<string, string> = {
  full_time: 'matching.commitment.full_time',
  later: 'matching.commitment.later',
  part_time: 'matching.commitment.part_time',
  side_project: 'matching.commitment.side_project',
};

/** Criteria that can be "must have". */
export const CRITERION_IDS: Record<string, string> = {
  commitment: 'matching.criterion.commitment',
  industries: 'matching.criterion.industries',
  kind: 'matching.criterion.kind',
  languages: 'matching.criterion.languages',
  location: 'matching.criterion.location',
  skills: 'matching.criterion.skills',
  stage: 'matching.criterion.stage',
};

/** Fields of the matching profile (labels, completeness). */
export const FIELD_IDS: Record<string, string> = {
  active: 'matching.field.active',
  available_from: 'matching.field.available_from',
  commitment: 'matching.field.commitment',
  idea_stage: 'matching.field.idea_stage',
  industries: 'matching.field.industries',
  kind: 'matching.field.kind',
  kinds_sought: 'matching.field.kinds_sought',
  languages: 'matching.field.languages',
  radius_km: 'matching.field.radius_km',
  radius_kmHint: 'matching.field.radius_kmHint',
  remote_ok: 'matching.field.remote_ok',
  roles_offered: 'matching.field.roles_offered',
  roles_offeredHint: 'matching.field.roles_offeredHint',
  roles_sought: 'matching.field.roles_sought',
  roles_soughtHint: 'matching.field.roles_soughtHint',
  skill_tags: 'matching.field.skill_tags',
  skill_tagsHint: 'matching.field.skill_tagsHint',
  skills: 'matching.field.skills',
  skills_sought: 'matching.field.skills_sought',
  stages_sought: 'matching.field.stages_sought',
  ticket_max_eur: 'matching.field.ticket_max_eur',
  ticket_min_eur: 'matching.field.ticket_min_eur',
};

/** Errors by the database message or the form check. */
export const ERROR_IDS: Record<string, string> = {
  nameRequired: 'matching.error.nameRequired',
  weight: 'matching.error.weight',
  availableFrom: 'matching.error.availableFrom',
  enterprise_required: 'matching.error.enterprise_required',
  generic: 'matching.error.generic',
  invalid_filter: 'matching.error.invalid_filter',
  invalid_weights: 'matching.error.invalid_weights',
  match_profile_missing: 'matching.error.match_profile_missing',
  match_profile_not_found: 'matching.error.match_profile_not_found',
  not_project_owner: 'matching.error.not_project_owner',
  open_role_limit: 'matching.error.open_role_limit',
  payment_required: 'matching.error.payment_required',
  premium_required: 'matching.error.premium_required',
  radius: 'matching.error.radius',
  roleRequired: 'matching.error.roleRequired',
  saved_profile_limit: 'matching.error.saved_profile_limit',
  tagTooLong: 'matching.error.tagTooLong',
  ticket: 'matching.error.ticket',
  ticketRange: 'matching.error.ticketRange',
  titleTooLong: 'matching.error.titleTooLong',
  tooManySkills: 'matching.error.tooManySkills',
  tooManyTags: 'matching.error.tooManyTags',
  unknown_city: 'matching.error.unknown_city',
  unknown_skill: 'matching.error.unknown_skill',
  weekly_match_limit: 'matching.error.weekly_match_limit',
};

/** Reasons of side "you" (what the caller seeks) by code. */
export const YOU_REASON_IDS: Record<string, string> = {
  both_remote: 'matching.reason.you.both_remote',
  commitment_mismatch: 'matching.reason.you.commitment_mismatch',
  has_sought_skills: 'matching.reason.you.has_sought_skills',
  is_sought_kind: 'matching.reason.you.is_sought_kind',
  lacks_sought_skills: 'matching.reason.you.lacks_sought_skills',
  location_unknown: 'matching.reason.you.location_unknown',
  no_shared_industry: 'matching.reason.you.no_shared_industry',
  no_shared_language: 'matching.reason.you.no_shared_language',
  not_sought_kind: 'matching.reason.you.not_sought_kind',
  offers_sought_role: 'matching.reason.you.offers_sought_role',
  open_to_all: 'matching.reason.you.open_to_all',
  role_not_offered: 'matching.reason.you.role_not_offered',
  same_city: 'matching.reason.you.same_city',
  same_commitment: 'matching.reason.you.same_commitment',
  shared_industries: 'matching.reason.you.shared_industries',
  shared_languages: 'matching.reason.you.shared_languages',
  stage_fits: 'matching.reason.you.stage_fits',
  stage_mismatch: 'matching.reason.you.stage_mismatch',
  too_far: 'matching.reason.you.too_far',
  within_radius: 'matching.reason.you.within_radius',
};

/** Reasons of side "they" (what the match seeks) by code. */
export const THEY_REASON_IDS: Record<string, string> = {
  both_remote: 'matching.reason.they.both_remote',
  commitment_mismatch: 'matching.reason.they.commitment_mismatch',
  has_sought_skills: 'matching.reason.they.has_sought_skills',
  is_sought_kind: 'matching.reason.they.is_sought_kind',
  lacks_sought_skills: 'matching.reason.they.lacks_sought_skills',
  location_unknown: 'matching.reason.they.location_unknown',
  no_shared_industry: 'matching.reason.they.no_shared_industry',
  no_shared_language: 'matching.reason.they.no_shared_language',
  not_sought_kind: 'matching.reason.they.not_sought_kind',
  offers_sought_role: 'matching.reason.they.offers_sought_role',
  open_to_all: 'matching.reason.they.open_to_all',
  role_not_offered: 'matching.reason.they.role_not_offered',
  same_city: 'matching.reason.they.same_city',
  same_commitment: 'matching.reason.they.same_commitment',
  shared_industries: 'matching.reason.they.shared_industries',
  shared_languages: 'matching.reason.they.shared_languages',
  stage_fits: 'matching.reason.they.stage_fits',
  stage_mismatch: 'matching.reason.they.stage_mismatch',
  too_far: 'matching.reason.they.too_far',
  within_radius: 'matching.reason.they.within_radius',
};

/** Open-role fit reasons by code. */
export const FIT_REASON_IDS: Record<string, string> = {
  has_role_skills: 'matching.fit.has_role_skills',
  in_industry: 'matching.fit.in_industry',
  lacks_role_skills: 'matching.fit.lacks_role_skills',
  location_unknown: 'matching.fit.location_unknown',
  needs_your_role: 'matching.fit.needs_your_role',
  other_industry: 'matching.fit.other_industry',
  remote_project: 'matching.fit.remote_project',
  role_commitment_mismatch: 'matching.fit.role_commitment_mismatch',
  same_city: 'matching.fit.same_city',
  same_commitment: 'matching.fit.same_commitment',
  stage_fits: 'matching.fit.stage_fits',
  stage_mismatch: 'matching.fit.stage_mismatch',
  too_far: 'matching.fit.too_far',
  within_radius: 'matching.fit.within_radius',
};

/** Weight inputs by criterion (Premium/Enterprise own weights). */
export const WEIGHT_IDS: Record<string, string> = {
  commitment: 'matching.weight.commitment',
  industries: 'matching.weight.industries',
  kind: 'matching.weight.kind',
  languages: 'matching.weight.languages',
  location: 'matching.weight.location',
  roles: 'matching.weight.roles',
  skills: 'matching.weight.skills',
  stage: 'matching.weight.stage',
};
