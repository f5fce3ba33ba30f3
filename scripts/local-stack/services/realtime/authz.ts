/**
 * Authorisation as Supabase Realtime does it:
 * - JWT check of the channel's access token (HS256 with the stack secret; `role` and `exp`
 *   required), with Realtime's error codes and messages.
 * - Private channels: read (receive) and write (send) permissions per extension (`broadcast`,
 *   `presence`) decided by RLS on `realtime.messages`, evaluated as the caller with
 *   `realtime.topic` set. Read: probe rows are inserted (as superuser), then selected as the
 *   caller; write: probe rows are inserted as the caller. Everything is rolled back.
 *   Source: Realtime `Realtime.Tenants.Authorization`.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { decodeJwt } from 'jose';
import { withClaims, type JwtClaims } from '../../db.ts';
import { verifyJwt, JwtError } from '../../jwt.ts';

export type Extension = 'broadcast' | 'presence';

export type TokenCheck =
  | { ok: true; claims: JwtClaims; exp: number }
  | { ok: false; code: 'InvalidJWTToken' | 'MalformedJWT' | 'JwtSignatureError'; message: string };

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

/**
 * Verifies an access token. Returns the claims and `exp` (seconds since epoch) or Realtime's
 * error code and message (e.g. `InvalidJWTToken` / `Token has expired 12 seconds ago`).
 */
export async function checkToken(token: unknown, secret: string): Promise<TokenCheck> {
  if (typeof token !== 'string' || token.trim() === '') {
    return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
  }
  const cleaned = token.replace(/\s/g, '');
  let unverified: Record<string, unknown>;
  try {
    unverified = decodeJwt(cleaned) as Record<string, unknown>;
  } catch {
    return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
  }
  try {
    const claims = await verifyJwt(cleaned, secret);
    if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') {
      return { ok: false, code: 'InvalidJWTToken', message: 'Fields `role` and `exp` are required in JWT' };
    }
    if (!API_ROLES.has(claims.role)) {
      return { ok: false, code: 'InvalidJWTToken', message: `Role "${claims.role}" is not allowed` };
    }
    return { ok: true, claims, exp: claims.exp };
  } catch (err) {
    if (err instanceof JwtError && err.code === 'expired') {
      const exp = typeof unverified.exp === 'number' ? unverified.exp : Math.floor(Date.now() / 1000);
      const ago = Math.max(0, Math.floor(Date.now() / 1000) - exp);
      return { ok: false, code: 'InvalidJWTToken', message: `Token has expired ${ago} seconds ago` };
    }
    return { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
  }
}

/** Read permissions of a private channel (null = not evaluated). */
export interface ReadPolicies {
  broadcast: boolean;
  presence: boolean | null;
}

/**
 * Evaluates the select policies of realtime.messages for `topic` as the caller.
 * Errors: propagates database errors (caller treats them as "not authorised").
 */
export async function readPolicies(pool: pg.Pool, claims: JwtClaims, topic: string, presenceEnabled: boolean): Promise<ReadPolicies> {
  const extensions: Extension[] = presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'];
  const ids = new Map<Extension, string>(extensions.map((e) => [e, randomUUID()]));
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  const visible = await withClaims(
    pool,
    claims,
    async (client) => {
      // The probe rows are written with the service's own (superuser) rights, then read as the caller.
      await client.query('set local role none');
      for (const [ext, id] of ids) {
        await client.query('insert into realtime.messages (id, topic, extension) values ($1, $2, $3)', [id, topic, ext]);
      }
      await client.query(`select set_config('role', $1, true)`, [role]);
      const res = await client.query<{ id: string }>('select id from realtime.messages where id = any($1::uuid[])', [[...ids.values()]]);
      return new Set(res.rows.map((r) => r.id));
    },
    { settings: { 'realtime.topic': topic }, rollback: true },
  );
  return {
    broadcast: visible.has(ids.get('broadcast')!),
    presence: presenceEnabled ? visible.has(ids.get('presence')!) : null,
  };
}

/**
 * Evaluates the insert policies of realtime.messages for `topic` as the caller, per extension.
 * A row-level-security violation (SQLSTATE 42501) means "not allowed".
 * Errors: propagates other database errors.
 */
export async function writePolicies(pool: pg.Pool, claims: JwtClaims, topic: string, extensions: Extension[]): Promise<Record<Extension, boolean>> {
  const result: Record<Extension, boolean> = { broadcast: false, presence: false };
  await withClaims(
    pool,
    claims,
    async (client) => {
      for (const ext of extensions) {
        await client.query('savepoint realtime_write_probe');
        try {
          await client.query('insert into realtime.messages (topic, extension) values ($1, $2)', [topic, ext]);
          await client.query('release savepoint realtime_write_probe');
          result[ext] = true;
        } catch (err) {
          await client.query('rollback to savepoint realtime_write_probe');
          if ((err as { code?: string }).code === '42501') result[ext] = false;
          else throw err;
        }
      }
    },
    { settings: { 'realtime.topic': topic }, rollback: true },
  );
  return result;
}
