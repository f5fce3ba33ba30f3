/**
 * Environment of the Edge Functions: what hosted Supabase provides (SUPABASE_URL, the API keys
 * (see keys.ts), SUPABASE_DB_URL) plus the project's secrets.
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

/**
 * The SPA's base URL (`SITE_URL`, e.g. `https://teamwerk.de`), without a trailing slash.
 * Errors: throws when SITE_URL is unset or no http(s) URL, so a function answers 500 instead of
 * mailing links to a wrong host (issue 29: there is no default).
 */
export function siteUrl(): string {
  const value = requireEnv('SITE_URL');
  if (!/^https?:\/\/[^/\s]+/.test(value)) throw new Error(`SITE_URL is no http(s) URL: ${value}`);
  return value.replace(/\/$/, '');
}
