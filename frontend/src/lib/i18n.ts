import type { MessageFormatElement } from 'react-intl';
import { type Locale, PRODUCT_NAME } from './constants';

/**
 * Flat message catalogue: id → ICU message. The build precompiles the catalogues to ASTs
 * (vite/precompile-messages.ts); unit tests read the plain strings.
 */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

const cache = new Map<Locale, Messages>();
const pending = new Map<Locale, Promise<Messages>>();

const loaders: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import('../i18n/en.json'),
  de: () => import('../i18n/de.json'),
};

/**
 * Fills `{product}` with the product name in every message, so no call site has to pass it
 * (the name is one constant, issue 2).
 */
export function withProductName(messages: Messages): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([id, text]) => [id, typeof text === 'string' ? text.replaceAll('{product}', PRODUCT_NAME) : text]),
  ) as Messages;
}

/**
 * Loads the catalogue of a locale once (a separate chunk per language, so a page loads only its
 * own language). Resolves with the messages; rejects only if the chunk cannot be fetched.
 */
export function loadMessages(locale: Locale): Promise<Messages> {
  const ready = cache.get(locale);
  if (ready) return Promise.resolve(ready);
  let promise = pending.get(locale);
  if (!promise) {
    promise = loaders[locale]().then((mod) => {
      const messages = withProductName(mod.default);
      cache.set(locale, messages);
      pending.delete(locale);
      return messages;
    });
    pending.set(locale, promise);
  }
  return promise;
}

/** The catalogue of a locale if it has been loaded, else undefined. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return cache.get(locale);
}
