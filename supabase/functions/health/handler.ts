/**
 * Request handler of the `health` Edge Function: answers that the functions runtime is up.
 * Free of Deno globals so it can be unit-tested (see handler.test.ts) with a fixed clock.
 *
 * GET (or any method) /functions/v1/health → 200 `{ status: 'ok', function: 'health', time }`
 * (time as ISO 8601, UTC). OPTIONS → 204 with CORS headers. Deployed with `verify_jwt = false`.
 */

/** CORS headers for browser callers (supabase-js sends authorization, apikey, x-client-info). */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

/** Dependencies of the handler; `now` returns the current time (injectable for tests). */
export interface HealthDeps {
  now?: () => Date;
}

/** Answers a health request; never throws. */
export function handleHealth(request: Request, deps: HealthDeps = {}): Response {
  if (request.method === 'OPTIONS') {
    return new Response(null, { status: 204, headers: corsHeaders });
  }
  const now = (deps.now ?? (() => new Date()))();
  return new Response(JSON.stringify({ status: 'ok', function: 'health', time: now.toISOString() }), {
    status: 200,
    headers: { ...corsHeaders, 'Content-Type': 'application/json' },
  });
}
