import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { PRODUCT_NAME } from './src/lib/constants.ts';
import { precompileMessagesPlugin } from './vite/precompile-messages.ts';
import { sitemapPlugin } from './vite/sitemap-plugin.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The `supabase start` demo anon key (scripts/local-stack/config.ts). */
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, here, ['VITE_', 'SITE_URL']), ...process.env };
  const offset = Number.parseInt(env.TEAMWERK_STACK_OFFSET ?? '0', 10) || 0;
  const port = 5173 + offset;
  const supabaseUrl = env.VITE_SUPABASE_URL ?? `http://127.0.0.1:${54321 + offset}`;
  return {
    plugins: [
      precompileMessagesPlugin(PRODUCT_NAME),
      react(),
      sitemapPlugin({
        supabaseUrl,
        anonKey: env.VITE_SUPABASE_ANON_KEY ?? LOCAL_ANON_KEY,
        siteUrl: env.VITE_SITE_URL ?? env.SITE_URL,
      }),
    ],
    resolve: { alias: { '@': path.join(here, 'src') } },
    define: {
      // the stack of this offset, unless VITE_SUPABASE_URL says otherwise
      'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl),
    },
    server: { host: '127.0.0.1', port, strictPort: true },
    preview: { host: '127.0.0.1', port, strictPort: true },
    build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
  };
});
