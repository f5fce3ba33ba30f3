/**
 * `sitemap` Edge Function: serves /sitemap.xml, /index-sitemap.xml, /en-sitemap.xml,
 * /de-sitemap.xml and /robots.txt for the production host (see handler.ts for the rewrite).
 * Env: SUPABASE_URL and SUPABASE_ANON_KEY (provided by Supabase), SITE_URL (project secret).
 */
import { handleSitemapRequest } from './handler.ts';

Deno.serve((request: Request) =>
  handleSitemapRequest(request, {
    supabaseUrl: Deno.env.get('SUPABASE_URL') ?? 'http://127.0.0.1:54321',
    anonKey: Deno.env.get('SUPABASE_ANON_KEY') ?? '',
    siteUrl: Deno.env.get('SITE_URL') ?? 'http://127.0.0.1:5173',
  }),
);
