/**
 * `login-check` (public, verify_jwt = false): the login rules of spec §4/§5 in their order —
 * suspended, legacy old_user, e-mail unconfirmed — decided on the server, revealing an account's
 * state only to someone who knows its password (issue 12 finding 10).
 *
 * POST `{ email, password, locale?: 'en'|'de' (default en, the site default) }`
 * The function signs in with the password grant (the same Auth call the SPA would make; the
 * browser's address goes along as Sb-Forwarded-For, so Auth's per-IP limits count the browser,
 * see password-grant.ts). Auth checks the password first; its custom access token hook then refuses
 * suspended and legacy accounts (supabase/schemas/01_profiles.sql; real GoTrue answers a hook error as
 * HTTP <http_code> with code `unknown`; the account's state is then read from the database). The answers:
 * - 403 `suspended` — password correct, the account is suspended
 *   (de: 'Ihr Konto wurde gesperrt. Bitte kontaktieren Sie den Support.');
 * - 409 `password_update_required` — password correct, a legacy `old_user` (the SPA redirects to
 *   /password-reset, from where the reset mail leads to /password-update);
 * - 403 `email_not_confirmed` — password correct, address not confirmed
 *   (de: 'E-Mail ist nicht bestätigt. Prüfen Sie Ihre E-Mail.');
 * - 400 `invalid_credentials` — wrong e-mail or password, the same for unknown, suspended and
 *   legacy addresses (Auth's message, no hint which);
 * - 200 `{ status: 'ok', session: { access_token, refresh_token, expires_in, expires_at,
 *   token_type, user } }` — the SPA calls `supabase.auth.setSession(session)`. The e-mail queue is
 *   processed 2 s later (spec §4).
 * `message` in every error is in `locale`; `code` is the contract.
 * - 429 `over_request_rate_limit` — more than ATTEMPTS_PER_ACCOUNT attempts for the address from
 *   one network address in 15 minutes, or more than ATTEMPTS_PER_ACCOUNT_ALL_SOURCES from all
 *   sources in an hour (counted before the password check, known and unknown addresses alike), or
 *   Auth's per-IP limit.
 * Other errors: 400 `validation_failed`, 405, 500.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { emailSchema } from '../_shared/accounts.ts';
import { clientAddress, clientIpKey } from '../_shared/client-ip.ts';
import { findProfileByEmail, isSuspended } from '../_shared/users.ts';
import { background, type AccountBaseDeps } from '../_shared/account-deps.ts';

const Body = z.object({
  email: emailSchema,
  password: z.string().min(1).max(200),
  locale: z.enum(['en', 'de']).default('en'),
});

/** Exact user-facing texts (spec §5; English for /en pages, German under /de). */
export const LOGIN_MESSAGES = {
  suspended: { de: 'Ihr Konto wurde gesperrt. Bitte kontaktieren Sie den Support.', en: 'Your account has been suspended. Please contact support.' },
  email_not_confirmed: { de: 'E-Mail ist nicht bestätigt. Prüfen Sie Ihre E-Mail.', en: 'Email is not confirmed. Please check your email.' },
  password_update_required: { de: 'Bitte legen Sie ein neues Passwort fest.', en: 'Please set a new password.' },
  invalid_credentials: { de: 'Ungültige Anmeldedaten.', en: 'Invalid login credentials' },
  over_request_rate_limit: {
    de: 'Zu viele Anmeldeversuche für dieses Konto. Bitte versuchen Sie es in 15 Minuten erneut.',
    en: 'Too many sign-in attempts for this account. Please try again in 15 minutes.',
  },
} as const;

/**
 * Password attempts per account (e-mail address) and source (the client's network address, IPv6
 * per /64) in ATTEMPT_WINDOW_SECONDS (issue 12 finding 9, issue 29 §2). Per source, so guesses from
 * elsewhere do not lock the account holder out (issue 31 §7).
 */
export const ATTEMPTS_PER_ACCOUNT = 10;
/** The window of ATTEMPTS_PER_ACCOUNT, in seconds (15 minutes). */
export const ATTEMPT_WINDOW_SECONDS = 900;
/** The slower limit per account over all sources, in ALL_SOURCES_WINDOW_SECONDS (issue 31 §7). */
export const ATTEMPTS_PER_ACCOUNT_ALL_SOURCES = 60;
/** The window of ATTEMPTS_PER_ACCOUNT_ALL_SOURCES, in seconds (1 hour). */
export const ALL_SOURCES_WINDOW_SECONDS = 3600;

/**
 * The product's password limits (hosted Auth has none): counters in the database
 * (`rpc/enforce_public_rate_limit`, keys hashed there) counted BEFORE Auth checks the password, so
 * parallel guesses cannot overshoot: bucket `login:account_source` (address + source,
 * ATTEMPTS_PER_ACCOUNT per 15 minutes), then `login:account` (address, ATTEMPTS_PER_ACCOUNT_ALL_SOURCES
 * per hour). A proven password (a session, or a refusal Auth gives only after the password
 * matched) clears both (`rpc/clear_public_rate_limit`). Unknown addresses are counted alike (no
 * enumeration).
 */
export interface LoginAttempts {
  /** Counts an attempt for `email` from `source` (clientIpKey); false when a limit is used up. */
  hit: (email: string, source: string) => Promise<boolean>;
  /** Starts the counts of `email` (from `source` and overall) afresh. Never throws. */
  clear: (email: string, source: string) => Promise<void>;
}

/** LoginAttempts over the database (service-role client). Errors of `hit`: throws on a database error. */
export function databaseLoginAttempts(admin: AccountBaseDeps['admin']): LoginAttempts {
  const keys = (email: string, source: string) => {
    const account = email.trim().toLowerCase();
    return [
      { bucket: 'login:account_source', key: `${account}\n${source}`, limit: ATTEMPTS_PER_ACCOUNT, window: ATTEMPT_WINDOW_SECONDS },
      { bucket: 'login:account', key: account, limit: ATTEMPTS_PER_ACCOUNT_ALL_SOURCES, window: ALL_SOURCES_WINDOW_SECONDS },
    ];
  };
  return {
    async hit(email, source) {
      for (const k of keys(email, source)) {
        const res = await admin.rpc('enforce_public_rate_limit', { p_bucket: k.bucket, p_key: k.key, p_limit: k.limit, p_window_seconds: k.window });
        if (res.error?.code === 'PT429') return false;
        if (res.error) throw new Error(`enforce_public_rate_limit: ${res.error.message}`);
      }
      return true;
    },
    async clear(email, source) {
      for (const k of keys(email, source)) {
        const res = await admin.rpc('clear_public_rate_limit', { p_bucket: k.bucket, p_key: k.key });
        if (res.error) console.error(JSON.stringify({ fn: 'login-check', clear: res.error.message }));
      }
    },
  };
}

/** Session fields the SPA needs for `setSession`. */
export interface LoginSession {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at?: number;
  token_type: string;
  user: unknown;
}

/** Outcome of the password grant. */
export type PasswordSignIn =
  | { ok: true; session: LoginSession }
  | { ok: false; code: string; status: number; message: string };

/** Dependencies of login-check beyond the account ones. */
export interface LoginCheckDeps extends AccountBaseDeps {
  /**
   * The Auth password grant, as the SPA's signInWithPassword (password-grant.ts). The browser's
   * address is passed on so Auth's per-IP sign-in limit counts the browser, not this function.
   */
  signIn: (email: string, password: string, clientAddress: string | null) => Promise<PasswordSignIn>;
  /** The per-account attempt counter (databaseLoginAttempts). */
  attempts: LoginAttempts;
  /** Revokes a session created only to check the password. Never throws. */
  revoke: (accessToken: string) => Promise<void>;
  /** Milliseconds before the post-login queue run (spec §4: 2 s). */
  queueDelayMs?: number;
}

/** Builds the request handler of `login-check` over its dependencies. */
export function createLoginCheckHandler(deps: LoginCheckDeps): (req: Request) => Promise<Response> {
  return withErrors('login-check', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const { email, password, locale } = await readBody(req, Body);
    const refuse = async (status: number, code: keyof typeof LOGIN_MESSAGES, session?: LoginSession) => {
      if (session) await deps.revoke(session.access_token);
      return new HttpError(status, code, LOGIN_MESSAGES[code][locale]);
    };

    const source = clientIpKey(req.headers);
    if (!(await deps.attempts.hit(email, source))) {
      throw new HttpError(429, 'over_request_rate_limit', LOGIN_MESSAGES.over_request_rate_limit[locale]);
    }
    const signIn = await deps.signIn(email, password, clientAddress(req.headers));
    if (!signIn.ok) {
      // The password matched when Auth refuses afterwards: its custom access token hook (a hook
      // error is answered as HTTP <http_code> with code `unknown`, supabase/auth
      // internal/hooks/hookserrors + internal/api/errors.go) or an unconfirmed address. The
      // account's state may then be told, in the order of spec §4, from the database.
      const hookRefused = signIn.code === 'unknown' && signIn.status >= 400 && signIn.status < 500;
      if (hookRefused || signIn.code === 'email_not_confirmed') {
        await deps.attempts.clear(email, source);
        const profile = await findProfileByEmail(deps.admin, email);
        if (profile && (await isSuspended(deps.admin, profile.id))) throw await refuse(403, 'suspended');
        if (profile && profile.user_role === 'old_user') throw await refuse(409, 'password_update_required');
        if (signIn.code === 'email_not_confirmed') throw await refuse(403, 'email_not_confirmed');
        throw new Error(`auth refused a proven password (${signIn.status} ${signIn.message}) for an account that is neither suspended nor legacy`);
      }
      // an account banned through the Auth admin API
      if (signIn.code === 'user_banned') throw await refuse(403, 'suspended');
      if (signIn.status === 429) throw new HttpError(429, 'over_request_rate_limit', signIn.message);
      if (signIn.status >= 500) throw new Error(`auth password grant: ${signIn.status} ${signIn.message}`);
      throw await refuse(400, 'invalid_credentials');
    }
    // Defence in depth for an Auth without the access token hook: the password is proven here.
    const profile = await findProfileByEmail(deps.admin, email);
    if (profile && (await isSuspended(deps.admin, profile.id))) throw await refuse(403, 'suspended', signIn.session);
    if (profile && profile.user_role === 'old_user') throw await refuse(409, 'password_update_required', signIn.session);
    await deps.attempts.clear(email, source);
    const delay = deps.queueDelayMs ?? 2000;
    background(new Promise((resolve) => setTimeout(resolve, delay)).then(() => deps.kickQueue()));
    return json({ status: 'ok', session: signIn.session });
  });
}
