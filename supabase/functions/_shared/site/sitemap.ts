/**
 * Pure sitemap builder shared by the `sitemap` Edge Function (production) and the Vite
 * dev/preview middleware (development). No I/O: callers pass the site URL and the content rows they
 * read from PostgREST.
 *
 * Files (spec §2 "Sitemaps"):
 * - `/sitemap.xml`        sitemap index pointing at the three files below
 * - `/index-sitemap.xml`  every static public page, English and German, with hreflang alternates
 * - `/en-sitemap.xml`     public projects, events, jobs and visible profiles (English URLs)
 * - `/de-sitemap.xml`     the same content under the `/de` prefix
 *
 * Format: sitemaps.org schema 0.9 plus the `xhtml:link rel="alternate"` extension Google reads
 * for hreflang.
 */

import { type Locale, LOCALES, withLocale } from './locale.ts';
import { slugify } from './slug.ts';

/** File names served at the site root. */
export const SITEMAP_FILES = ['sitemap.xml', 'index-sitemap.xml', 'en-sitemap.xml', 'de-sitemap.xml'] as const;
export type SitemapFile = (typeof SITEMAP_FILES)[number];

/**
 * Static public pages without locale prefix (spec §2, public routes that make sense to index).
 * The SPA's route table marks the same set with `sitemap: true`; a unit test keeps both equal.
 */
export const PUBLIC_PAGE_PATHS: readonly string[] = [
  '/',
  '/prices',
  '/search',
  '/contact',
  '/impressum',
  '/newsletter',
  '/our-guidelines',
  '/ueber-teamwerk',
  '/working-remote-jobs',
  '/events',
  '/map',
  '/jobs',
  '/login',
  '/registration',
  '/legal/widerufsbelehrung',
  '/legal/Datenschutzhinweise',
  '/legal/nutzungsvereinbarung',
  '/legal/anbieterkennzeichnung',
  // issue 15: the public API's documentation
  '/developers/api',
];

/** A content row that gets its own URL. `lastmod` is an ISO timestamp or absent. */
export interface SitemapContent {
  projects: { id: number | string; slug: string; lastmod?: string | null }[];
  events: { slug: string; lastmod?: string | null }[];
  jobs: { id: number | string; lastmod?: string | null }[];
  profiles: { slug: string; lastmod?: string | null }[];
  /** Organisation pages `/org/{slug}` (issue 15). */
  organizations?: { slug: string; lastmod?: string | null }[];
}

/** An empty content set (used when the database is unreachable). */
export const EMPTY_CONTENT: SitemapContent = { projects: [], events: [], jobs: [], profiles: [] };

interface UrlEntry {
  /** Path without locale prefix, e.g. `/prices`. */
  path: string;
  lastmod?: string | null;
}

/** Escapes the five XML special characters. */
export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Joins the site origin (no trailing slash needed) and a path, encoding each segment safely. */
export function absoluteUrl(siteUrl: string, path: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(decodeURIComponentSafe(segment)))
    .join('/');
  return `${base}${encoded}`;
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Normalises a timestamp to the W3C date format the schema accepts, or returns undefined. */
function w3cDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString();
}

function urlElement(siteUrl: string, entry: UrlEntry, locale: Locale): string {
  const lines = [`  <url>`, `    <loc>${escapeXml(absoluteUrl(siteUrl, withLocale(entry.path, locale)))}</loc>`];
  const lastmod = w3cDate(entry.lastmod);
  if (lastmod) lines.push(`    <lastmod>${lastmod}</lastmod>`);
  for (const alt of LOCALES) {
    lines.push(
      `    <xhtml:link rel="alternate" hreflang="${alt}" href="${escapeXml(absoluteUrl(siteUrl, withLocale(entry.path, alt)))}"/>`,
    );
  }
  lines.push(
    `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(absoluteUrl(siteUrl, entry.path))}"/>`,
  );
  lines.push(`  </url>`);
  return lines.join('\n');
}

function urlset(elements: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...elements,
    '</urlset>',
    '',
  ].join('\n');
}

/** Paths of the content rows (projects `/{id}-{slug}`, events `/events/{slug}`, jobs `/jobs/{id}`, profiles `/u/{slug}`, organisations `/org/{slug}`). */
export function contentEntries(content: SitemapContent): UrlEntry[] {
  return [
    ...content.projects.map((p) => ({ path: `/${p.id}-${slugify(p.slug, 100) || 'project'}`, lastmod: p.lastmod })),
    ...content.events.map((e) => ({ path: `/events/${e.slug}`, lastmod: e.lastmod })),
    ...content.jobs.map((j) => ({ path: `/jobs/${j.id}`, lastmod: j.lastmod })),
    ...content.profiles.map((u) => ({ path: `/u/${u.slug}`, lastmod: u.lastmod })),
    ...(content.organizations ?? []).map((o) => ({ path: `/org/${o.slug}`, lastmod: o.lastmod })),
  ];
}

/**
 * Builds one sitemap file.
 * @param file one of SITEMAP_FILES
 * @param siteUrl public origin of the SPA, e.g. `https://teamwerk.de` (no path)
 * @param content public rows; pass EMPTY_CONTENT when the database cannot be read
 * @returns the XML document (UTF-8 text)
 */
export function buildSitemap(file: SitemapFile, siteUrl: string, content: SitemapContent = EMPTY_CONTENT): string {
  switch (file) {
    case 'sitemap.xml':
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...SITEMAP_FILES.filter((f) => f !== 'sitemap.xml').map(
          (f) => `  <sitemap>\n    <loc>${escapeXml(absoluteUrl(siteUrl, `/${f}`))}</loc>\n  </sitemap>`,
        ),
        '</sitemapindex>',
        '',
      ].join('\n');
    case 'index-sitemap.xml':
      return urlset(
        LOCALES.flatMap((locale) => PUBLIC_PAGE_PATHS.map((path) => urlElement(siteUrl, { path }, locale))),
      );
    case 'en-sitemap.xml':
      return urlset(contentEntries(content).map((entry) => urlElement(siteUrl, entry, 'en')));
    case 'de-sitemap.xml':
      return urlset(contentEntries(content).map((entry) => urlElement(siteUrl, entry, 'de')));
  }
}

/** Returns the sitemap file named by a request path (`/sitemap.xml`, `/functions/v1/sitemap/de-sitemap.xml`, ...), or null. */
export function sitemapFileFromPath(pathname: string): SitemapFile | null {
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  return (SITEMAP_FILES as readonly string[]).includes(last) ? (last as SitemapFile) : null;
}

/** robots.txt pointing crawlers at the sitemap index and away from the private areas. */
export function buildRobotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /user',
    'Disallow: /de/user',
    'Disallow: /admin',
    'Disallow: /de/admin',
    `Sitemap: ${absoluteUrl(siteUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
}
