/**
 * Request handler of the `sitemap` Edge Function, free of Deno globals so it can be tested and
 * reused by the Vite dev/preview middleware.
 *
 * Production wiring (host rewrite): the static host of the SPA rewrites
 *   /sitemap.xml, /index-sitemap.xml, /en-sitemap.xml, /de-sitemap.xml, /robots.txt
 * to `https://<project-ref>.supabase.co/functions/v1/sitemap/<file>` (e.g. Netlify `_redirects`
 * `/sitemap.xml https://<ref>.supabase.co/functions/v1/sitemap/sitemap.xml 200`, Vercel
 * `rewrites`, Cloudflare Pages `_redirects`). The function is deployed with `verify_jwt = false`
 * because crawlers send no token; it reads only what the anon role may read (RLS decides).
 */
import {
  buildRobotsTxt,
  buildSitemap,
  EMPTY_CONTENT,
  sitemapFileFromPath,
  type SitemapContent,
} from '../_shared/site/index.ts';

/** Dependencies of the handler: where PostgREST is, the anon key, and the public site URL. */
export interface SitemapDeps {
  /** Supabase API URL, e.g. `http://127.0.0.1:54321` (PostgREST at `/rest/v1`). */
  supabaseUrl: string;
  anonKey: string;
  /** Public origin of the SPA, used in every `<loc>`. */
  siteUrl: string;
  fetch?: typeof fetch;
  /** Milliseconds before a PostgREST read is abandoned (default 3000). */
  timeoutMs?: number;
}

/** Row shapes read from PostgREST; columns follow the migrations (spec §3). */
type Row = Record<string, unknown>;

async function readRows(deps: SitemapDeps, query: string): Promise<Row[]> {
  const doFetch = deps.fetch ?? fetch;
  try {
    const res = await doFetch(`${deps.supabaseUrl.replace(/\/+$/, '')}/rest/v1/${query}`, {
      headers: { apikey: deps.anonKey, Authorization: `Bearer ${deps.anonKey}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(deps.timeoutMs ?? 3000),
    });
    if (!res.ok) return [];
    const body: unknown = await res.json();
    return Array.isArray(body) ? (body as Row[]) : [];
  } catch {
    return [];
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const idOf = (v: unknown): string | number | null => (typeof v === 'number' || typeof v === 'string' ? v : null);

/**
 * Reads public content through PostgREST with the anon key. Any failing table (missing, not
 * reachable, RLS denies) yields an empty list for that table, never an error.
 */
export async function fetchSitemapContent(deps: SitemapDeps): Promise<SitemapContent> {
  const [projects, events, jobs, profiles, organizations] = await Promise.all([
    // RLS limits anon to published projects, non-draft events, unexpired jobs, visible profiles;
    // the filters repeat the public rule so a service key would not leak more.
    readRows(deps, 'projects?select=id,slug,updated_at&status=eq.published&order=id&limit=5000'),
    readRows(deps, 'events?select=slug,updated_at&status=neq.draft&order=slug&limit=5000'),
    readRows(deps, 'jobs?select=id,updated_at&order=id&limit=5000'),
    // spec §6: only confirmed profiles with profile_visibility = 1 (the view's `listed` rule; the
    // two source columns are private since issue 12)
    readRows(deps, 'visible_profiles?select=slug,updated_at&order=slug&limit=5000'),
    // issue 15: every organisation has a public page
    readRows(deps, 'organizations?select=slug,updated_at&order=slug&limit=5000'),
  ]);
  return {
    projects: projects.flatMap((p) => {
      const id = idOf(p.id);
      const slug = str(p.slug);
      return id !== null && slug ? [{ id, slug, lastmod: str(p.updated_at) ?? str(p.created_at) }] : [];
    }),
    events: events.flatMap((e) => {
      const slug = str(e.slug);
      return slug ? [{ slug, lastmod: str(e.updated_at) ?? str(e.created_at) }] : [];
    }),
    jobs: jobs.flatMap((j) => {
      const id = idOf(j.id);
      return id !== null ? [{ id, lastmod: str(j.updated_at) ?? str(j.created_at) }] : [];
    }),
    profiles: profiles.flatMap((u) => {
      const slug = str(u.slug);
      return slug ? [{ slug, lastmod: str(u.updated_at) }] : [];
    }),
    organizations: organizations.flatMap((o) => {
      const slug = str(o.slug);
      return slug ? [{ slug, lastmod: str(o.updated_at) }] : [];
    }),
  };
}

/**
 * Answers a sitemap or robots.txt request.
 * @param request any request whose path ends in a sitemap file name or `robots.txt`
 * @returns 200 XML/text, 404 JSON `{ error: { code, message } }` for other names, 405 for non-GET
 */
export async function handleSitemapRequest(request: Request, deps: SitemapDeps): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Response.json({ error: { code: 'method_not_allowed', message: 'Use GET' } }, { status: 405 });
  }
  const { pathname } = new URL(request.url);
  if (pathname.endsWith('/robots.txt')) {
    return new Response(buildRobotsTxt(deps.siteUrl), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const file = sitemapFileFromPath(pathname);
  if (!file) {
    return Response.json({ error: { code: 'not_found', message: 'Unknown sitemap' } }, { status: 404 });
  }
  const content =
    file === 'en-sitemap.xml' || file === 'de-sitemap.xml' ? await fetchSitemapContent(deps) : EMPTY_CONTENT;
  return new Response(buildSitemap(file, deps.siteUrl, content), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
