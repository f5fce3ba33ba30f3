/**
 * `request-password-reset` (public, verify_jwt = false; issue 6 "Password reset", spec §7
 * "password recovery (email, code challenge, captcha token)", page /password-reset).
 *
 * POST `{ email, code_challenge, code_challenge_method?: 'S256', captcha_token? }`
 * - `code_challenge`: PKCE S256 challenge made by the SPA (base64url(sha256(code_verifier)),
 *   43 characters); the SPA keeps the verifier (e.g. localStorage) for /password-update.
 * - `captcha_token`: Turnstile/hCaptcha response; checked when CAPTCHA_PROVIDER and
 *   CAPTCHA_SECRET are set (off locally).
 * → always 200 `{ ok: true }` whether or not the address exists (no account enumeration). For
 *   an existing, not suspended account a password_reset mail (the user's language) with
 *   `${SITE_URL}[/de]/password-update?token=…` is queued and sent; the token (valid
 *   TOKEN_TTL_SECONDS, default 5 min) binds the user and the code challenge. At most one mail
 *   per user per 60 s.
 * Errors: 400 `captcha_failed` 'Captcha verification failed'; 400 `validation_failed`
 * (bad e-mail, challenge not 43 base64url characters, method other than S256); 405; 500.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { emailSchema, localizedUrl } from '../_shared/accounts.ts';
import { clientAddress } from '../_shared/client-ip.ts';
import { CODE_CHALLENGE_RE, signToken } from '../_shared/tokens.ts';
import { findProfileByEmail, isSuspended } from '../_shared/users.ts';
import { enqueueEmail } from '../_shared/email/enqueue.ts';
import { queuedRecently } from '../_shared/email/throttle.ts';
import { background, type AccountDeps } from '../_shared/account-deps.ts';

const Body = z.object({
  email: emailSchema,
  code_challenge: z.string().regex(CODE_CHALLENGE_RE, 'must be a base64url S256 challenge (43 characters)'),
  code_challenge_method: z.enum(['S256', 's256']).optional(),
  captcha_token: z.string().max(4096).optional(),
});
/** Minimum seconds between two reset mails to the same user. */
export const RESET_THROTTLE_SECONDS = 60;

/** Builds the request handler of `request-password-reset` over its dependencies. */
export function createRequestPasswordResetHandler(deps: AccountDeps): (req: Request) => Promise<Response> {
  return withErrors('request-password-reset', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const body = await readBody(req, Body);
    if (!(await deps.captcha(body.captcha_token, clientAddress(req.headers)))) {
      throw new HttpError(400, 'captcha_failed', 'Captcha verification failed');
    }
    const profile = await findProfileByEmail(deps.admin, body.email);
    if (
      profile &&
      !(await isSuspended(deps.admin, profile.id)) &&
      !(await queuedRecently(deps.admin, profile.id, 'password_reset', RESET_THROTTLE_SECONDS, deps.now()))
    ) {
      const token = await signToken('reset', profile.id, { secret: deps.tokenSecret, now: deps.now(), codeChallenge: body.code_challenge });
      const lang = profile.preferred_language === 'en' ? 'en' : 'de';
      await enqueueEmail(deps.admin, {
        userId: profile.id,
        email: profile.email,
        emailType: 'password_reset',
        lang,
        userMetadata: { firstname: profile.firstname, lastname: profile.lastname },
        payload: { link: localizedUrl(deps.siteUrl, lang, '/password-update', { token }) },
      });
      background(deps.kickQueue());
    }
    return json({ ok: true });
  });
}
