/**
 * Maps the error of an RPC that the database refused (PostgREST error JSON) to the function's
 * answer, so the database's rule and message reach the client unchanged (issue 16).
 * Input: `{ code, message, details, hint }` as supabase-js returns it. Output: HttpError with
 * the database's message as `code` and its detail as `message`:
 * 28000 → 401, 42501 → 403, P0002 → 404, P0001/22023/23xxx → 400 (409 for 23505), PT4xx → that
 * status. Anything else (database down, bugs) becomes a plain Error (500, logged).
 */
import { HttpError } from './http.ts';

/** The PostgREST error shape. */
export interface RpcFailure {
  code?: string;
  message: string;
  details?: string | null;
  hint?: string | null;
}

const STATUS: Record<string, number> = { '28000': 401, '42501': 403, P0002: 404, P0001: 400, '22023': 400, '23505': 409, '23514': 400 };

/** See the module comment. */
export function rpcError(error: RpcFailure): Error {
  const code = error.code ?? '';
  const pt = /^PT([45]\d\d)$/.exec(code);
  const status = STATUS[code] ?? (pt ? Number(pt[1]) : undefined);
  if (status === undefined || status >= 500) return new Error(`rpc failed (${code}): ${error.message}`);
  const slug = /^[a-z_]{3,60}$/.test(error.message) ? error.message : 'request_refused';
  return new HttpError(status, slug, error.details || error.message);
}
