/**
 * `sitemap` Edge Function: serves /sitemap.xml, /index-sitemap.xml, /en-sitemap.xml,
 * /de-sitemap.xml and /robots.txt for the production host (see handler.ts for the rewrite).
 * Env: SUPABASE_URL and the publishable (or anon) key (provided by Supabase), SITE_URL (project
 * secret, required: without it every request answers 500).
 */
import { handleSitemapRequest } from './handler.ts';
import { requireEnv, siteUrl } from '../_shared/env.ts';
import { publicKey } from '../_shared/keys.ts';

Deno.serve((request: Request) =>
  handleSitemapRequest(request, {
    supabaseUrl: requireEnv('SUPABASE_URL'),
    anonKey: publicKey(),
    siteUrl: siteUrl(),
  }),
);
