/**
 * Per-request plumbing of the auth service: the request context, GoTrue-style body decoding
 * (Go's json.Unmarshal into a params struct: wrong JSON types are `bad_json`), redirect URL
 * validation and the authentication guards (`requireAuthentication`, `requireAdmin`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { HttpError, bearerToken, readBody } from '../../http.ts';
import { JwtError, verifyJwt } from '../../jwt.ts';
import type { JwtClaims } from '../../db.ts';
import type { Mailer } from '../../types.ts';
import { AuthApiError, badRequest, forbidden } from './errors.ts';
import { clientIp, rateLimitKey, type IntervalLimiter, type WindowLimiter } from './ratelimit.ts';
import type { AuthSettings } from './settings.ts';
import { findUserById, type UserRow } from './store.ts';
import { findSession } from './tokens.ts';

export interface AuthDeps {
  pool: pg.Pool;
  mailer: Mailer;
  settings: AuthSettings;
  /** Clock (injectable for tests). */
  now: () => Date;
  limiter: WindowLimiter;
  /**
   * The project-wide budget of Auth e-mails (`settings.rateLimits.emailSentPerHour` per hour;
   * GoTrue's `limiterOpts.Email`), shared by every mail path. See flows.ts checkEmailBudget.
   */
  emailLimiter: IntervalLimiter;
  log: (scope: string, message: string, extra?: unknown) => void;
}

export interface Ctx {
  deps: AuthDeps;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  subpath: string;
  query: URLSearchParams;
  /** The client address as GoTrue records it (utilities.GetIPAddress). */
  ip: string;
  /** The per-IP rate-limit key (performRateLimiting), or null: no per-IP limit applies. */
  rateLimitKey: string | null;
  userAgent: string;
  now: Date;
}

/** Builds the request context. */
export function makeCtx(deps: AuthDeps, req: IncomingMessage, res: ServerResponse, subpath: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return {
    deps,
    req,
    res,
    method: (req.method ?? 'GET').toUpperCase(),
    subpath: subpath.replace(/\/+$/, '') || '/',
    query: url.searchParams,
    ip: clientIp(req, deps.settings),
    rateLimitKey: rateLimitKey(req, deps.settings),
    userAgent: String(req.headers['user-agent'] ?? ''),
    now: deps.now(),
  };
}

/** Field types of a params struct: Go's string, bool, map[string]interface{}, or anything. */
export type FieldType = 'string' | 'bool' | 'object' | 'any';

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/**
 * Reads the body (limit settings.bodyLimitBytes: 413 `request_entity_too_large`) and decodes
 * it like Go's json.Unmarshal into the struct `structName`: malformed JSON or a value of the
 * wrong type is 400 `bad_json` ("Could not parse request body as JSON: …"); `null` leaves a
 * field unset; unknown fields are ignored. An empty body decodes to `{}`.
 * `application/x-www-form-urlencoded` bodies are accepted too (strings only).
 */
export async function decodeBody(
  ctx: Ctx,
  structName: string,
  spec: Record<string, FieldType>,
): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readBody(ctx.req, ctx.deps.settings.bodyLimitBytes);
  } catch (err) {
    if (err instanceof HttpError && err.status === 413) {
      throw new AuthApiError(413, 'request_entity_too_large', `Request body too large (max ${ctx.deps.settings.bodyLimitBytes} bytes)`);
    }
    throw err;
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    parsed = Object.fromEntries(new URLSearchParams(text));
  } else {
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw badRequest('bad_json', `Could not parse request body as JSON: ${(err as Error).message}`);
    }
  }
  if (parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('bad_json', `Could not parse request body as JSON: json: cannot unmarshal ${jsonTypeName(parsed)} into Go value of type api.${structName}`);
  }
  const body = parsed as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, ftype] of Object.entries(spec)) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    const ok =
      ftype === 'any' ||
      (ftype === 'string' && typeof v === 'string') ||
      (ftype === 'bool' && typeof v === 'boolean') ||
      (ftype === 'object' && typeof v === 'object' && !Array.isArray(v));
    if (!ok) {
      const goType = ftype === 'object' ? 'map[string]interface {}' : ftype;
      throw badRequest(
        'bad_json',
        `Could not parse request body as JSON: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ${structName}.${field} of type ${goType}`,
      );
    }
    out[field] = v;
  }
  return out;
}

/** A string field of a decoded body ('' when absent). */
export const str = (b: Record<string, unknown>, k: string): string => (typeof b[k] === 'string' ? (b[k] as string) : '');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * GoTrue's redirect allow-list check, locally: the site URL's origin and any http(s) URL on
 * 127.0.0.1/localhost are allowed.
 */
export function isRedirectAllowed(settings: AuthSettings, url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    if (LOCAL_HOSTS.has(u.hostname)) return true;
    return u.origin === new URL(settings.siteUrl).origin;
  } catch {
    return false;
  }
}

/** The redirect target: `candidate` when allowed, else the site URL (GoTrue's GetReferrer). */
export function referrer(settings: AuthSettings, candidate: string | null | undefined): string {
  return candidate && isRedirectAllowed(settings, candidate) ? candidate : settings.siteUrl;
}

/** Verifies the bearer JWT; GoTrue's 401 no_authorization / 403 bad_jwt. */
export async function requireJwt(ctx: Ctx): Promise<JwtClaims> {
  const token = bearerToken(ctx.req);
  if (!token) throw new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return await verifyJwt(token, ctx.deps.settings.jwtSecret);
  } catch (err) {
    const reason =
      err instanceof JwtError && err.code === 'expired'
        ? 'token has invalid claims: token is expired'
        : 'token signature is invalid: signature is invalid';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID string. */
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID.test(s);

export interface Authenticated {
  claims: JwtClaims;
  user: UserRow;
  sessionId: string | null;
}

/**
 * GoTrue's requireAuthentication: a valid user JWT whose `sub` names an existing user and
 * whose `session_id` (if any) names an existing session.
 * Errors: 401 no_authorization, 403 bad_jwt, 400 bad_jwt (sub not a UUID), 403 user_not_found,
 * 403 session_not_found.
 */
export async function requireAuthentication(ctx: Ctx): Promise<Authenticated> {
  const claims = await requireJwt(ctx);
  const sub = claims.sub;
  if (!sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.deps.pool, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sid = claims.session_id;
  let sessionId: string | null = null;
  if (sid !== undefined && sid !== null && sid !== '') {
    if (!isUuid(sid)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const session = await findSession(ctx.deps.pool, sid);
    if (!session || session.user_id !== user.id) {
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    sessionId = session.id;
  }
  // GoTrue rejects banned users who still hold an access token issued before the ban.
  if (user.banned_until && user.banned_until.getTime() > ctx.now.getTime()) throw forbidden('user_banned', 'User is banned');
  return { claims, user, sessionId };
}

/** GoTrue's requireAdmin: a JWT with role service_role or supabase_admin, else 403 not_admin. */
export async function requireAdmin(ctx: Ctx): Promise<JwtClaims> {
  const claims = await requireJwt(ctx);
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
    throw forbidden('not_admin', 'User not allowed');
  }
  return claims;
}

/**
 * Applies a per-client-IP budget (see settings.rateLimits) keyed as GoTrue keys it
 * (`ctx.rateLimitKey`; no key, no limit: supabase/auth `internal/api/middleware.go`
 * performRateLimiting); loopback keys get the budget times `loopbackFactor`. Throws 429
 * over_request_rate_limit when used up.
 */
export function rateLimit(ctx: Ctx, bucket: 'signInSignUps' | 'tokenRefresh' | 'tokenVerifications'): void {
  const key = ctx.rateLimitKey;
  if (key === null) return;
  const rl = ctx.deps.settings.rateLimits;
  const loopback = /^(127\.|::1$|::ffff:127\.)/.test(key);
  const limit = rl[bucket] * (loopback ? rl.loopbackFactor : 1);
  if (!ctx.deps.limiter.hit(`${bucket}:${key}`, limit)) {
    throw new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached');
  }
}
