/**
 * Public entry of the user feature: the settings the live session follows, blocking as the public
 * profile offers it, and the profile fields (premium settings, categories, social networks) the
 * public profile shows.
 */
export { blockedUserBySlugQuery, refreshAfterBlockChange, unblockUser } from './api/blocked-users';
export type { PremiumProfileSettings } from './api/premium-profile';
export { userSettingsQuery } from './api/user-settings';
export { CATEGORY_IDS, SOCIAL_NETWORKS } from './components/profile-form';
