import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SUPABASE_URL } from '@/lib/public-api';

/** PostgREST of the API the SPA talks to (`VITE_SUPABASE_URL` of vitest.config.ts), for MSW handlers. */
export const REST_URL = `${SUPABASE_URL}/rest/v1`;

/**
 * An MSW server for the calling test file: listens before its tests, drops the handlers a test
 * added after each one, and fails on any request no handler answers (nothing reaches a network).
 * @returns the server; add handlers with `server.use(...)`
 */
export function mockNetwork() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
