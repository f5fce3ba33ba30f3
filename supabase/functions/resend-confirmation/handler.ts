/**
 * `resend-confirmation` (public, verify_jwt = false; issue 6: "/confirm lets a user ask for a
 * new link").
 *
 * POST `{ email }` → when an unconfirmed account has this address, a new confirm_email (fresh
 * token, the user's language, link `${SITE_URL}[/de]/confirm-email?token=…`) is queued and sent;
 * at most one per user per RESEND_THROTTLE_SECONDS (60 s).
 * → always 200 `{ ok: true }` whether or not the address exists or is confirmed (no account
 *   enumeration). Errors: 400 `validation_failed` (not an e-mail address), 405, 500.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { emailSchema, localizedUrl } from '../_shared/accounts.ts';
import { signToken } from '../_shared/tokens.ts';
import { findProfileByEmail } from '../_shared/users.ts';
import { enqueueEmail } from '../_shared/email/enqueue.ts';
import { queuedRecently } from '../_shared/email/throttle.ts';
import { background, type AccountDeps } from '../_shared/account-deps.ts';

const Body = z.object({ email: emailSchema });
/** Minimum seconds between two confirmation mails to the same user. */
export const RESEND_THROTTLE_SECONDS = 60;

/** Builds the request handler of `resend-confirmation` over its dependencies. */
export function createResendConfirmationHandler(deps: AccountDeps): (req: Request) => Promise<Response> {
  return withErrors('resend-confirmation', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const { email } = await readBody(req, Body);
    const profile = await findProfileByEmail(deps.admin, email);
    if (profile && profile.authenticated === 0 && !(await queuedRecently(deps.admin, profile.id, 'confirm_email', RESEND_THROTTLE_SECONDS, deps.now()))) {
      const token = await signToken('confirm', profile.id, { secret: deps.tokenSecret, now: deps.now() });
      const lang = profile.preferred_language === 'en' ? 'en' : 'de';
      await enqueueEmail(deps.admin, {
        userId: profile.id,
        email: profile.email,
        emailType: 'confirm_email',
        lang,
        userMetadata: { firstname: profile.firstname, lastname: profile.lastname },
        payload: { link: localizedUrl(deps.siteUrl, lang, '/confirm-email', { token }) },
      });
      background(deps.kickQueue());
    }
    return json({ ok: true });
  });
}
