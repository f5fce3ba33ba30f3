/**
 * The project's API keys as Edge Functions receive them (docs "Understanding API keys"; the
 * CLI passes the same: supabase/cli `internal/functions/serve/templates/main.ts`):
 * - the opaque keys as JSON maps `SUPABASE_SECRET_KEYS` / `SUPABASE_PUBLISHABLE_KEYS`
 *   (`{ "default": "sb_secret_…" }`),
 * - the legacy JWT-based keys `SUPABASE_SERVICE_ROLE_KEY` / `SUPABASE_ANON_KEY` while the
 *   project still has them.
 * Functions prefer the opaque keys, so they keep working when the legacy keys are switched off;
 * only the secret key may carry `Sb-Forwarded-For` (IP address forwarding to Auth).
 */
import { env } from './env.ts';

/** The `default` entry of a JSON key map env variable, or null. */
function defaultKey(name: string): string | null {
  const raw = env(name);
  if (!raw) return null;
  try {
    const value = (JSON.parse(raw) as Record<string, unknown>).default;
    return typeof value === 'string' && value ? value : null;
  } catch {
    return null;
  }
}

/** Every value of a JSON key map env variable (rotation keeps several), possibly empty. */
function allKeys(name: string): string[] {
  try {
    return Object.values(JSON.parse(env(name, '{}')) as Record<string, unknown>).filter((v): v is string => typeof v === 'string' && v !== '');
  } catch {
    return [];
  }
}

/** The opaque secret key (`sb_secret_…`), or null when the project gives none. */
export function opaqueSecretKey(): string | null {
  return defaultKey('SUPABASE_SECRET_KEYS');
}

/**
 * The key of the service role: the secret key, else the legacy service_role JWT.
 * Errors: throws when neither is set (a deployment mistake).
 */
export function serviceKey(): string {
  const key = opaqueSecretKey() ?? env('SUPABASE_SERVICE_ROLE_KEY');
  if (!key) throw new Error('missing environment variable SUPABASE_SECRET_KEYS or SUPABASE_SERVICE_ROLE_KEY');
  return key;
}

/**
 * The public key of the anon role: the publishable key, else the legacy anon JWT.
 * Errors: throws when neither is set.
 */
export function publicKey(): string {
  const key = defaultKey('SUPABASE_PUBLISHABLE_KEYS') ?? env('SUPABASE_ANON_KEY');
  if (!key) throw new Error('missing environment variable SUPABASE_PUBLISHABLE_KEYS or SUPABASE_ANON_KEY');
  return key;
}

/**
 * True when `token` is a key of the service role: any secret key of the project or the legacy
 * service_role JWT (callers such as pg_cron send either, see the cron schema).
 */
export function isServiceKey(token: string | null | undefined): boolean {
  if (!token) return false;
  const legacy = env('SUPABASE_SERVICE_ROLE_KEY');
  return (legacy !== '' && token === legacy) || allKeys('SUPABASE_SECRET_KEYS').includes(token);
}

/**
 * True when `token` is a public key of the project: any publishable key or the legacy anon JWT.
 * supabase-js sends the key it was built with as the bearer when nobody is signed in, and a project
 * may serve SPAs built with either while it moves to the new keys; both mean "not signed in".
 */
export function isPublicKey(token: string | null | undefined): boolean {
  if (!token) return false;
  const legacy = env('SUPABASE_ANON_KEY');
  return (legacy !== '' && token === legacy) || allKeys('SUPABASE_PUBLISHABLE_KEYS').includes(token);
}
