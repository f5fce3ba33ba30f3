import { ApiError } from '@/lib/api-error';

/** Accent colours a premium profile may use; mirrors the check constraint on profiles.profile_accent (spec §6). */
export const PROFILE_ACCENTS = ['blue', 'teal', 'green', 'violet', 'grape', 'orange', 'red'] as const;
/** One of PROFILE_ACCENTS. */
export type ProfileAccent = (typeof PROFILE_ACCENTS)[number];
/** Maximum tagline length in characters (profiles.profile_tagline check). */
export const TAGLINE_MAX = 120;

/** What `public.premium_profile(profiles)` returns for premium/enterprise profiles (null for everyone else). */
export interface PremiumProfileSettings {
  accent: ProfileAccent | null;
  tagline: string | null;
  show_badge: boolean;
  featured_project: { id: number; slug: string; title: string; summary: string } | null;
}

/** Stored premium settings of a profile row (the own profile carries them whatever the role). */
export interface PremiumProfileValues {
  profile_accent: ProfileAccent | null;
  profile_tagline: string | null;
  featured_project_id: number | null;
  show_premium_badge: boolean;
}

/** True for the roles whose premium settings are shown (spec §6: premium and enterprise). */
export const hasPremiumProfile = (role: string): boolean => role === 'premium' || role === 'enterprise';

/** Message id for an error of savePremiumProfile (known database codes get a clear text). */
export function premiumErrorId(err: unknown): string | null {
  if (err instanceof ApiError && err.code === 'P0001') {
    if (err.message === 'premium_required') return 'premiumProfile.error.premiumRequired';
    if (err.message === 'featured_project_invalid') return 'premiumProfile.error.featuredInvalid';
  }
  return null;
}
