/**
 * The shell catalogue (issue 5): the messages the app shell (header, footer, cookie notice, layouts,
 * error views, snackbar labels, session watch, account menu) and the landing page render. Pages
 * listed in SHELL_ROUTE_IDS render with these alone, so the landing page does not download the
 * whole catalogue; every other page waits for the full catalogue (shell + rest) in its loader.
 * The build splits `src/i18n/<lang>.json` by `isShellKey` (vite/precompile-messages.ts); the
 * catalogue files themselves stay whole (scripts/add-messages.mjs). A unit test
 * (`__tests__/shell.test.ts`) fails when a shell file uses a key outside the shell.
 */

/** Whole namespaces in the shell catalogue. */
export const SHELL_NAMESPACES: readonly string[] = ['adminNav', 'common', 'cookies', 'error', 'footer', 'landing', 'nav', 'userNav'];

/** Single keys of other namespaces in the shell catalogue. */
export const SHELL_KEYS: readonly string[] = [
  'auth.session.inactivityLogout',
  'auth.signOut',
  'page.landing.description',
  'page.landing.title',
  'search.loading',
  // the landing page's project cards show their category (issue 18)
  'search.category.art',
  'search.category.business',
  'search.category.community',
  'search.category.education',
  'search.category.environment',
  'search.category.health',
  'search.category.other',
  'search.category.science',
  'search.category.social',
  'search.category.technology',
];

/** Routes that render with the shell catalogue alone (their page and head use shell keys only). */
export const SHELL_ROUTE_IDS: ReadonlySet<string> = new Set(['landing']);

/**
 * Whether a message belongs to the shell catalogue.
 * @param id message id, e.g. `nav.login`
 */
export function isShellKey(id: string): boolean {
  return SHELL_NAMESPACES.includes(id.split('.')[0]!) || SHELL_KEYS.includes(id);
}
