/**
 * Public entry of the matching feature: the match profile editors of the settings, the open-roles
 * editor of a project, the activity cards of the signed-in home, and the first page of matches
 * (its count is the preview free members see, issue 32 §5).
 */
export { ownMatchProfileQuery } from './api/get-match-profiles';
export { dashboardMatchesQuery } from './api/matches';
export { HomeDashboard } from './components/home-dashboard';
export { MatchProfileEditor } from './components/match-profile-editor';
export { OpenRolesEditor } from './components/open-roles-editor';
export { SavedMatchProfiles } from './components/saved-profiles';
