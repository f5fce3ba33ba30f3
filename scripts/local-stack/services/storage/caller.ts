/**
 * Who is calling, and how to run SQL as them.
 *
 * storage-api verifies the bearer JWT with the project's secret (src/http/plugins/jwt.ts);
 * some routes accept a missing/invalid one and then act as `anon` (allowInvalidJwt). Every
 * read and write of storage.objects / storage.buckets then runs as the caller's role with
 * the caller's claims, so RLS policies decide exactly as on Supabase (service_role has
 * bypassrls). A few steps run as the superuser, as storage-api does with `asSuperUser()`:
 * bucket lookups, public-bucket reads, signed-URL downloads and uploads (authorised by the
 * signature), and the final write after a permission test.
 */
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { bearerToken } from '../../http.ts';
import { verifyJwt, JwtError } from '../../jwt.ts';
import { withClaims, type JwtClaims } from '../../db.ts';
import { ERRORS } from './errors.ts';

export interface Caller {
  claims: JwtClaims;
  /** True when a valid JWT was presented (the anon key counts, as on Supabase). */
  authenticated: boolean;
  /** `sub` of the JWT: becomes owner / owner_id of what the caller creates. */
  owner: string | undefined;
  role: string;
}

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);
const ANON: Caller = { claims: { role: 'anon' }, authenticated: false, owner: undefined, role: 'anon' };

/**
 * Resolves the caller from `Authorization: Bearer <jwt>`, falling back to the `apikey`
 * header or query parameter when there is no Authorization header.
 * `allowInvalid`: a missing or bad token yields an unauthenticated anon caller instead of
 * an error. Errors: 400 AccessDenied (`statusCode` "403") with the verifier's message, as
 * storage-api's jwt plugin.
 */
export async function resolveCaller(req: IncomingMessage, url: URL, secret: string, allowInvalid: boolean): Promise<Caller> {
  const headerKey = typeof req.headers.apikey === 'string' ? req.headers.apikey : null;
  const token = bearerToken(req) ?? headerKey ?? url.searchParams.get('apikey');
  if (!token) {
    if (allowInvalid) return ANON;
    throw ERRORS.accessDenied('jwt must be provided');
  }
  let claims: JwtClaims;
  try {
    claims = await verifyJwt(token, secret);
  } catch (err) {
    if (allowInvalid) return ANON;
    if (err instanceof JwtError && err.code === 'expired') throw ERRORS.accessDenied('jwt expired');
    throw ERRORS.accessDenied(token.split('.').length === 3 ? 'invalid signature' : 'jwt malformed');
  }
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  if (!API_ROLES.has(role)) throw ERRORS.accessDenied('Access denied: Invalid role', 403);
  return { claims: { ...claims, role }, authenticated: true, owner: typeof claims.sub === 'string' ? claims.sub : undefined, role };
}

/** GUCs set for every statement of this service (storage-api sets the same). */
function settings(operation: string): Record<string, string> {
  return { 'storage.operation': operation, 'storage.allow_delete_query': 'true' };
}

/**
 * Runs `fn` in a transaction as the caller (role + claims), see db.ts withClaims.
 * `rollback: true` only tests permissions (storage-api's testPermission).
 */
export function asCaller<T>(
  pool: pg.Pool,
  caller: Caller,
  operation: string,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  return withClaims(pool, caller.claims, fn, { settings: settings(operation), rollback: options.rollback });
}

/** Runs `fn` in a transaction as the postgres superuser (RLS does not apply). */
export async function asSuperuser<T>(pool: pg.Pool, operation: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const [k, v] of Object.entries(settings(operation))) await client.query('select set_config($1, $2, true)', [k, v]);
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Switches the current transaction back to the superuser (after the caller's statements). */
export async function becomeSuperuser(client: pg.PoolClient): Promise<void> {
  await client.query(`select set_config('role', 'postgres', true)`);
}

/** `owner` is set only for UUID subjects; `owner_id` always carries the subject (storage-api pg.ts). */
export function ownerColumns(owner: string | undefined): { owner: string | null; owner_id: string | null } {
  const isUuid = !!owner && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(owner);
  return { owner: isUuid ? owner! : null, owner_id: owner ?? null };
}
