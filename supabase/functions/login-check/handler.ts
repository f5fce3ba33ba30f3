/**
 * `login-check` (public, verify_jwt = false): the login rules of spec §4/§5 in their order —
 * suspended, legacy old_user, e-mail unconfirmed — decided on the server, revealing an account's
 * state only to someone who knows its password (issue 12 finding 10).
 *
 * POST `{ email, password, locale?: 'en'|'de' (default en, the site default) }`
 * The function signs in with the password grant (the same Auth call the SPA would make; the
 * browser's address goes along as X-Forwarded-For, so Auth's per-IP and per-account limits count
 * the browser). Auth checks the password first; its custom access token hook then refuses
 * suspended (403) and legacy (409) accounts (supabase/schemas/01_profiles.sql). The answers:
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
 * Other errors: 400 `validation_failed`, 405, 429 `over_request_rate_limit` (Auth's limits), 500.
 */
import { z } from 'npm:zod@^4';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { clientIp, emailSchema } from '../_shared/accounts.ts';
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
} as const;

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
   * The Auth password grant (anon key), as the SPA's signInWithPassword. `clientIp` is passed on
   * as X-Forwarded-For so Auth's per-IP sign-in rate limit counts the browser, not this function.
   */
  signIn: (email: string, password: string, clientIp: string | null) => Promise<PasswordSignIn>;
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

    const signIn = await deps.signIn(email, password, clientIp(req));
    if (!signIn.ok) {
      // Auth's access token hook (after the password check): suspended 403, legacy old_user 409
      if (signIn.code === 'hook_rejected' && signIn.status === 403) throw await refuse(403, 'suspended');
      if (signIn.code === 'hook_rejected' && signIn.status === 409) throw await refuse(409, 'password_update_required');
      // an account banned through the Auth admin API
      if (signIn.code === 'user_banned') throw await refuse(403, 'suspended');
      if (signIn.code === 'email_not_confirmed') {
        // the password matched: the account's state may be told, in the order of spec §4
        const profile = await findProfileByEmail(deps.admin, email);
        if (profile && (await isSuspended(deps.admin, profile.id))) throw await refuse(403, 'suspended');
        if (profile && profile.user_role === 'old_user') throw await refuse(409, 'password_update_required');
        throw await refuse(403, 'email_not_confirmed');
      }
      if (signIn.status === 429) throw new HttpError(429, 'over_request_rate_limit', signIn.message);
      if (signIn.status >= 500) throw new Error(`auth password grant: ${signIn.status} ${signIn.message}`);
      throw await refuse(400, 'invalid_credentials');
    }
    // Defence in depth for an Auth without the access token hook: the password is proven here.
    const profile = await findProfileByEmail(deps.admin, email);
    if (profile && (await isSuspended(deps.admin, profile.id))) throw await refuse(403, 'suspended', signIn.session);
    if (profile && profile.user_role === 'old_user') throw await refuse(409, 'password_update_required', signIn.session);
    const delay = deps.queueDelayMs ?? 2000;
    background(new Promise((resolve) => setTimeout(resolve, delay)).then(() => deps.kickQueue()));
    return json({ status: 'ok', session: signIn.session });
  });
}
