import { defineConfig } from 'vitest/config';

/**
 * The fuzz step of `npm test` (issue 12): property-based bad input against every RPC and Edge
 * Function of the local stack. One file at a time and after the other database tests, because it
 * compares a fingerprint of the whole database before and after.
 */
export default defineConfig({
  test: {
    include: ['supabase/fuzz/**/*.test.ts'],
    globalSetup: ['scripts/test-support/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
