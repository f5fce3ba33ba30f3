import type { MessageFormatElement } from 'react-intl';
import { type Locale, PRODUCT_NAME } from './constants';

/**
 * Flat message catalogue: id → ICU message. The build precompiles the catalogues to ASTs
 * (vite/precompile-messages.ts); unit tests read the plain strings.
 */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

/**
 * How much of a catalogue a page needs: `shell` = the messages of the app shell and the landing
 * page (src/i18n/shell.ts, issue 5), `full` = every message.
 */
export type CatalogueScope = 'shell' | 'full';

type Part = 'shell' | 'rest';

// each catalogue is built as two chunks per language: the shell part and the rest
const loaders: Record<Locale, Record<Part, () => Promise<{ default: Messages }>>> = {
  en: { shell: () => import('../i18n/en.json?shell'), rest: () => import('../i18n/en.json?rest') },
  de: { shell: () => import('../i18n/de.json?shell'), rest: () => import('../i18n/de.json?rest') },
};

const parts = new Map<string, Promise<Messages>>();
const shellCache = new Map<Locale, Messages>();
const fullCache = new Map<Locale, Messages>();
const pendingFull = new Map<Locale, Promise<Messages>>();
const listeners = new Set<() => void>();

/**
 * Fills `{product}` with the product name in every message, so no call site has to pass it
 * (the name is one constant, issue 2).
 */
export function withProductName(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([id, text]) => [id, typeof text === 'string' ? text.replaceAll('{product}', PRODUCT_NAME) : text]),
  ) as Messages;
}

/** Loads one part once; a failed load is forgotten so the next call tries again. */
function loadPart(locale: Locale, part: Part): Promise<Messages> {
  const key = `${locale}:${part}`;
  let promise = parts.get(key);
  if (!promise) {
    promise = loaders[locale][part]().then(
      (mod) => withProductName(mod.default),
      (error: unknown) => {
        parts.delete(key);
        throw error;
      },
    );
    parts.set(key, promise);
  }
  return promise;
}

/**
 * Loads the catalogue of a locale once (separate chunks per language, so a page loads only its
 * own language; the shell part first, the rest only for pages that need it).
 * @param scope `full` (default) every message; `shell` the shell catalogue, or the full one if loaded
 * @returns the messages; rejects only if a chunk cannot be fetched
 */
export function loadMessages(locale: Locale, scope: CatalogueScope = 'full'): Promise<Messages> {
  const full = fullCache.get(locale);
  if (full) return Promise.resolve(full);
  if (scope === 'shell') {
    const shell = shellCache.get(locale);
    if (shell) return Promise.resolve(shell);
    return loadPart(locale, 'shell').then((messages) => {
      shellCache.set(locale, messages);
      return messages;
    });
  }
  let promise = pendingFull.get(locale);
  if (!promise) {
    promise = Promise.all([loadPart(locale, 'shell'), loadPart(locale, 'rest')]).then(
      ([shell, rest]) => {
        shellCache.set(locale, shell);
        const messages = { ...shell, ...rest } as Messages;
        fullCache.set(locale, messages);
        pendingFull.delete(locale);
        for (const listener of listeners) listener();
        return messages;
      },
      (error: unknown) => {
        pendingFull.delete(locale);
        throw error;
      },
    );
    pendingFull.set(locale, promise);
  }
  return promise;
}

/** The catalogue of a locale if it has been loaded (the full one, else the shell one), else undefined. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return fullCache.get(locale) ?? shellCache.get(locale);
}

/** For `useSyncExternalStore`: called when a full catalogue has finished loading. */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
