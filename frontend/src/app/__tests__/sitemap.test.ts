import { describe, expect, it } from 'vitest';
import { handleSitemapRequest } from '../../../../supabase/functions/sitemap/handler';
import { buildSitemap, PUBLIC_PAGE_PATHS } from '@site/sitemap';

const SITE = 'https://teamwerk.example';

/** Minimal well-formedness check: balanced tags, single root, no bare ampersands. */
function assertWellFormed(xml: string): void {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  expect(/&(?!amp;|lt;|gt;|quot;|apos;)/.test(xml)).toBe(false);
  const stack: string[] = [];
  for (const m of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([\w:]+)[^>]*?(\/?)>/g)) {
    const [, close, name, selfClose] = m;
    if (selfClose) continue;
    if (close) expect(stack.pop()).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
}

describe('sitemaps (spec §2)', () => {
  it('the index lists the three sitemaps', () => {
    const xml = buildSitemap('sitemap.xml', SITE);
    assertWellFormed(xml);
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const f of ['index-sitemap.xml', 'en-sitemap.xml', 'de-sitemap.xml']) expect(xml).toContain(`<loc>${SITE}/${f}</loc>`);
  });

  it('index-sitemap lists every public page in both languages with hreflang alternates', () => {
    const xml = buildSitemap('index-sitemap.xml', SITE);
    assertWellFormed(xml);
    expect(xml.match(/<url>/g)).toHaveLength(PUBLIC_PAGE_PATHS.length * 2);
    expect(xml).toContain(`<loc>${SITE}/legal/Datenschutzhinweise</loc>`);
    expect(xml).toContain(`<loc>${SITE}/de/legal/Datenschutzhinweise</loc>`);
    expect(xml).toContain(`<loc>${SITE}/de</loc>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="de" href="${SITE}/de/prices"/>`);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/prices"/>`);
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
  });

  it('content sitemaps list projects, events, jobs and profiles, escaped', () => {
    const content = {
      projects: [{ id: 7, slug: 'solar-bikes', lastmod: '2026-11-01T10:00:00Z' }],
      events: [{ slug: 'meetup-berlin' }],
      jobs: [{ id: 'dev&ops', lastmod: 'not a date' }],
      profiles: [{ slug: 'anna-schmidt' }],
      organizations: [{ slug: 'mueller-bau', lastmod: '2026-11-02T10:00:00Z' }],
    };
    const de = buildSitemap('de-sitemap.xml', SITE, content);
    assertWellFormed(de);
    expect(de).toContain(`<loc>${SITE}/de/7-solar-bikes</loc>`);
    expect(de).toContain('<lastmod>2026-11-01T10:00:00.000Z</lastmod>');
    expect(de).toContain(`<loc>${SITE}/de/events/meetup-berlin</loc>`);
    expect(de).toContain(`<loc>${SITE}/de/jobs/dev%26ops</loc>`);
    expect(de).toContain(`<loc>${SITE}/de/u/anna-schmidt</loc>`);
    expect(de).toContain(`<loc>${SITE}/de/org/mueller-bau</loc>`);
    const en = buildSitemap('en-sitemap.xml', SITE, content);
    expect(en).toContain(`<loc>${SITE}/7-solar-bikes</loc>`);
    expect(en).toContain(`<loc>${SITE}/org/mueller-bau</loc>`);
    expect(en.match(/<url>/g)).toHaveLength(5);
  });

  it('the handler reads content through PostgREST with the anon key and survives failures', async () => {
    const seen: string[] = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      seen.push(url);
      expect(new Headers(init?.headers).get('apikey')).toBe('anon-key');
      if (url.includes('/rest/v1/jobs')) return Response.json([{ id: 'frontend-dev', updated_at: '2026-11-20T00:00:00Z' }]);
      if (url.includes('/rest/v1/visible_profiles')) return Response.json([{ slug: 'anna', updated_at: '2026-11-20T00:00:00Z' }]);
      if (url.includes('/rest/v1/organizations')) return Response.json([{ slug: 'mueller-bau', updated_at: '2026-11-20T00:00:00Z' }]);
      if (url.includes('/rest/v1/events')) throw new TypeError('connection refused');
      return Response.json({ message: 'relation does not exist' }, { status: 404 });
    }) as typeof fetch;
    const deps = { supabaseUrl: 'http://127.0.0.1:54321', anonKey: 'anon-key', siteUrl: SITE, fetch: fakeFetch };
    const res = await handleSitemapRequest(new Request('http://x/functions/v1/sitemap/en-sitemap.xml'), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/xml');
    const xml = await res.text();
    expect(xml).toContain(`<loc>${SITE}/jobs/frontend-dev</loc>`);
    expect(xml).toContain(`<loc>${SITE}/u/anna</loc>`);
    expect(xml).toContain(`<loc>${SITE}/org/mueller-bau</loc>`);
    expect(seen.some((u) => u.includes('/rest/v1/projects'))).toBe(true);

    const missing = await handleSitemapRequest(new Request('http://x/nope.xml'), deps);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: 'Unknown sitemap' } });
    const post = await handleSitemapRequest(new Request('http://x/sitemap.xml', { method: 'POST' }), deps);
    expect(post.status).toBe(405);
    const robots = await handleSitemapRequest(new Request('http://x/robots.txt'), deps);
    expect(await robots.text()).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});
