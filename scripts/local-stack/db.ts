/**
 * Database helpers shared by the stack's services.
 */
import pg from 'pg';
import type { StackConfig } from './config.ts';

/** Claims as carried by a Supabase JWT (`request.jwt.claims`). */
export type JwtClaims = Record<string, unknown> & { role?: string; sub?: string };

/** Creates a superuser pool for the stack's Postgres. */
export function createPool(config: StackConfig, max = 10): pg.Pool {
  return new pg.Pool({ connectionString: config.dbUrl, max, idleTimeoutMillis: 30_000 });
}

/**
 * Runs `fn` in a transaction as the caller: `set local role <claims.role>` and
 * `request.jwt.claims` / `request.jwt.claim.sub|role` set exactly as PostgREST does, so RLS
 * policies and `auth.uid()` decide as they would on Supabase. Role defaults to `anon`.
 * Extra GUCs (e.g. `{ 'realtime.topic': 'room:1' }`) are set locally too.
 * Rolls back when `fn` throws (the error propagates) or when `rollback` is true.
 */
export async function withClaims<T>(
  pool: pg.Pool,
  claims: JwtClaims | null,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: { settings?: Record<string, string>; rollback?: boolean } = {},
): Promise<T> {
  const role = typeof claims?.role === 'string' ? claims.role : 'anon';
  if (!['anon', 'authenticated', 'service_role'].includes(role)) {
    throw new Error(`role "${role}" is not allowed`);
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`,
      [role, JSON.stringify(claims ?? { role: 'anon' }), typeof claims?.sub === 'string' ? claims.sub : ''],
    );
    for (const [k, v] of Object.entries(options.settings ?? {})) {
      await client.query('select set_config($1, $2, true)', [k, v]);
    }
    const result = await fn(client);
    await client.query(options.rollback ? 'rollback' : 'commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
