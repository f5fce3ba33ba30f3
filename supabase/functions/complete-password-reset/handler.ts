/**
 * `complete-password-reset` (public, verify_jwt = false; issue 6, page /password-update?token).
 *
 * POST `{ token, code_verifier, password }`
 * 1. the reset token must verify (HMAC, purpose reset, age ≤ TOKEN_TTL_SECONDS) — else 400
 *    `token_expired` (spec §5: undecodable counts as expired);
 * 2. PKCE: base64url(sha256(code_verifier)) must equal the challenge bound into the token — else
 *    400 `pkce_mismatch` (the link was opened without the verifier of the browser that asked);
 * 3. the password must pass the strength rules — else 400 `weak_password`;
 * 4. the token is consumed (`consume_auth_token`, single use) — a second use: 400 `token_used`;
 * 5. the password is set through the Auth admin API; a legacy `old_user` becomes `free`
 *    (spec §4; also enforced by the password-change trigger).
 * → 200 `{ ok: true, email }`; the SPA then signs in with the new password.
 * Other errors: 400 `validation_failed`, 405, 500 `internal_error`.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { assertStrongPassword } from '../_shared/accounts.ts';
import { CODE_VERIFIER_RE, pkceChallenge, timingSafeEqual, verifyToken } from '../_shared/tokens.ts';
import { findProfileById } from '../_shared/users.ts';
import type { AccountDeps } from '../_shared/account-deps.ts';

const Body = z.object({
  token: z.string().min(1).max(2048),
  code_verifier: z.string().max(256),
  password: z.string().min(1).max(200),
});

const TOKEN_EXPIRED = () => new HttpError(400, 'token_expired', 'This link has expired or is invalid');

/** Builds the request handler of `complete-password-reset` over its dependencies. */
export function createCompletePasswordResetHandler(deps: AccountDeps): (req: Request) => Promise<Response> {
  return withErrors('complete-password-reset', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const body = await readBody(req, Body);
    const verified = await verifyToken(body.token, 'reset', { secret: deps.tokenSecret, now: deps.now(), ttlSeconds: deps.tokenTtlSeconds });
    if (!verified.ok) throw TOKEN_EXPIRED();
    const { sub: userId, cc, n: nonce, iat } = verified.payload;
    if (!cc || !CODE_VERIFIER_RE.test(body.code_verifier) || !timingSafeEqual(await pkceChallenge(body.code_verifier), cc)) {
      throw new HttpError(400, 'pkce_mismatch', 'The code verifier does not match this link; request a new link in this browser');
    }
    assertStrongPassword(body.password);
    const profile = await findProfileById(deps.admin, userId);
    if (!profile) throw TOKEN_EXPIRED();

    const { data: fresh, error: consumeError } = await deps.admin.rpc('consume_auth_token', {
      p_nonce: nonce,
      p_user_id: userId,
      p_purpose: 'reset',
      p_expires_at: new Date((iat + deps.tokenTtlSeconds) * 1000).toISOString(),
    });
    if (consumeError) throw new Error(`consume_auth_token: ${consumeError.message}`);
    if (fresh !== true) throw new HttpError(400, 'token_used', 'This link has already been used; request a new one');

    const { error } = await deps.admin.auth.admin.updateUserById(userId, { password: body.password });
    if (error) {
      const status = (error as { status?: number }).status ?? 500;
      if (status === 404) throw TOKEN_EXPIRED();
      if (status >= 400 && status < 500) throw new HttpError(400, (error as { code?: string }).code ?? 'update_failed', error.message);
      throw new Error(`updateUserById: ${error.message}`);
    }
    if (profile.user_role === 'old_user') {
      const { error: roleError } = await deps.admin.from('profiles').update({ user_role: 'free' }).eq('id', userId).eq('user_role', 'old_user');
      if (roleError) throw new Error(`old_user -> free: ${roleError.message}`);
    }
    return json({ ok: true, email: profile.email });
  });
}
