/**
 * Locales and the locale prefix of paths (spec §2, §9): English is the default and has no prefix,
 * German lives under `/de`. The SPA's router and links, the sitemap and every link an Edge Function
 * or e-mail puts out use these functions.
 */

/** Supported locales; English is the default and has no path prefix (spec §9). */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** True for a supported locale code. */
export function isLocale(value: string | undefined | null): value is Locale {
  return !!value && (LOCALES as readonly string[]).includes(value);
}

/** The path prefix of a locale: '' for English, `/de` for German. */
export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

/** Locale encoded in a pathname: `/de` and `/de/...` are German, everything else English (spec §2). */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/de' || pathname.startsWith('/de/') ? 'de' : 'en';
}

/** Removes the `/de` prefix: `/de/prices` → `/prices`, `/de` → `/`. */
export function stripLocale(pathname: string): string {
  if (pathname === '/de') return '/';
  if (pathname.startsWith('/de/')) return pathname.slice(3);
  return pathname;
}

/** Adds the prefix of `locale` to a plain path: (`/prices`, de) → `/de/prices`; (`/`, de) → `/de`. */
export function withLocale(path: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? localePrefix(locale) : `${localePrefix(locale)}${path}`;
}

/**
 * `${siteUrl}[/de]<path>?<query>`: an absolute link to an SPA route in the given locale, as
 * e-mails and Edge Functions send it (trailing slashes of `siteUrl` dropped; `path` kept as given,
 * '' for the locale's home).
 */
export function localizedUrl(siteUrl: string, locale: Locale, path: string, query: Record<string, string> = {}): string {
  const base = siteUrl.replace(/\/+$/, '');
  const qs = new URLSearchParams(query).toString();
  return `${base}${localePrefix(locale)}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * The language a visitor prefers: the locale cookie when it holds a supported value, else the
 * first browser language whose primary subtag is supported, else English (spec §2, §9).
 */
export function preferredLocale(cookieValue: string | undefined, browserLanguages: readonly string[]): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLocale(primary)) return primary;
  }
  return DEFAULT_LOCALE;
}

/**
 * Decides where the first page load goes: the locale of the URL wins, except that a plain
 * (English) URL is sent to its German twin when the visitor prefers German. Only the first load
 * is redirected; later in-app navigations keep the locale the visitor chose.
 * @returns the path to redirect to, or null to stay
 */
export function initialLocaleRedirect(
  pathname: string,
  cookieValue: string | undefined,
  browserLanguages: readonly string[],
): string | null {
  if (localeFromPath(pathname) !== DEFAULT_LOCALE) return null;
  const preferred = preferredLocale(cookieValue, browserLanguages);
  return preferred === DEFAULT_LOCALE ? null : withLocale(pathname, preferred);
}

/** The same page in another locale, keeping query and hash (language switch, spec §2). */
export function switchLocalePath(pathname: string, search: string, hash: string, target: Locale): string {
  return `${withLocale(stripLocale(pathname), target)}${search}${hash}`;
}
