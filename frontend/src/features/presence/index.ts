/**
 * Public entry of the presence feature (issue 13): who of a list of users is online, away or
 * offline (`usePresence`), whether the signed-in user watches at all (`setPresenceWatching`,
 * reciprocity with "Show my online status"), and the label that shows a status.
 */
export { type PresenceStatus, setPresenceWatching, usePresence } from './presence';
export { PresenceLabel } from './components/presence-label';
