import { defineConfig } from 'vitest/config';

/**
 * Root vitest project: the local stack's contract tests and the database tests. They run against
 * the stack of the current TEAMWERK_STACK_OFFSET, which the global setup starts when needed.
 * The SPA's unit tests live in the frontend workspace (its own vitest config).
 */
export default defineConfig({
  test: {
    include: ['scripts/**/*.test.ts', 'supabase/tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'scripts/local-stack/tests/deno/**'],
    globalSetup: ['scripts/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
