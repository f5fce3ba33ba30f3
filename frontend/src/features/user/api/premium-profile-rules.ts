import { ApiError } from '@/lib/api-error';
import { Checks } from '@/lib/database.checks';

/** Accent colours a premium profile may use: the check constraint on profiles.profile_accent (spec §6). */
export const PROFILE_ACCENTS = Checks.profiles.profile_accent.oneOf;
/** One of PROFILE_ACCENTS. */
export type ProfileAccent = (typeof PROFILE_ACCENTS)[number];
/** Maximum tagline length in characters (the profiles.profile_tagline check). */
export const TAGLINE_MAX = Checks.profiles.profile_tagline.maxLength;

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
