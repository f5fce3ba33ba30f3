import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { PRODUCT_NAME } from './src/lib/constants.ts';
import { basemapPlugin } from './vite/basemap/basemap-plugin.ts';
import { loadCompany } from './vite/company.ts';
import { landingPreloadPlugin } from './vite/landing-preload.ts';
import { precompileMessagesPlugin } from './vite/precompile-messages.ts';
import { sitemapPlugin } from './vite/sitemap-plugin.ts';
import { stackConfig } from '../scripts/local-stack/config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The rules the SPA shares with the Edge Functions (supabase/functions/_shared/site), imported as `@site/<file>`. */
const SITE_RULES = path.join(here, '../supabase/functions/_shared/site');

/**
 * The anon key the SPA is built with (issue 12 §3: none in the source): VITE_SUPABASE_ANON_KEY
 * when set (environment or frontend/.env; `npm start` and the Playwright config pass the local
 * stack's), else, when VITE_SUPABASE_URL is unset too (the local stack of TEAMWERK_STACK_OFFSET),
 * the key generated for that stack's data folder (scripts/local-stack/config.ts). Errors: throws
 * a clear message for another API URL without a key.
 */
function anonKeyFor(env: Record<string, string | undefined>): string {
  if (env.VITE_SUPABASE_ANON_KEY) return env.VITE_SUPABASE_ANON_KEY;
  if (!env.VITE_SUPABASE_URL) return stackConfig(env).anonKey;
  throw new Error(
    `VITE_SUPABASE_ANON_KEY is not set for VITE_SUPABASE_URL=${env.VITE_SUPABASE_URL}: set it to that project's anon key ` +
      '(for the local stack `npm run stack:status` prints it)',
  );
}

export default defineConfig(({ command, mode }) => {
  const env = { ...loadEnv(mode, here, ['VITE_', 'SITE_URL']), ...process.env };
  // issue 29: a build is for a hosted project unless it says otherwise; it never falls back to the
  // local stack quietly (the deploy script passes VITE_SUPABASE_URL and the publishable key)
  if (command === 'build' && !env.VITE_SUPABASE_URL && mode !== 'stack') {
    throw new Error(
      'VITE_SUPABASE_URL is not set: a production build needs VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY (the project\'s ' +
        'publishable or anon key; `npm run deploy` sets both). Build for the local stack with `vite build --mode stack`.',
    );
  }
  // issue 33 §17: the Impressum's company data comes from configuration; a production build refuses without it
  const company = loadCompany({ command, mode, file: env.TEAMWERK_COMPANY_FILE, root: path.join(here, '..') });
  const offset = Number.parseInt(env.TEAMWERK_STACK_OFFSET ?? '0', 10) || 0;
  const port = 5173 + offset;
  const supabaseUrl = env.VITE_SUPABASE_URL ?? `http://127.0.0.1:${54321 + offset}`;
  const anonKey = anonKeyFor(env);
  return {
    plugins: [
      precompileMessagesPlugin(PRODUCT_NAME),
      react(),
      basemapPlugin(),
      landingPreloadPlugin(),
      sitemapPlugin({
        supabaseUrl,
        anonKey,
        siteUrl: env.VITE_SITE_URL ?? env.SITE_URL,
      }),
    ],
    resolve: { alias: { '@': path.join(here, 'src'), '@site': SITE_RULES } },
    define: {
      // the stack of this offset and its key, unless VITE_SUPABASE_URL/VITE_SUPABASE_ANON_KEY say otherwise
      'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl),
      'import.meta.env.VITE_SUPABASE_ANON_KEY': JSON.stringify(anonKey),
      __TEAMWERK_COMPANY__: JSON.stringify(company),
    },
    server: { host: '127.0.0.1', port, strictPort: true },
    preview: { host: '127.0.0.1', port, strictPort: true },
    // maplibre-gl (about 1 MB minified) is its own chunk, loaded only where a map shows (issue 14)
    build: {
      target: 'es2022',
      // browsers of the es2022 target preload modules natively (Safari since 17); the polyfill would
      // cost the landing budget (issue 18) on every page for browsers that only lose a preload
      modulePreload: { polyfill: false },
      sourcemap: false,
      chunkSizeWarningLimit: 1100,
      rolldownOptions: {
        output: {
          // react, react-dom and Mantine's core (provider, Box, styles API) in one chunk: every page needs
          // them first, and one file compresses better than eight small ones (issue 18 landing budget)
          codeSplitting: {
            groups: [
              { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|@mantine[\\/]core[\\/]esm[\\/]core[\\/]/, priority: 2 },
            ],
          },
        },
      },
    },
  };
});
