/**
 * The rules the SPA, the Edge Functions and the build share, written once: plain TypeScript
 * without Deno or DOM APIs and with relative `.ts` imports, so that `supabase functions deploy`
 * bundles it with the functions, Deno type-checks it, and Vite and vitest read it through the
 * SPA's `@site` alias. The functions import this index; the SPA imports the files themselves
 * (`@site/locale`, `@site/url`, …): through one barrel the bundler split the landing page's entry
 * into shared chunks (+4 KB gzip over the issue 18 budget).
 */
export { buildIcs, escapeIcsText, foldIcsLine, type IcsEvent, icsUtc } from './ics.ts';
export {
  DEFAULT_LOCALE,
  initialLocaleRedirect,
  isLocale,
  type Locale,
  LOCALES,
  localeFromPath,
  localePrefix,
  localizedUrl,
  preferredLocale,
  stripLocale,
  switchLocalePath,
  withLocale,
} from './locale.ts';
export {
  absoluteUrl,
  buildRobotsTxt,
  buildSitemap,
  contentEntries,
  EMPTY_CONTENT,
  escapeXml,
  PUBLIC_PAGE_PATHS,
  SITEMAP_FILES,
  type SitemapContent,
  type SitemapFile,
  sitemapFileFromPath,
} from './sitemap.ts';
export { isOrganizationSlug, ORGANIZATION_SLUG_PATTERN, slugify } from './slug.ts';
export { isHttpsUrl, isHttpUrl, MAX_URL_LENGTH, safeHref } from './url.ts';
export { PASSWORD_RULES, type PasswordRule, passwordProblems } from './password.ts';
export { berlinToday, CANCELLATION_LIMITS } from './cancellation.ts';
