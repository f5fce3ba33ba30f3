/**
 * Account rules shared by register, complete-password-reset and update-user: password strength,
 * e-mail normalisation, locale-prefixed links, captcha verification.
 */
import { z } from 'zod';
import { HttpError } from './http.ts';
import { env } from './env.ts';
import { passwordProblems } from './site/index.ts';

export { PASSWORD_RULES, type PasswordRule, passwordProblems } from './site/index.ts';

/**
 * Throws HttpError 400 `weak_password` naming the first failing rule in the message and all of
 * them in `rules` (via the message, e.g. "Password must contain a digit"). No-op when strong.
 */
export function assertStrongPassword(password: string): void {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new HttpError(400, 'weak_password', problems.map((p) => p.message).join('; '));
  }
}

/** An e-mail address, trimmed and lower-cased (GoTrue stores addresses lower-case). */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .pipe(z.email({ message: 'Invalid email address' }));

/** Locales of the product (spec §9): en (no prefix), de (prefix /de); e-mails default to de. */
export { type Locale, localizedUrl } from './site/index.ts';

/** Verifies a captcha response token; the answer is whether it is valid. */
export type CaptchaVerifier = (token: string | undefined, remoteIp: string | null) => Promise<boolean>;

const CAPTCHA_ENDPOINTS: Record<string, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
};

/**
 * The captcha check of /password-reset (issue 6): CAPTCHA_PROVIDER turnstile|hcaptcha plus
 * CAPTCHA_SECRET enable it (CAPTCHA_VERIFY_URL overrides the endpoint, for tests); unset means
 * off (local default) and every request passes. Both providers take a form-encoded
 * `secret`, `response`, `remoteip` and answer `{ success: boolean }`. A network error counts as
 * a failed check (fail closed).
 */
export function captchaVerifierFromEnv(fetchImpl: typeof fetch = fetch): CaptchaVerifier {
  const provider = env('CAPTCHA_PROVIDER').toLowerCase();
  const secret = env('CAPTCHA_SECRET');
  if (!provider || provider === 'off' || provider === 'none') return () => Promise.resolve(true);
  const url = env('CAPTCHA_VERIFY_URL', CAPTCHA_ENDPOINTS[provider] ?? '');
  if (!url || !secret) throw new Error(`captcha provider "${provider}" needs CAPTCHA_SECRET (and a known provider)`);
  return async (token, remoteIp) => {
    if (!token) return false;
    const form = new URLSearchParams({ secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    try {
      const res = await fetchImpl(url, { method: 'POST', body: form, signal: AbortSignal.timeout(5000) });
      if (!res.ok) return false;
      const body = (await res.json()) as { success?: unknown };
      return body.success === true;
    } catch {
      return false;
    }
  };
}

