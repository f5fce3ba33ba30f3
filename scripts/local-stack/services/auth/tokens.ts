/**
 * Sessions, refresh tokens and access tokens (GoTrue's tokens service and models/sessions,
 * models/refresh_token): a session per sign-in, a chain of refresh tokens per session
 * (rotation: each use revokes the token and issues a child), HS256 access tokens with the
 * claims hosted Supabase issues.
 */
import crypto from 'node:crypto';
import { signJwt } from '../../jwt.ts';
import { OAuthStyleError, badRequest, internalError, type AuthApiError } from './errors.ts';
import { callHook } from './hooks.ts';
import type { AuthSettings } from './settings.ts';
import {
  audit,
  findUserById,
  loadIdentities,
  secureAlphanumeric,
  userJson,
  type Queryable,
  type UserRow,
} from './store.ts';

/** `amr` methods GoTrue records (models.AuthenticationMethod). */
export type AuthMethod =
  | 'password'
  | 'otp'
  | 'oauth'
  | 'email/signup'
  | 'magiclink'
  | 'recovery'
  | 'email_change'
  | 'invite'
  | 'token_refresh'
  | 'anonymous';

export interface GrantContext {
  ip: string;
  userAgent: string;
  now: Date;
}

/** GoTrue's AccessTokenResponse. */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  provider_token?: string;
  provider_refresh_token?: string;
  weak_password?: unknown;
}

interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  updated_at: Date;
  not_after: Date | null;
  aal: string | null;
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  created_at: Date;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

/** True while `banned_until` lies in the future. */
export function isBanned(u: UserRow, now: Date): boolean {
  return !!u.banned_until && u.banned_until.getTime() > now.getTime();
}

/**
 * Signs an access token for `user` in `sessionId` with the claims hosted Supabase issues:
 * iss, sub, aud, exp, iat, email, phone, app_metadata, user_metadata, role, aal, amr,
 * session_id, is_anonymous. Expiry: settings.jwtExpirySeconds (3600 s by default).
 */
export async function signAccessToken(
  settings: AuthSettings,
  user: UserRow,
  sessionId: string,
  amr: { method: string; timestamp: number }[],
  hook: (claims: Record<string, unknown>) => Promise<Record<string, unknown>> = async (c) => c,
): Promise<{ token: string; expiresAt: number }> {
  const base = {
    iss: settings.externalUrl,
    sub: user.id,
    aud: user.aud || 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  const claims = await hook(base);
  const token = await signJwt(claims, settings.jwtSecret, settings.jwtExpirySeconds);
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return { token, expiresAt: payload.exp };
}

async function amrFor(db: Queryable, sessionId: string): Promise<{ method: string; timestamp: number }[]> {
  const r = await db.query<{ authentication_method: string; updated_at: Date }>(
    'select authentication_method, updated_at from auth.mfa_amr_claims where session_id = $1 order by updated_at desc',
    [sessionId],
  );
  return r.rows.map((x) => ({ method: x.authentication_method, timestamp: Math.floor(x.updated_at.getTime() / 1000) }));
}

/**
 * GoTrue's custom access token hook (Postgres function): input `{ user_id, claims,
 * authentication_method }`, output `{ claims }` (used as the token's claims) or `{ error: {
 * http_code, message } }`, which refuses the token with that status — before any session the
 * caller's transaction started is committed. Without a configured hook the claims pass unchanged.
 */
function accessTokenHook(db: Queryable, settings: AuthSettings, userId: string, method: string | undefined) {
  return async (claims: Record<string, unknown>): Promise<Record<string, unknown>> => {
    if (!settings.customAccessTokenHook) return claims;
    const out = await callHook(db, settings.customAccessTokenHook, { user_id: userId, claims, authentication_method: method ?? 'password' });
    if (!out.claims || typeof out.claims !== 'object') throw internalError('custom access token hook returned no claims');
    return out.claims as Record<string, unknown>;
  };
}

async function tokenResponse(
  db: Queryable,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<AccessTokenResponse> {
  const user = await findUserById(db, userId);
  if (!user) throw internalError('Database error finding user');
  const amr = await amrFor(db, sessionId);
  const { token, expiresAt } = await signAccessToken(settings, user, sessionId, amr, accessTokenHook(db, settings, userId, amr[0]?.method));
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: settings.jwtExpirySeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user, await loadIdentities(db, userId)),
  };
}

async function insertRefreshToken(db: Queryable, userId: string, sessionId: string, parent: string | null, now: Date): Promise<string> {
  const token = secureAlphanumeric(12);
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, $3, $3, $4, $5)`,
    [token, userId, now, parent, sessionId],
  );
  return token;
}

/**
 * Starts a session for `user` (GoTrue's IssueRefreshToken): inserts auth.sessions, the amr
 * claim and the first refresh token, updates last_sign_in_at, writes the `login` audit entry
 * is the caller's job. Returns the token response. Run inside a transaction.
 */
export async function issueSession(
  db: Queryable,
  settings: AuthSettings,
  user: UserRow,
  method: AuthMethod,
  grant: GrantContext,
): Promise<AccessTokenResponse> {
  const sessionId = crypto.randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, $3, $3, 'aal1', $4, $5)`,
    [sessionId, user.id, grant.now, grant.userAgent || null, /^[0-9a-fA-F:.]+$/.test(grant.ip) ? grant.ip : null],
  );
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, $3, $3, $4)`,
    [crypto.randomUUID(), sessionId, grant.now, method],
  );
  const refresh = await insertRefreshToken(db, user.id, sessionId, null, grant.now);
  await db.query('update auth.users set last_sign_in_at = $2 where id = $1', [user.id, grant.now]);
  await db.query('update auth.identities set last_sign_in_at = $2 where user_id = $1', [user.id, grant.now]);
  return tokenResponse(db, settings, user.id, sessionId, refresh);
}

/**
 * The refresh_token grant with rotation and reuse detection (GoTrue's RefreshTokenGrant):
 * - unknown token: 400 refresh_token_not_found;
 * - banned user: 400 user_banned; session gone: 400 session_not_found; session past
 *   `not_after` or older than `[auth.sessions] timebox`: 400 session_expired;
 * - active token: revoked and replaced by a child token;
 * - revoked token whose child is the session's active token: the child is returned again
 *   (concurrent refreshes), or a fresh child when used within the reuse interval;
 * - revoked token used after the reuse interval: the whole session family is revoked and the
 *   session closed (not_after = now), 400 refresh_token_already_used.
 * Run inside a transaction; returns `{ response }` or `{ error }` (the error case must
 * still commit, so the revocation sticks).
 */
export async function refreshTokenGrant(
  db: Queryable,
  settings: AuthSettings,
  refreshToken: unknown,
  grant: GrantContext,
): Promise<{ response?: AccessTokenResponse; error?: AuthApiError }> {
  if (typeof refreshToken !== 'string' || refreshToken === '') {
    throw new OAuthStyleError(400, 'invalid_request', 'refresh_token required');
  }
  const r = await db.query<RefreshTokenRow>('select * from auth.refresh_tokens where token = $1 for update', [refreshToken]);
  const token = r.rows[0];
  if (!token) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  const user = await findUserById(db, token.user_id);
  if (!user) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (isBanned(user, grant.now)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
  const s = token.session_id
    ? (await db.query<SessionRow>('select * from auth.sessions where id = $1 for update', [token.session_id])).rows[0]
    : undefined;
  if (!s) {
    await db.query('delete from auth.refresh_tokens where id = $1', [token.id]);
    return { error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
  }
  const timeboxEnd = settings.sessionTimeboxSeconds ? s.created_at.getTime() + settings.sessionTimeboxSeconds * 1000 : Infinity;
  if ((s.not_after && s.not_after.getTime() <= grant.now.getTime()) || grant.now.getTime() > timeboxEnd) {
    throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
  }

  let issued: string | null = null;
  if (token.revoked) {
    const active = (
      await db.query<RefreshTokenRow>(
        'select * from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1',
        [s.id],
      )
    ).rows[0];
    if (active && active.parent === token.token) {
      issued = active.token;
    } else {
      const reuseUntil = token.updated_at.getTime() + settings.refreshTokenReuseIntervalSeconds * 1000;
      if (grant.now.getTime() > reuseUntil) {
        await db.query('update auth.refresh_tokens set revoked = true, updated_at = $2 where session_id = $1 and revoked = false', [s.id, grant.now]);
        await db.query('update auth.sessions set not_after = $2, updated_at = $2 where id = $1', [s.id, grant.now]);
        await audit(db, user, 'token_revoked', grant.ip, { reason: 'refresh_token_reuse', session_id: s.id }, grant.now);
        return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
      }
    }
  }
  if (!issued) {
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1', [token.id, grant.now]);
    issued = await insertRefreshToken(db, user.id, s.id, token.token, grant.now);
  }
  await db.query('update auth.sessions set refreshed_at = $2, updated_at = $3 where id = $1', [
    s.id,
    grant.now.toISOString().replace('T', ' ').replace('Z', ''),
    grant.now,
  ]);
  await audit(db, user, 'token_refreshed', grant.ip, {}, grant.now);
  return { response: await tokenResponse(db, settings, user.id, s.id, issued) };
}

/** Deletes sessions (and so their refresh tokens): of the user, all but one, or one. */
export async function logoutSessions(db: Queryable, userId: string, scope: 'global' | 'local' | 'others', sessionId: string | null): Promise<void> {
  if (scope === 'local' && sessionId) {
    await db.query('delete from auth.sessions where id = $1', [sessionId]);
  } else if (scope === 'others' && sessionId) {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}

/** Finds a session by id, or null. */
export async function findSession(db: Queryable, id: string): Promise<{ id: string; user_id: string; not_after: Date | null; created_at: Date } | null> {
  const r = await db.query<SessionRow>('select * from auth.sessions where id = $1', [id]);
  return r.rows[0] ?? null;
}
