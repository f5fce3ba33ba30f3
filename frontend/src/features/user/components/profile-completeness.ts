import type { OwnProfile } from '../api/own-profile';

/** Profile fields counted for completeness (issue 6 /user start page). */
const CHECKS: readonly ((p: OwnProfile) => boolean)[] = [
  (p) => !!p.firstname && !!p.lastname,
  (p) => !!p.headline,
  (p) => !!p.bio,
  (p) => p.skills.length > 0,
  (p) => !!p.looking_for || !!p.offering,
  (p) => p.categories.length > 0,
  (p) => !!p.city,
  (p) => !!p.profile_img,
  (p) => Object.values((p.social_links ?? {}) as Record<string, unknown>).some(Boolean),
];

/**
 * Share of filled profile sections in percent, 0–100 (names, headline, bio, skills, looking
 * for/offering, categories, city, avatar, a social link).
 */
export function profileCompleteness(profile: OwnProfile): number {
  const done = CHECKS.filter((check) => check(profile)).length;
  return Math.round((done / CHECKS.length) * 100);
}
