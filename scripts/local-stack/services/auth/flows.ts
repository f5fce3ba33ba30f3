/**
 * Shared steps of GoTrue's e-mail flows: password checks, creating e-mail users, sending the
 * confirmation / recovery / magic-link / e-mail-change / invite mails (tokens stored as
 * GoTrue does: the token hash in the auth.users column, prefixed `pkce_` for PKCE flows, and
 * in auth.one_time_tokens), PKCE flow states, and confirming.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { AuthApiError, tooManyRequests, unprocessable, validationFailed } from './errors.ts';
import { callHook } from './hooks.ts';
import { actionLink, sendAuthMail, type MailKind } from './mail.ts';
import type { AuthDeps } from './request.ts';
import type { AuthSettings } from './settings.ts';
import {
  clearOneTimeTokens,
  generateOtp,
  insertIdentity,
  insertUser,
  loadIdentities,
  mergeIdentityData,
  mergeMetadata,
  saveOneTimeToken,
  tokenHash,
  updateUser,
  userJson,
  type Queryable,
  type UserRow,
} from './store.ts';

/** bcrypt limit GoTrue enforces (MaxPasswordLength). */
export const MAX_PASSWORD_LENGTH = 72;

/** GoTrue's PKCE prefix on stored/linked token hashes. */
export const PKCE_PREFIX = 'pkce_';

/**
 * The weaknesses of `password` under the settings, as GoTrue's checkPasswordStrength reports them
 * (supabase/auth `internal/api/password.go`): `length` below the minimum, `characters` when one of
 * the required character sets (`[auth] password_requirements`) is missing; null when strong.
 */
export function passwordWeakness(settings: AuthSettings, password: string): { message: string; reasons: string[] } | null {
  const reasons: string[] = [];
  const messages: string[] = [];
  if (password.length < settings.minPasswordLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${settings.minPasswordLength} characters.`);
  }
  const sets = settings.passwordRequiredCharacters;
  if (sets.some((set) => set !== '' && ![...password].some((c) => set.includes(c)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  return reasons.length ? { message: messages.join(' '), reasons } : null;
}

/**
 * GoTrue's checkPasswordStrength: longer than 72 bytes is 400 validation_failed; too short or
 * without a required character set is 422 weak_password with `weak_password.reasons`.
 */
export function checkPasswordStrength(deps: AuthDeps, password: string): void {
  if (Buffer.byteLength(password) > MAX_PASSWORD_LENGTH) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  }
  const weak = passwordWeakness(deps.settings, password);
  if (weak) throw new AuthApiError(422, 'weak_password', weak.message, { weak_password: { reasons: weak.reasons } });
}

/**
 * bcrypt hash (cost 10, GoTrue's default; `$2a$` like Go's bcrypt). Computed by pgcrypto's
 * `crypt()` in a Postgres backend, so the work runs in parallel and off the daemon's event
 * loop; bcryptjs when that fails (e.g. pgcrypto missing, NUL bytes in the password).
 */
export async function hashPassword(db: Queryable, password: string): Promise<string> {
  try {
    const r = await db.query<{ h: string }>("select extensions.crypt($1, extensions.gen_salt('bf', 10)) as h", [password]);
    if (r.rows[0]?.h?.startsWith('$2a$')) return r.rows[0].h;
  } catch {
    // fall through to bcryptjs
  }
  return bcrypt.hash(password, 10);
}

/**
 * Compares a password with a stored bcrypt hash (`$2a$`, `$2b$`, `$2y$`; identical for
 * passwords up to 72 bytes); false for empty or non-bcrypt hashes. Uses pgcrypto like
 * hashPassword, bcryptjs as the fallback.
 */
export async function passwordMatches(db: Queryable, password: string, hash: string | null): Promise<boolean> {
  if (!hash || !/^\$2[abxy]\$\d\d\$/.test(hash)) return false;
  const normalized = `$2a$${hash.slice(4)}`;
  try {
    const r = await db.query<{ ok: boolean }>('select extensions.crypt($1, $2) = $2 as ok', [password, normalized]);
    if (typeof r.rows[0]?.ok === 'boolean') return r.rows[0].ok;
  } catch {
    // fall through to bcryptjs
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** GoTrue's validateEmail: required, ≤ 255 chars, plausible format; returns it lower-cased. */
export function validateEmail(email: string): string {
  if (email === '') throw validationFailed('An email address is required');
  if (email.length > 255) throw validationFailed('An email address is too long');
  if (!EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** GoTrue's validatePKCEParams (challenge and method both or neither; 43–128 chars). */
export function validatePkceParams(method: string, challenge: string): void {
  if ((challenge === '') !== (method === '')) {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge !== '') {
    if (challenge.length < 43 || challenge.length > 128) {
      throw validationFailed('code challenge has to be between 43 and 128 characters');
    }
    if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
      throw validationFailed('code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes');
    }
    if (!['s256', 'plain'].includes(method.toLowerCase())) {
      throw validationFailed(`code challenge method not supported: ${method}`);
    }
  }
}

/**
 * GoTrue's per-user, per-kind interval (`[auth.email] max_frequency`, GOTRUE_SMTP_MAX_FREQUENCY;
 * supabase/auth `internal/api/mail.go` validateSentWithinFrequencyLimit): 429
 * over_email_send_rate_limit when the last mail of this kind (its `*_sent_at` column) went out
 * less than the interval ago. Applied to confirmation, recovery, magic-link and e-mail-change
 * mails; GoTrue's sendInvite has no such check.
 */
export function checkSendFrequency(deps: AuthDeps, sentAt: Date | null, now: Date): void {
  const freqMs = deps.settings.emailMaxFrequencySeconds * 1000;
  if (sentAt && sentAt.getTime() + freqMs > now.getTime()) {
    const wait = Math.max(1, Math.ceil((sentAt.getTime() + freqMs - now.getTime()) / 1000));
    throw tooManyRequests('over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`);
  }
}

/**
 * GoTrue's project-wide e-mail budget, checked once per Auth mail send (supabase/auth
 * `internal/api/mail.go` sendEmail; an e-mail change with mails to both addresses is one send):
 * `[auth.rate_limit] email_sent = 0` refuses every mail; otherwise, unless mails are
 * autoconfirmed (`[auth.email] enable_confirmations = false`), one event of
 * `deps.emailLimiter` (`email_sent` per hour) is used. Errors: 429 over_email_send_rate_limit
 * "email rate limit exceeded" (GoTrue's EmailRateLimitExceeded text).
 */
export function checkEmailBudget(deps: AuthDeps, now: Date): void {
  const exceeded = () => tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded');
  if (deps.settings.rateLimits.emailSentPerHour === 0) throw exceeded();
  if (deps.settings.enableConfirmations && !deps.emailLimiter.allow(now.getTime())) throw exceeded();
}

/** Inserts a PKCE flow state (GoTrue's generateFlowState); returns its auth code. */
export async function createFlowState(
  db: Queryable,
  p: { providerType: string; authMethod: string; challenge: string; challengeMethod: string; userId: string | null; now: Date },
): Promise<{ id: string; authCode: string }> {
  const id = crypto.randomUUID();
  const authCode = crypto.randomUUID();
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
        authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, p.userId, authCode, p.challengeMethod.toLowerCase(), p.challenge, p.providerType, p.authMethod, p.now],
  );
  return { id, authCode };
}

/**
 * GoTrue's issueAuthCode: the newest flow state of the user for `authMethod` gets its
 * auth_code_issued_at stamped; returns the auth code. 422 flow_state_not_found when none.
 */
export async function issueAuthCode(db: Queryable, userId: string, authMethod: string, now: Date): Promise<string> {
  const r = await db.query<{ id: string; auth_code: string }>(
    `select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2
     order by created_at desc limit 1`,
    [userId, authMethod],
  );
  const fs = r.rows[0];
  if (!fs) throw unprocessable('flow_state_not_found', 'No valid flow state found for user.');
  await db.query('update auth.flow_state set auth_code_issued_at = $2, updated_at = $2 where id = $1', [fs.id, now]);
  return fs.auth_code;
}

/** The app_metadata GoTrue gives a new user of `provider`. */
export const providerAppMetadata = (provider: string) => ({ provider, providers: [provider] });

/**
 * Creates an e-mail user with its `email` identity, as GoTrue's signup does: user_metadata =
 * `data`; identity_data = `data` plus sub/email/email_verified/phone_verified. Returns the row.
 */
export async function createEmailUser(
  db: Queryable,
  p: {
    email: string;
    /** bcrypt hash from hashPassword (computed before the transaction), or '' for none. */
    encryptedPassword: string;
    data: Record<string, unknown>;
    appMetadata?: Record<string, unknown>;
    confirmed: boolean;
    invitedAt?: Date | null;
    now: Date;
  },
): Promise<UserRow> {
  const id = crypto.randomUUID();
  const identityData = { ...p.data, sub: id, email: p.email, email_verified: false, phone_verified: false };
  const user = await insertUser(
    db,
    {
      id,
      email: p.email,
      encryptedPassword: p.encryptedPassword,
      appMetadata: { ...providerAppMetadata('email'), ...(p.appMetadata ?? {}) },
      // GoTrue's NewUser: user_metadata is the sign-up `data` only (Confirm adds email_verified).
      userMetadata: { ...p.data },
      invitedAt: p.invitedAt ?? null,
    },
    p.now,
  );
  await insertIdentity(db, id, 'email', id, identityData, p.now);
  // Confirmed as a separate UPDATE, like GoTrue's User.Confirm, so triggers on
  // email_confirmed_at (e.g. a welcome mail) fire.
  return p.confirmed ? confirmUser(db, user, p.now) : user;
}

/**
 * GoTrue's User.Confirm (+ signupVerify's identity update): sets email_confirmed_at, clears
 * the confirmation token and all one-time tokens, marks email_verified in user_metadata and
 * (unless `options.identities` is false: User.Confirm alone, as the OAuth callback calls it) in
 * the identities whose e-mail is the user's.
 */
export async function confirmUser(db: Queryable, user: UserRow, now: Date, options: { identities?: boolean } = {}): Promise<UserRow> {
  const updated = await updateUser(
    db,
    user.id,
    {
      email_confirmed_at: user.email_confirmed_at ?? now,
      confirmation_token: '',
      raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, { email_verified: true }),
    },
    now,
  );
  await clearOneTimeTokens(db, user.id);
  if (options.identities === false) return updated;
  for (const identity of await loadIdentities(db, user.id)) {
    if (identity.email && user.email && identity.email === user.email.toLowerCase()) {
      await mergeIdentityData(db, identity.id, { email_verified: true }, now);
    }
  }
  return updated;
}

/**
 * Recomputes app_metadata from the identities, oldest first, as GoTrue's
 * User.UpdateAppMetaDataProviders (supabase/auth `internal/models/user.go`): `providers` is the
 * distinct list, `provider` its first entry. A user without identities (rows seed SQL inserted)
 * is left as is.
 */
export async function updateAppMetadataProviders(db: Queryable, user: UserRow, now: Date): Promise<UserRow> {
  const providers = [...new Set((await loadIdentities(db, user.id)).map((i) => i.provider))];
  if (providers.length === 0) return user;
  return updateUser(db, user.id, { raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, { provider: providers[0], providers }) }, now);
}

interface SendParams {
  db: Queryable;
  deps: AuthDeps;
  user: UserRow;
  redirectTo: string;
  pkce: boolean;
  now: Date;
}

function flowToken(hash: string, pkce: boolean): string {
  return pkce ? PKCE_PREFIX + hash : hash;
}

async function deliver(deps: AuthDeps, kind: MailKind, to: string, token: string, otp: string, redirectTo: string, extra: { email?: string; newEmail?: string } = {}) {
  try {
    await sendAuthMail(deps.mailer, deps.settings, {
      kind,
      to,
      otp,
      link: actionLink(deps.settings, token, kind, redirectTo),
      ...extra,
    });
  } catch (err) {
    deps.log('auth', `sending ${kind} mail failed`, err);
    throw new AuthApiError(500, 'unexpected_failure', kind === 'recovery' ? 'Error sending recovery email' : kind === 'email_change' ? 'Error sending email change email' : kind === 'magiclink' ? 'Error sending magic link email' : kind === 'invite' ? 'Error sending invite email' : 'Error sending confirmation email');
  }
}

/** The `email_data` of GoTrue's send-email hook input (supabase/auth `internal/mailer/mailer.go` EmailData). */
interface HookEmailData {
  token: string;
  token_hash: string;
  token_new: string;
  token_hash_new: string;
}

/**
 * One mail send of GoTrue's sendEmail (supabase/auth `internal/api/mail.go`), after its interval
 * and budget checks: with `[auth.hook.send_email]` configured, Auth sends nothing itself and calls
 * the hook once with `{ metadata: { name: 'send-email' }, user, email_data: { token, token_hash,
 * redirect_to, email_action_type, site_url, token_new, token_hash_new } }` (`site_url` is the
 * external Auth URL, e.g. `…/auth/v1`); a refusal fails the request with the hook's status
 * (hooks.ts callHook) and the caller's transaction rolls back. Without the hook the stack's
 * mailer delivers `mails`.
 */
async function sendMail(p: SendParams, user: UserRow, kind: MailKind, emailData: HookEmailData, mails: () => Promise<void>): Promise<void> {
  const hook = p.deps.settings.sendEmailHook;
  if (!hook) return mails();
  await callHook(p.db, hook, {
    metadata: { name: 'send-email' },
    user: userJson(user, await loadIdentities(p.db, user.id)),
    email_data: {
      ...emailData,
      redirect_to: p.redirectTo,
      email_action_type: kind,
      site_url: p.deps.settings.externalUrl,
      old_email: '',
      old_phone: '',
      provider: '',
      factor_type: '',
    },
  });
}

/**
 * GoTrue's sendConfirmation (signup mail: max_frequency on confirmation_sent_at, then the e-mail
 * budget) or sendInvite (invite mail: only the e-mail budget).
 */
export async function sendConfirmation(p: SendParams & { kind?: 'signup' | 'invite' }): Promise<UserRow> {
  const kind = p.kind ?? 'signup';
  if (kind === 'signup') checkSendFrequency(p.deps, p.user.confirmation_sent_at, p.now);
  checkEmailBudget(p.deps, p.now);
  const email = p.user.email ?? '';
  const otp = generateOtp(p.deps.settings.otpLength);
  const token = flowToken(tokenHash(email, otp), p.pkce);
  const fields: Record<string, unknown> = { confirmation_token: token, confirmation_sent_at: p.now };
  if (kind === 'invite') fields.invited_at = p.now;
  const user = await updateUser(p.db, p.user.id, fields, p.now);
  await saveOneTimeToken(p.db, user.id, 'confirmation_token', token, email);
  await sendMail(p, user, kind, { token: otp, token_hash: token, token_new: '', token_hash_new: '' }, () =>
    deliver(p.deps, kind, email, token, otp, p.redirectTo),
  );
  return user;
}

/** GoTrue's sendPasswordRecovery / sendMagicLink (both use recovery_token and recovery_sent_at's interval, then the e-mail budget). */
export async function sendRecovery(p: SendParams & { kind: 'recovery' | 'magiclink' }): Promise<UserRow> {
  checkSendFrequency(p.deps, p.user.recovery_sent_at, p.now);
  checkEmailBudget(p.deps, p.now);
  const email = p.user.email ?? '';
  const otp = generateOtp(p.deps.settings.otpLength);
  const token = flowToken(tokenHash(email, otp), p.pkce);
  const user = await updateUser(p.db, p.user.id, { recovery_token: token, recovery_sent_at: p.now }, p.now);
  await saveOneTimeToken(p.db, user.id, 'recovery_token', token, email);
  await sendMail(p, user, p.kind, { token: otp, token_hash: token, token_new: '', token_hash_new: '' }, () =>
    deliver(p.deps, p.kind, email, token, otp, p.redirectTo),
  );
  return user;
}

/**
 * GoTrue's sendEmailChange: token for the new address (and, with secure e-mail change, one
 * for the current address), email_change_confirm_status reset to 0, mails to both; the interval
 * on email_change_sent_at, then one event of the e-mail budget for both mails.
 */
export async function sendEmailChange(p: SendParams & { newEmail: string }): Promise<UserRow> {
  checkSendFrequency(p.deps, p.user.email_change_sent_at, p.now);
  checkEmailBudget(p.deps, p.now);
  const current = p.user.email ?? '';
  const otpNew = generateOtp(p.deps.settings.otpLength);
  const tokenNew = flowToken(tokenHash(p.newEmail, otpNew), p.pkce);
  let tokenCurrent = '';
  let otpCurrent = '';
  if (p.deps.settings.secureEmailChange && current !== '') {
    otpCurrent = generateOtp(p.deps.settings.otpLength);
    tokenCurrent = flowToken(tokenHash(current, otpCurrent), p.pkce);
  }
  const user = await updateUser(
    p.db,
    p.user.id,
    {
      email_change: p.newEmail,
      email_change_token_new: tokenNew,
      email_change_token_current: tokenCurrent,
      email_change_confirm_status: 0,
      email_change_sent_at: p.now,
    },
    p.now,
  );
  await saveOneTimeToken(p.db, user.id, 'email_change_token_new', tokenNew, p.newEmail);
  if (tokenCurrent) await saveOneTimeToken(p.db, user.id, 'email_change_token_current', tokenCurrent, current);
  else await clearOneTimeTokens(p.db, user.id, ['email_change_token_current']);
  // The hook's fields as GoTrue fills them, including its documented swap (mail.go sendEmail,
  // "BUG(cstockton)"): with secure change, token/token_hash_new belong to the current address and
  // token_new/token_hash to the new one; without it, token is the new address's code.
  const emailData: HookEmailData = tokenCurrent
    ? { token: otpCurrent, token_hash: tokenNew, token_new: otpNew, token_hash_new: tokenCurrent }
    : { token: otpNew, token_hash: tokenNew, token_new: '', token_hash_new: '' };
  await sendMail(p, user, 'email_change', emailData, async () => {
    await deliver(p.deps, 'email_change', p.newEmail, tokenNew, otpNew, p.redirectTo, { email: current, newEmail: p.newEmail });
    if (tokenCurrent) {
      await deliver(p.deps, 'email_change', current, tokenCurrent, otpCurrent, p.redirectTo, { email: current, newEmail: p.newEmail });
    }
  });
  return user;
}
