/**
 * The API address and the public anon key, without supabase-js (issue 18: the landing page must
 * stay within its JavaScript budget and fetches its live content with plain `fetch`).
 */

/** Supabase API URL: VITE_SUPABASE_URL, default the local stack gateway. */
export const SUPABASE_URL: string = import.meta.env.VITE_SUPABASE_URL || 'http://127.0.0.1:54321';
/**
 * Public anon key: VITE_SUPABASE_ANON_KEY, set at build time (vite.config.ts: the environment, or
 * the local stack's generated key). No key lives in the source (issue 12 §3).
 */
export const SUPABASE_ANON_KEY: string = import.meta.env.VITE_SUPABASE_ANON_KEY ?? '';

/**
 * GET /rest/v1/rpc/<name> as anon: read-only RPCs whose answers HTTP caches may keep.
 * @returns the parsed JSON answer
 * @throws Error with the HTTP status when the answer is not 2xx (or the network failed)
 */
export async function getPublicRpc<T>(name: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`${SUPABASE_URL}/rest/v1/rpc/${name}`, { headers: { apikey: SUPABASE_ANON_KEY, Accept: 'application/json' }, signal });
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return (await res.json()) as T;
}


/**
 * Public address of a profile picture: a path in the public `avatars` bucket (or a full URL as
 * stored), null without one. Same address supabase-js' getPublicUrl builds.
 */
export function publicAvatarUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  if (/^https?:\/\//i.test(path)) return path; // seeded pictures may be full URLs (no zod here: landing budget)
  return `${SUPABASE_URL}/storage/v1/object/public/avatars/${path.split('/').map(encodeURIComponent).join('/')}`;
}
