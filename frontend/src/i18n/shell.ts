/**
 * The shell catalogue (issue 5): the messages the app shell (header, footer, cookie notice, layouts,
 * error views, snackbar labels, session watch, account menu) and the landing page render. Pages
 * listed in SHELL_ROUTE_IDS render with these alone, so the landing page does not download the
 * whole catalogue. The pages listed in PAGE_ROUTE_IDS (the public pages a first visit often opens)
 * render with the shell and the page part (PAGE_NAMESPACES, issue 18: a third of the catalogue on
 * a phone's critical path instead of all of it); every other page waits for the full catalogue
 * (shell + pages + rest) in its loader. The build splits `src/i18n/<lang>.json` by
 * `cataloguePart` (vite/precompile-messages.ts); the catalogue files themselves stay whole
 * (scripts/add-messages.mjs). Unit tests (`__tests__/shell.test.ts`) fail when a shell file uses a
 * key outside the shell, or a file a PAGE_ROUTE_IDS page imports uses a key of the rest.
 */

/** Whole namespaces in the shell catalogue. */
export const SHELL_NAMESPACES: readonly string[] = ['adminNav', 'common', 'cookies', 'error', 'footer', 'landing', 'nav', 'userNav'];

/** Single keys of other namespaces in the shell catalogue. */
export const SHELL_KEYS: readonly string[] = [
  'auth.session.inactivityLogout',
  'auth.signOut',
  // components/content-page.tsx (legal pages, issue 33 §17)
  'legal.demoNotice',
  'legal.germanBinding',
  'legal.noDpo',
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
 * Namespaces of the page part: what the pages of PAGE_ROUTE_IDS (and the components they import)
 * render besides the shell; `page` holds every page's head title and description.
 */
export const PAGE_NAMESPACES: readonly string[] = ['billing', 'card', 'chat', 'contacts', 'events', 'map', 'page', 'prices', 'projects', 'search'];

/** Routes that render with the shell and the page part (their modules use no key of the rest). */
export const PAGE_ROUTE_IDS: ReadonlySet<string> = new Set(['search', 'prices']);

/** The build-time parts of a catalogue: shell, page part, and the rest. */
export type CataloguePartName = 'shell' | 'pages' | 'rest';

/**
 * Which part of the catalogue a message belongs to (the shell wins over the page part).
 * @param id message id, e.g. `search.title`
 */
export function cataloguePart(id: string): CataloguePartName {
  if (isShellKey(id)) return 'shell';
  return PAGE_NAMESPACES.includes(id.split('.')[0]!) ? 'pages' : 'rest';
}

/**
 * Whether a message belongs to the shell catalogue.
 * @param id message id, e.g. `nav.login`
 */
export function isShellKey(id: string): boolean {
  return SHELL_NAMESPACES.includes(id.split('.')[0]!) || SHELL_KEYS.includes(id);
}
