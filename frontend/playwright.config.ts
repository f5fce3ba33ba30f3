import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { stackConfig } from '../scripts/local-stack/config.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.ts';
import { e2eDistDir } from './e2e/dist-dir.ts';

/**
 * Browser tests against the production build served by `vite preview` on 127.0.0.1:5173+offset,
 * talking to the local stack of the same offset (TEAMWERK_STACK_OFFSET), built with that stack's
 * generated anon key (unless VITE_SUPABASE_URL/VITE_SUPABASE_ANON_KEY are set). Debian Chromium only.
 */
const stack = stackConfig();
const offset = stack.offset;
const port = 5173 + offset;
const gateway = process.env.VITE_SUPABASE_URL ?? stack.apiUrl;
const anonKey = process.env.VITE_SUPABASE_ANON_KEY ?? stack.anonKey;
const outDir = e2eDistDir(offset);
/** Machine-readable results next to the stack's data; `npm test` prints failed and flaky tests from it in its summary. */
const resultsFile = path.join(stack.dataDir, 'e2e-results.json');

/**
 * Spec files that change or count state other files share, so they must not run at the same time as
 * each other; they run one after the other (project `shared-state`, one worker) while the other
 * worker runs the rest. billing-checkout moves the Stripe sandbox's clock by a month and takes the
 * sandbox down for 30 s, which would break any checkout running meanwhile (billing-cancel-confirm,
 * events-tickets; billing-prices no longer checks out: its checks of single screens are component
 * tests, issue 30); stack.spec compares /working-remote-jobs with the remote jobs
 * in the database, and content-jobs-favourite inserts remote jobs; organizations-seats and
 * billing-plans-portal need the sandbox up.
 */
const SHARED_STATE = [
  'billing-cancel-confirm.spec.ts',
  'billing-delete-account.spec.ts',
  'billing-checkout.spec.ts',
  'events-tickets.spec.ts',
  'content-jobs-favourite.spec.ts',
  'organizations-seats.spec.ts',
  'billing-plans-portal.spec.ts',
  'stack.spec.ts',
].map((file) => `**/${file}`);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // files run in parallel on two workers; the tests of a file in order on one (unless the file says otherwise)
  fullyParallel: false,
  ...(offset ? { outputDir: `test-results/offset-${offset}` } : {}),
  workers: 2,
  // one retry under CI: a test that passes only on its retry is reported as flaky by name in the
  // summary of `npm test` (scripts/test.ts), never silently
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: resultsFile }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'en-US',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
  },
  projects: [
    { name: 'shared-state', testMatch: SHARED_STATE, workers: 1 },
    { name: 'e2e', testIgnore: SHARED_STATE },
  ],
  webServer: {
    // E2E_PREBUILT: `npm test` built it already (its e2e:build step, beside the other checks)
    command: `${process.env.E2E_PREBUILT ? '' : `npx vite build --mode stack --outDir ${outDir} --emptyOutDir && `}npx vite preview --strictPort --outDir ${outDir}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: { TEAMWERK_STACK_OFFSET: String(offset), VITE_SUPABASE_URL: gateway, VITE_SUPABASE_ANON_KEY: anonKey },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
