/**
 * `register` (public, verify_jwt = false; issue 6 "Registration", spec §2 /registration).
 *
 * POST `{ firstname, lastname, email, password, type: 'business'|'other', terms_accepted: true,
 *         privacy_accepted: true, locale?: 'en'|'de' (default de) }`
 * → 201 `{ email, confirmation_sent: true }`, the same for a new and a known address (issue 12
 *   finding 10: no account enumeration). New address: the auth user exists (unconfirmed), the
 *   database trigger created the profile (role free, authenticated 0), and confirm_email was
 *   queued in `locale` with the link `${SITE_URL}[/de]/confirm-email?token=…` (valid
 *   TOKEN_TTL_SECONDS, default 5 min); the queue is processed right away in the background
 *   (EdgeRuntime.waitUntil), the minute cron job being the safety net. Known address: nothing is
 *   created; the account gets `account_exists_notice` (log in or reset the password; at most one
 *   a day). Called by an admin (their access token), the answer also carries `user_id` and a
 *   known address is 409 `email_exists` (admins create users in /admin/users).
 * Admins only: `confirmed: true` creates the account with its address confirmed (issue 32 §6: an
 *   admin-created user can log in at once; authenticated = 1, no confirmation mail) and answers
 *   `confirmation_sent: false`; without it the confirmation mail is queued as for anyone. Anyone
 *   else sending `confirmed: true` gets 403 `forbidden_field` and nothing is created.
 * Limited to 20 registrations per client address and hour (429 `rate_limited`).
 * Errors (`{ error: { code, message } }`):
 * - 400 `validation_failed` / `bad_json` (fields), 400 `terms_not_accepted` (Nutzungsvereinbarung
 *   or Datenschutzhinweise not accepted), 400 `weak_password` (message names the failing rules:
 *   ≥ 8 characters, upper-case, lower-case, digit);
 * - 403 `forbidden_field` `confirmed: true` from a caller who is not an admin;
 * - 409 `email_exists` (admins only) 'A user with this email address has already been registered';
 * - 429 `rate_limited`;
 * - 405 for other methods, 500 `internal_error`.
 */
import { z } from 'zod';
import { bearer, HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { assertStrongPassword, emailSchema, localizedUrl } from '../_shared/accounts.ts';
import { clientIpKey } from '../_shared/client-ip.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { signToken } from '../_shared/tokens.ts';
import { enqueueEmail } from '../_shared/email/enqueue.ts';
import { background, type AccountDeps } from '../_shared/account-deps.ts';

const RegisterBody = z.object({
  firstname: z.string().trim().min(1).max(100),
  lastname: z.string().trim().min(1).max(100),
  email: emailSchema,
  password: z.string().min(1).max(200),
  type: z.enum(['business', 'other']),
  terms_accepted: z.boolean(),
  privacy_accepted: z.boolean(),
  locale: z.enum(['en', 'de']).default('de'),
  /** Admins only (issue 32 §6): create the account confirmed, without a confirmation mail. */
  confirmed: z.boolean().default(false),
});

/** Registrations per client address and hour (issue 12). */
export const REGISTRATIONS_PER_IP_AND_HOUR = 20;

/** True when the request carries an admin's access token. */
async function calledByAdmin(req: Request, admin: SupabaseClient): Promise<boolean> {
  const token = bearer(req);
  if (!token || token.split('.').length !== 3) return false;
  const { data } = await admin.auth.getUser(token);
  if (!data.user) return false;
  const profile = await admin.from('profiles').select('user_role').eq('id', data.user.id).maybeSingle();
  return (profile.data as { user_role?: string } | null)?.user_role === 'admin';
}

/** Builds the request handler of `register` over its dependencies. */
export function createRegisterHandler(deps: AccountDeps): (req: Request) => Promise<Response> {
  return withErrors('register', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const body = await readBody(req, RegisterBody);
    if (!body.terms_accepted || !body.privacy_accepted) {
      throw new HttpError(400, 'terms_not_accepted', 'The terms of use and the privacy notice must both be accepted');
    }
    assertStrongPassword(body.password);
    const isAdmin = await calledByAdmin(req, deps.admin);
    if (body.confirmed && !isAdmin) throw new HttpError(403, 'forbidden_field', 'Only administrators may create confirmed accounts');
    if (!isAdmin) {
      const limited = await deps.admin.rpc('enforce_public_rate_limit', {
        p_bucket: 'register:ip', p_key: clientIpKey(req.headers), p_limit: REGISTRATIONS_PER_IP_AND_HOUR, p_window_seconds: 3600,
      });
      if (limited.error?.code === 'PT429') throw new HttpError(429, 'rate_limited', 'Too many registrations from this network address; please try again later.');
      if (limited.error) throw new Error(`enforce_public_rate_limit: ${limited.error.message}`);
    }

    const acceptedAt = new Date(deps.now()).toISOString();
    const { data, error } = await deps.admin.auth.admin.createUser({
      email: body.email,
      password: body.password,
      email_confirm: body.confirmed,
      user_metadata: {
        firstname: body.firstname,
        lastname: body.lastname,
        type: body.type,
        preferred_language: body.locale,
        terms_accepted_at: acceptedAt,
        privacy_accepted_at: acceptedAt,
      },
    });
    if (error || !data.user) {
      const code = (error as { code?: string } | null)?.code;
      const message = error?.message ?? 'Registration failed';
      if (code === 'email_exists' || code === 'user_already_exists' || /already (been )?registered|already exists/i.test(message)) {
        if (isAdmin) throw new HttpError(409, 'email_exists', 'A user with this email address has already been registered');
        const notice = await deps.admin.rpc('queue_account_exists_notice', {
          p_email: body.email, p_link: localizedUrl(deps.siteUrl, body.locale, '/login'),
        });
        if (notice.error) throw new Error(`queue_account_exists_notice: ${notice.error.message}`);
        background(deps.kickQueue());
        return json({ email: body.email, confirmation_sent: true }, 201);
      }
      if (code === 'weak_password') throw new HttpError(400, 'weak_password', message);
      const status = (error as { status?: number } | null)?.status ?? 500;
      if (status >= 400 && status < 500) throw new HttpError(400, code ?? 'registration_failed', message);
      throw new Error(`createUser: ${message}`);
    }
    const user = data.user;
    if (body.confirmed) return json({ user_id: user.id, email: body.email, confirmation_sent: false }, 201);

    try {
      const token = await signToken('confirm', user.id, { secret: deps.tokenSecret, now: deps.now() });
      await enqueueEmail(deps.admin, {
        userId: user.id,
        email: body.email,
        emailType: 'confirm_email',
        lang: body.locale,
        userMetadata: { firstname: body.firstname, lastname: body.lastname },
        payload: { link: localizedUrl(deps.siteUrl, body.locale, '/confirm-email', { token }) },
      });
    } catch (err) {
      // Without a confirmation mail the account would be stuck: undo, so the user can retry.
      await deps.admin.auth.admin.deleteUser(user.id).catch(() => undefined);
      throw err;
    }
    background(deps.kickQueue());
    return json(isAdmin ? { user_id: user.id, email: body.email, confirmation_sent: true } : { email: body.email, confirmation_sent: true }, 201);
  });
}
