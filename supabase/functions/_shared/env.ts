/**
 * Environment of the Edge Functions: what hosted Supabase provides (SUPABASE_URL,
 * SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL) plus the project's secrets.
 */

/** Reads an env variable; `fallback` when unset or empty. */
export function env(name: string, fallback = ''): string {
  const value = Deno.env.get(name);
  return value === undefined || value === '' ? fallback : value;
}

/** Reads a required env variable. Errors: throws when unset (a deployment mistake). */
export function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`missing environment variable ${name}`);
  return value;
}

/** The SPA's base URL (spec §9: defaults to the local development address). */
export function siteUrl(): string {
  return env('SITE_URL', 'http://127.0.0.1:5173').replace(/\/$/, '');
}
