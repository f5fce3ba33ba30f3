/**
 * Public entry of the presence feature (issue 13): who of a list of users is online, away or
 * offline (`usePresence`), whether the signed-in user watches at all (`setPresenceWatching`,
 * reciprocity with "Show my online status"), the current presence topic (`presenceTopic`) and its
 * moves (`presenceMoved`, issue 31 §10), and the label that shows a status.
 */
export { type PresenceStatus, presenceMoved, presenceTopic, setPresenceWatching, usePresence } from './presence';
export { PresenceLabel } from './components/presence-label';
