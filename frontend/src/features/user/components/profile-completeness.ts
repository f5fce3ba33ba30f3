import type { OwnProfile } from '@/lib/own-profile';

/**
 * Profile fields counted for completeness (issue 6 /user start page), most useful first; `hint`
 * is the message id of the next step when the field is missing (issue 18 "what to do next").
 */
const CHECKS: readonly { hint: string; done: (p: OwnProfile) => boolean }[] = [
  { hint: 'home.next.name', done: (p) => !!p.firstname && !!p.lastname },
  { hint: 'home.next.avatar', done: (p) => !!p.profile_img },
  { hint: 'home.next.headline', done: (p) => !!p.headline },
  { hint: 'home.next.lookingFor', done: (p) => !!p.looking_for || !!p.offering },
  { hint: 'home.next.skills', done: (p) => p.skills.length > 0 },
  { hint: 'home.next.city', done: (p) => !!p.city },
  { hint: 'home.next.bio', done: (p) => !!p.bio },
  { hint: 'home.next.categories', done: (p) => p.categories.length > 0 },
  { hint: 'home.next.social', done: (p) => Object.values((p.social_links ?? {}) as Record<string, unknown>).some(Boolean) },
];

/** Message ids of the missing profile sections, most useful first. */
export function missingProfileSteps(profile: OwnProfile): string[] {
  return CHECKS.filter((check) => !check.done(profile)).map((check) => check.hint);
}

/**
 * Share of filled profile sections in percent, 0–100 (names, headline, bio, skills, looking
 * for/offering, categories, city, avatar, a social link).
 */
export function profileCompleteness(profile: OwnProfile): number {
  const done = CHECKS.filter((check) => check.done(profile)).length;
  return Math.round((done / CHECKS.length) * 100);
}
