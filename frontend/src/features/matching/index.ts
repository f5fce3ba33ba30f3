/**
 * Public entry of the matching feature: the match profile editors of the settings, the open-roles
 * editor of a project, and the activity cards of the signed-in home.
 */
export { HomeDashboard } from './components/home-dashboard';
export { MatchProfileEditor } from './components/match-profile-editor';
export { OpenRolesEditor } from './components/open-roles-editor';
export { SavedMatchProfiles } from './components/saved-profiles';
