/**
 * Vite plugin serving the sitemaps and robots.txt in `vite dev` and `vite preview` with the same
 * handler the `sitemap` Edge Function uses in production (supabase/functions/sitemap).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect, Plugin } from 'vite';
import { handleSitemapRequest } from '../../supabase/functions/sitemap/handler.ts';
import { buildRobotsTxt, SITEMAP_FILES } from '../../supabase/functions/_shared/site/index.ts';

/** Options: API URL and anon key (PostgREST reads), and an optional fixed public site URL. */
export interface SitemapPluginOptions {
  supabaseUrl: string;
  anonKey: string;
  /** When absent, the origin of the incoming request is used. */
  siteUrl?: string;
}

const SERVED = new Set<string>([...SITEMAP_FILES.map((f) => `/${f}`), '/robots.txt']);

/** Creates the plugin; see SitemapPluginOptions. */
export function sitemapPlugin(options: SitemapPluginOptions): Plugin {
  const middleware: Connect.NextHandleFunction = (req: IncomingMessage, res: ServerResponse, next) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    if (!SERVED.has(url.pathname)) return next();
    const siteUrl = options.siteUrl ?? url.origin;
    handleSitemapRequest(new Request(url, { method: req.method ?? 'GET' }), {
      supabaseUrl: options.supabaseUrl,
      anonKey: options.anonKey,
      siteUrl,
    })
      .then(async (response) => {
        res.statusCode = response.status;
        response.headers.forEach((value, key) => res.setHeader(key, value));
        res.end(req.method === 'HEAD' ? undefined : await response.text());
      })
      .catch(next);
  };
  return {
    name: 'teamwerk-sitemap',
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
    },
    generateBundle() {
      if (options.siteUrl) {
        this.emitFile({ type: 'asset', fileName: 'robots.txt', source: buildRobotsTxt(options.siteUrl) });
      }
    },
  };
}
