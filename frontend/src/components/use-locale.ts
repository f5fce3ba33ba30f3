import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { type Locale, localeFromPath, withLocale } from '@site/locale';

/** Locale of the current URL (spec §2: `/de` prefix = German). */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

/** Returns a function that prefixes a plain path for the current locale. */
export function useLocalizedPath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => withLocale(path, locale), [locale]);
}
