/**
 * GoTrue's /verify: GET (the link in the mail; answers with a 303 redirect carrying the
 * session in the URL fragment, `?code=` for PKCE, or the error) and POST (verifyOtp with
 * `token` + `email`, or `token_hash`; answers with a session).
 * Types: signup, invite, recovery, magiclink, email_change, email.
 */
import { AuthApiError, forbidden, validationFailed } from './errors.ts';
import { PKCE_PREFIX, confirmUser, issueAuthCode, updateAppMetadataProviders, validateEmail } from './flows.ts';
import { decodeBody, rateLimit, referrer, str, type Ctx } from './request.ts';
import { sendJson } from '../../http.ts';
import {
  audit,
  clearOneTimeTokens,
  findUserByEmail,
  insertIdentity,
  loadIdentities,
  mergeIdentityData,
  mergeMetadata,
  tokenHash,
  transaction,
  updateUser,
  type Queryable,
  type UserRow,
} from './store.ts';
import { isBanned, issueSession, type AccessTokenResponse, type AuthMethod } from './tokens.ts';

const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
const EMAIL_TYPES = ['signup', 'invite', 'recovery', 'magiclink', 'email_change', 'email'];

const AUTH_METHOD_BY_TYPE: Record<string, AuthMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

const matches = (stored: string | null, hash: string) => !!stored && (stored === hash || stored === PKCE_PREFIX + hash);

function expired(ctx: Ctx, sentAt: Date | null): boolean {
  if (!sentAt) return true;
  return ctx.now.getTime() > sentAt.getTime() + ctx.deps.settings.otpExpirySeconds * 1000;
}

/** GoTrue's verifyTokenHash: finds the user by the stored token hash of `type`. */
async function userByTokenHash(ctx: Ctx, db: Queryable, type: string, hash: string): Promise<{ user: UserRow; type: string }> {
  const linkError = () => forbidden('otp_expired', 'Email link is invalid or has expired');
  const bare = hash.startsWith(PKCE_PREFIX) ? hash.slice(PKCE_PREFIX.length) : hash;
  const candidates = [bare, PKCE_PREFIX + bare];
  let column: string;
  switch (type) {
    case 'signup':
    case 'invite':
      column = 'confirmation_token = any($1)';
      break;
    case 'recovery':
    case 'magiclink':
      column = 'recovery_token = any($1)';
      break;
    case 'email_change':
      column = '(email_change_token_current = any($1) or email_change_token_new = any($1))';
      break;
    case 'email':
      column = '(confirmation_token = any($1) or recovery_token = any($1))';
      break;
    default:
      throw validationFailed('Invalid email verification type');
  }
  const r = await db.query<UserRow>(`select * from auth.users where ${column} limit 1 for update`, [candidates]);
  const user = r.rows[0];
  if (!user) throw linkError();
  if (isBanned(user, ctx.now)) throw forbidden('user_banned', 'User is banned');
  let effective = type;
  let sentAt: Date | null;
  if (type === 'email') {
    if (matches(user.recovery_token, bare)) {
      effective = 'magiclink';
      sentAt = user.recovery_sent_at;
    } else {
      effective = 'signup';
      sentAt = user.confirmation_sent_at;
    }
  } else if (type === 'signup' || type === 'invite') sentAt = user.confirmation_sent_at;
  else if (type === 'recovery' || type === 'magiclink') sentAt = user.recovery_sent_at;
  else sentAt = user.email_change_sent_at;
  if (expired(ctx, sentAt)) throw linkError();
  return { user, type: effective };
}

/** GoTrue's verifyUserAndToken: e-mail + OTP. */
async function userByEmailOtp(ctx: Ctx, db: Queryable, type: string, email: string, otp: string): Promise<{ user: UserRow; type: string }> {
  const invalid = () => forbidden('otp_expired', 'Token has expired or is invalid');
  const hash = tokenHash(email, otp);
  let user: UserRow | undefined;
  if (type === 'email_change') {
    const r = await db.query<UserRow>(
      `select * from auth.users where (lower(email) = $1 or lower(email_change) = $1) and is_sso_user = false limit 1 for update`,
      [email],
    );
    user = r.rows[0];
  } else {
    user = (await findUserByEmail(db, email, true)) ?? undefined;
  }
  if (!user) throw invalid();
  if (isBanned(user, ctx.now)) throw forbidden('user_banned', 'User is banned');
  const valid = (stored: string | null, sentAt: Date | null) => matches(stored, hash) && !expired(ctx, sentAt);
  let effective = type;
  let ok = false;
  switch (type) {
    case 'email':
      if (valid(user.confirmation_token, user.confirmation_sent_at)) {
        ok = true;
        effective = 'signup';
      } else if (valid(user.recovery_token, user.recovery_sent_at)) {
        ok = true;
        effective = 'magiclink';
      }
      break;
    case 'signup':
    case 'invite':
      ok = valid(user.confirmation_token, user.confirmation_sent_at);
      break;
    case 'recovery':
    case 'magiclink':
      ok = valid(user.recovery_token, user.recovery_sent_at);
      break;
    case 'email_change':
      ok = valid(user.email_change_token_current, user.email_change_sent_at) || valid(user.email_change_token_new, user.email_change_sent_at);
      break;
  }
  if (!ok) throw invalid();
  return { user, type: effective };
}

/** GoTrue's recoverVerify: clears the recovery token; confirms unconfirmed users. */
async function recoverVerify(ctx: Ctx, db: Queryable, user: UserRow): Promise<UserRow> {
  let u = await updateUser(db, user.id, { recovery_token: '', recovery_sent_at: null }, ctx.now);
  await clearOneTimeTokens(db, user.id, ['recovery_token']);
  if (!u.email_confirmed_at) {
    await audit(db, u, 'user_signedup', ctx.ip, { provider: 'email' }, ctx.now);
    u = await confirmUser(db, u, ctx.now);
  } else {
    await audit(db, u, 'login', ctx.ip, {}, ctx.now);
  }
  return u;
}

/**
 * GoTrue's emailChangeVerify. With secure e-mail change and no confirmation yet, the first
 * confirmed token only flips email_change_confirm_status to 1 and returns null (the
 * "Confirmation link accepted…" answer); otherwise the address is switched.
 */
async function emailChangeVerify(ctx: Ctx, db: Queryable, user: UserRow, hash: string): Promise<UserRow | null> {
  const s = ctx.deps.settings;
  if (s.enableConfirmations && s.secureEmailChange && (user.email_change_confirm_status ?? 0) === 0 && (user.email ?? '') !== '') {
    const fields: Record<string, unknown> = { email_change_confirm_status: 1 };
    if (matches(user.email_change_token_current, hash)) {
      fields.email_change_token_current = '';
      await clearOneTimeTokens(db, user.id, ['email_change_token_current']);
    } else if (matches(user.email_change_token_new, hash)) {
      fields.email_change_token_new = '';
      await clearOneTimeTokens(db, user.id, ['email_change_token_new']);
    }
    await updateUser(db, user.id, fields, ctx.now);
    return null;
  }
  const newEmail = (user.email_change ?? '').toLowerCase();
  await audit(db, user, 'user_modified', ctx.ip, {}, ctx.now);
  const identities = await loadIdentities(db, user.id);
  const emailIdentity = identities.find((i) => i.provider === 'email');
  if (emailIdentity) await mergeIdentityData(db, emailIdentity.id, { email: newEmail, email_verified: true }, ctx.now);
  else await insertIdentity(db, user.id, 'email', user.id, { sub: user.id, email: newEmail, email_verified: true }, ctx.now);
  // GoTrue's ConfirmEmailChange: the address first, then (if never confirmed) Confirm, as two
  // updates, so triggers on auth.users see the new address when email_confirmed_at is set.
  let updated = await updateUser(
    db,
    user.id,
    {
      email: newEmail,
      email_change: '',
      email_change_token_current: '',
      email_change_token_new: '',
      email_change_sent_at: null,
      email_change_confirm_status: 0,
      is_anonymous: false,
      raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, { email: newEmail }),
    },
    ctx.now,
  );
  await clearOneTimeTokens(db, user.id, ['email_change_token_current', 'email_change_token_new']);
  if (!updated.email_confirmed_at) updated = await confirmUser(db, updated, ctx.now);
  return updated;
}

/** Runs the type-specific step; returns the user, or null for a first e-mail-change confirmation. */
async function applyVerification(ctx: Ctx, db: Queryable, user: UserRow, type: string, hash: string): Promise<UserRow | null> {
  switch (type) {
    case 'signup':
    case 'invite': {
      await audit(db, user, 'user_signedup', ctx.ip, { provider: 'email' }, ctx.now);
      return confirmUser(db, user, ctx.now);
    }
    case 'recovery':
    case 'magiclink':
      return recoverVerify(ctx, db, user);
    case 'email_change':
      return emailChangeVerify(ctx, db, user, hash);
    default:
      throw validationFailed('Unsupported verification type');
  }
}

function errorRedirect(base: string, err: AuthApiError, pkce: boolean): string {
  const u = new URL(base);
  const oauthError: Record<number, string> = { 400: 'invalid_request', 401: 'unauthorized_client', 403: 'access_denied', 500: 'server_error', 503: 'temporarily_unavailable' };
  const hq = new URLSearchParams();
  const errName = oauthError[err.status];
  if (errName) hq.set('error', errName);
  hq.set('error_code', err.errorCode);
  hq.set('error_description', err.message);
  if (pkce) {
    if (errName) u.searchParams.set('error', errName);
    u.searchParams.set('error_code', err.errorCode);
    u.searchParams.set('error_description', err.message);
  }
  hq.set('sb', '');
  u.searchParams.sort();
  u.hash = hq.toString();
  return u.toString();
}

function redirect(ctx: Ctx, location: string, status = 303): void {
  ctx.res.writeHead(status, { location, 'content-length': '0' });
  ctx.res.end();
}

/**
 * Appends the session to a redirect URL's fragment, as GoTrue's AsRedirectURL
 * (access_token, token_type, expires_in, expires_at, refresh_token, extra params, sb).
 */
export function sessionRedirect(base: string, t: AccessTokenResponse, extra: Record<string, string>): string {
  const q = new URLSearchParams(extra);
  q.set('access_token', t.access_token);
  q.set('token_type', t.token_type);
  q.set('expires_in', String(t.expires_in));
  q.set('expires_at', String(t.expires_at));
  q.set('refresh_token', t.refresh_token);
  if (t.provider_token) q.set('provider_token', t.provider_token);
  if (t.provider_refresh_token) q.set('provider_refresh_token', t.provider_refresh_token);
  q.set('sb', '');
  // Go's url.Values.Encode sorts by key; keep GoTrue's exact fragment.
  q.sort();
  return `${base}#${q.toString()}`;
}

/** GET /verify?token=…&type=…&redirect_to=… */
export async function verifyGet(ctx: Ctx): Promise<void> {
  rateLimit(ctx, 'tokenVerifications');
  const token = ctx.query.get('token') ?? '';
  const type = ctx.query.get('type') ?? '';
  const redirectTo = referrer(ctx.deps.settings, ctx.query.get('redirect_to'));
  if (type === '') throw validationFailed('Verify requires a verification type');
  if (token === '') throw validationFailed('Verify requires a token or a token hash');
  const pkce = token.startsWith(PKCE_PREFIX);
  let location: string;
  try {
    location = await transaction(ctx.deps.pool, async (db) => {
      if (!EMAIL_TYPES.includes(type) || type === 'email') throw validationFailed('Unsupported verification type');
      const found = await userByTokenHash(ctx, db, type, token);
      let user = await applyVerification(ctx, db, found.user, found.type, token.startsWith(PKCE_PREFIX) ? token.slice(PKCE_PREFIX.length) : token);
      if (!user) {
        const u = new URL(redirectTo);
        if (pkce) u.searchParams.set('message', SINGLE_CONFIRMATION);
        u.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: '' }).toString();
        return u.toString();
      }
      user = await updateAppMetadataProviders(db, user, ctx.now);
      if (pkce) {
        const code = await issueAuthCode(db, user.id, AUTH_METHOD_BY_TYPE[found.type] ?? found.type, ctx.now).catch((err: unknown) => {
          if (err instanceof AuthApiError) throw new AuthApiError(400, 'flow_state_not_found', `No associated flow state found. ${err.message}`);
          throw err;
        });
        const u = new URL(redirectTo);
        u.searchParams.set('code', code);
        return u.toString();
      }
      const session = await issueSession(db, ctx.deps.settings, user, 'otp', ctx);
      return sessionRedirect(redirectTo, session, { type: found.type });
    });
  } catch (err) {
    if (err instanceof AuthApiError) {
      redirect(ctx, errorRedirect(redirectTo, err, pkce));
      return;
    }
    throw err;
  }
  redirect(ctx, location);
}

/** POST /verify {type, token, email} | {type, token_hash} */
export async function verifyPost(ctx: Ctx): Promise<void> {
  rateLimit(ctx, 'tokenVerifications');
  const body = await decodeBody(ctx, 'VerifyParams', {
    type: 'string',
    token: 'string',
    token_hash: 'string',
    email: 'string',
    phone: 'string',
    redirect_to: 'string',
    gotrue_meta_security: 'any',
    options: 'any',
  });
  const type = str(body, 'type');
  const token = str(body, 'token');
  const hashParam = str(body, 'token_hash');
  let email = str(body, 'email');
  const phone = str(body, 'phone');
  if (type === '') throw validationFailed('Verify requires a verification type');
  if ((token === '') === (hashParam === '')) throw validationFailed('Verify requires either a token or a token hash');
  if (token !== '') {
    if (phone !== '' && email === '') throw new AuthApiError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    if (!(email !== '' && phone === '')) throw validationFailed('Only an email address or phone number should be provided on verify');
    try {
      email = validateEmail(email);
    } catch {
      throw new AuthApiError(422, 'validation_failed', 'Invalid email format');
    }
  } else if (email !== '' || phone !== '' || str(body, 'redirect_to') !== '') {
    throw validationFailed('Only the token_hash and type should be provided');
  }
  if (type === 'sms' || type === 'phone_change') throw new AuthApiError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  if (!EMAIL_TYPES.includes(type)) throw validationFailed('Invalid email verification type');

  const outcome = await transaction(ctx.deps.pool, async (db) => {
    const found = token !== '' ? await userByEmailOtp(ctx, db, type, email, token) : await userByTokenHash(ctx, db, type, hashParam);
    const hash = token !== '' ? tokenHash(email, token) : hashParam.replace(/^pkce_/, '');
    let user = await applyVerification(ctx, db, found.user, found.type, hash);
    if (!user) return null;
    user = await updateAppMetadataProviders(db, user, ctx.now);
    return issueSession(db, ctx.deps.settings, user, 'otp', ctx);
  });
  if (!outcome) {
    sendJson(ctx.res, 200, { msg: SINGLE_CONFIRMATION, code: '200' });
    return;
  }
  sendJson(ctx.res, 200, outcome);
}
