import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { PRODUCT_NAME } from './src/lib/constants.ts';
import { loadCompany } from './vite/company.ts';
import { transformCatalogue } from './vite/precompile-messages.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The catalogue parts `src/lib/i18n.ts` imports (`en.json?shell|pages|rest`) as the build makes
 * them (vite/precompile-messages.ts); plain `en.json` imports stay plain strings for the
 * catalogue tests.
 */
const catalogueParts: Plugin = {
  name: 'teamwerk-catalogue-parts',
  enforce: 'pre',
  transform: (code, id) => transformCatalogue(code, id, PRODUCT_NAME, true),
};

export default defineConfig({
  plugins: [catalogueParts],
  resolve: { alias: { '@': path.join(here, 'src'), '@site': path.join(here, '../supabase/functions/_shared/site') } },
  // the company data of local builds (frontend/vite/company.ts)
  define: { __TEAMWERK_COMPANY__: JSON.stringify(loadCompany({ command: 'serve', mode: 'test', file: undefined, root: path.join(here, '..') })) },
  test: {
    root: here,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'vite/**/*.test.ts'],
    environment: 'node',
    // the screen tests wait up to 10 s for a screen's first render (their WAIT: lazy chunks are
    // transformed on first import, slow while `npm test` runs its other steps beside); vitest's
    // default of 5 s per test cut that wait short (the /prices screen test timed out at 5.2 s)
    testTimeout: 30_000,
    // component tests (`// @vitest-environment happy-dom`, src/test/) talk to this API; MSW answers it
    env: { VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'anon-key-of-the-component-tests' },
  },
});
