import type { MessageFormatElement } from 'react-intl';
import { PRODUCT_NAME } from './constants';
import { type Locale } from '@site/locale';

/**
 * Flat message catalogue: id → ICU message. The build precompiles the catalogues to ASTs
 * (vite/precompile-messages.ts); unit tests read the plain strings.
 */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

/**
 * How much of a catalogue a page needs: `shell` = the messages of the app shell and the landing
 * page (src/i18n/shell.ts, issue 5), `pages` = the shell and the page part (the public pages of
 * PAGE_ROUTE_IDS, issue 18), `full` = every message.
 */
export type CatalogueScope = 'shell' | 'pages' | 'full';

type Part = 'shell' | 'pages' | 'rest';

/** The parts each scope consists of. */
const SCOPE_PARTS: Record<CatalogueScope, readonly Part[]> = { shell: ['shell'], pages: ['shell', 'pages'], full: ['shell', 'pages', 'rest'] };

// each catalogue is built as three chunks per language: the shell part, the page part and the rest
const loaders: Record<Locale, Record<Part, () => Promise<{ default: Messages }>>> = {
  en: { shell: () => import('../i18n/en.json?shell'), pages: () => import('../i18n/en.json?pages'), rest: () => import('../i18n/en.json?rest') },
  de: { shell: () => import('../i18n/de.json?shell'), pages: () => import('../i18n/de.json?pages'), rest: () => import('../i18n/de.json?rest') },
};

const parts = new Map<string, Promise<Messages>>();
/** The largest catalogue loaded per locale and its scope. */
const loaded = new Map<Locale, { scope: CatalogueScope; messages: Messages }>();
const listeners = new Set<() => void>();

/**
 * Fills `{product}` with the product name in every message of a plain catalogue, so no call site
 * has to pass it (the name is one constant, issue 2). The parts loadMessages loads are filled in
 * already when they are compiled (vite/precompile-messages.ts), in the build, the dev server and
 * the unit tests alike, so this serves tests that read the plain JSON.
 */
export function withProductName(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([id, text]) => [id, typeof text === 'string' ? text.replaceAll('{product}', PRODUCT_NAME) : text]),
  ) as Messages;
}

/**
 * Loads one part once (compiled, `{product}` filled in: vite/precompile-messages.ts); a failed
 * load is forgotten so the next call tries again.
 */
function loadPart(locale: Locale, part: Part): Promise<Messages> {
  const key = `${locale}:${part}`;
  let promise = parts.get(key);
  if (!promise) {
    promise = loaders[locale][part]().then(
      (mod) => mod.default,
      (error: unknown) => {
        parts.delete(key);
        throw error;
      },
    );
    parts.set(key, promise);
  }
  return promise;
}

/** Loads every part of a scope (each part once, loadPart). */
const loadParts = (locale: Locale, scope: CatalogueScope) => Promise.all(SCOPE_PARTS[scope].map((part) => loadPart(locale, part)));

/** Whether a catalogue of scope `have` holds every message of scope `want`. */
const covers = (have: CatalogueScope, want: CatalogueScope) => SCOPE_PARTS[have].length >= SCOPE_PARTS[want].length;

/**
 * Loads the catalogue of a locale once (separate chunks per language, so a page loads only its
 * own language; the shell part first, the other parts only for pages that need them).
 * @param scope `full` (default) every message; `pages` the shell and the page part; `shell` the
 *   shell catalogue; a larger catalogue already loaded is returned as it is
 * @param options.notify whether subscribers (RootShell) re-render at once with a larger catalogue
 *   (default true); the navigation check passes false: the page it admits renders RootShell,
 *   which then reads the catalogue, and the page on screen is not drawn again first
 * @returns the messages; rejects only if a chunk cannot be fetched
 */
export function loadMessages(locale: Locale, scope: CatalogueScope = 'full', options: { notify?: boolean } = {}): Promise<Messages> {
  const current = loaded.get(locale);
  if (current && covers(current.scope, scope)) return Promise.resolve(current.messages);
  // the parts are loaded once (loadPart); of calls waiting at the same time, the first to finish publishes
  return loadParts(locale, scope).then((loadedParts) => {
    const latest = loaded.get(locale);
    if (latest && covers(latest.scope, scope)) return latest.messages;
    const messages = Object.assign({}, ...loadedParts) as Messages;
    loaded.set(locale, { scope, messages });
    if (options.notify !== false) for (const listener of listeners) listener();
    return messages;
  });
}

/**
 * Fetches every part of a locale's full catalogue into the part cache without handing it to the
 * page: the page on screen keeps its catalogue (publishing a larger one re-renders every text
 * of the page at once, a long task right after the landing page's first paint: Lighthouse TBT,
 * issue 18). The next navigation's `loadMessages(locale)` then finds the parts loaded.
 * @returns resolves when the parts are loaded; never rejects (a failed part is tried again later)
 */
export async function preloadMessages(locale: Locale): Promise<void> {
  await loadParts(locale, 'full').catch(() => undefined);
}

/** The largest catalogue of a locale loaded so far (full, else shell and page part, else shell), else undefined. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return loaded.get(locale)?.messages;
}

/** For `useSyncExternalStore`: called when a larger catalogue has finished loading. */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
