import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SUPABASE_URL } from '@/lib/public-api';

/** PostgREST of the API the SPA talks to (`VITE_SUPABASE_URL` of vitest.config.ts), for MSW handlers. */
export const REST_URL = `${SUPABASE_URL}/rest/v1`;
/** The Edge Functions of that API. */
export const FUNCTIONS_URL = `${SUPABASE_URL}/functions/v1`;
/** Supabase Auth (GoTrue) of that API. */
export const AUTH_URL = `${SUPABASE_URL}/auth/v1`;

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

/**
 * A PostgREST read of `table` (GET `/rest/v1/<table>`, an RPC with `rpc/<name>`) answered with
 * `rows` as PostgREST does: a JSON array, or the first row alone when supabase-js asks for one
 * object (`.single()`: Accept `application/vnd.pgrst.object+json`; no row is 406 PGRST116), with
 * the total in `Content-Range` when it asks for a count (`Prefer: count=exact`).
 * @param rows the rows, or a function of the request's query that returns them
 */
export function restRows(table: string, rows: readonly JsonBodyType[] | ((query: URLSearchParams) => readonly JsonBodyType[])) {
  const answer = (request: Request) => {
    const list = typeof rows === 'function' ? rows(new URL(request.url).searchParams) : rows;
    if (request.headers.get('accept')?.includes('vnd.pgrst.object')) {
      return list.length === 1
        ? HttpResponse.json(list[0] ?? null)
        : HttpResponse.json({ code: 'PGRST116', details: `The result contains ${list.length} rows`, hint: null, message: 'JSON object requested, multiple (or no) rows returned' }, { status: 406 });
    }
    const counted = request.headers.get('prefer')?.includes('count=');
    const range = list.length ? `0-${list.length - 1}/${list.length}` : '*/0';
    return HttpResponse.json(list as JsonBodyType, counted ? { headers: { 'Content-Range': range } } : undefined);
  };
  return table.startsWith('rpc/') ? http.post(`${REST_URL}/${table}`, ({ request }) => answer(request)) : http.get(`${REST_URL}/${table}`, ({ request }) => answer(request));
}

/**
 * An Edge Function's error answer as the functions send it (`_shared/http.ts`: `{ error: { code, message } }`).
 * @param status HTTP status; code the contract; message the user-facing text in the request's language
 */
export function functionError(status: number, code: string, message: string) {
  return HttpResponse.json({ error: { code, message } }, { status });
}
