/**
 * `confirm-email` (public, verify_jwt = false; issue 6 "Confirmation", spec §5, page
 * /confirm-email?token).
 *
 * POST `{ token }` (or GET `?token=`) → verifies the signed confirm token (HMAC, valid
 * TOKEN_TTL_SECONDS, default 5 min), then `confirm_user_email`: auth e-mail confirmed,
 * profiles.authenticated = 1 and (database trigger) welcome_email queued in the user's language;
 * the queue is processed right away in the background.
 * → 200 `{ confirmed: true, already_confirmed: boolean }` (a second click is harmless).
 * Errors: 400 `token_expired` 'This link has expired or is invalid' for an expired, forged,
 * undecodable or wrong-purpose token or a deleted user (spec §5: undecodable counts as expired);
 * 400 `validation_failed`; 405; 500 `internal_error`.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { verifyToken } from '../_shared/tokens.ts';
import { findProfileById } from '../_shared/users.ts';
import { background, type AccountDeps } from '../_shared/account-deps.ts';

const Body = z.object({ token: z.string().min(1).max(2048) });

/** The answer for every refused token (spec §5). */
export const TOKEN_EXPIRED = new HttpError(400, 'token_expired', 'This link has expired or is invalid');

/** Builds the request handler of `confirm-email` over its dependencies. */
export function createConfirmEmailHandler(deps: AccountDeps): (req: Request) => Promise<Response> {
  return withErrors('confirm-email', async (req) => {
    let token: string;
    if (req.method === 'GET') token = new URL(req.url).searchParams.get('token') ?? '';
    else if (req.method === 'POST') token = (await readBody(req, Body)).token;
    else throw new HttpError(405, 'method_not_allowed', 'Use POST');

    const verified = await verifyToken(token, 'confirm', { secret: deps.tokenSecret, now: deps.now(), ttlSeconds: deps.tokenTtlSeconds });
    if (!verified.ok) throw TOKEN_EXPIRED;
    const userId = verified.payload.sub;
    const profile = await findProfileById(deps.admin, userId);
    if (!profile) throw TOKEN_EXPIRED;

    const { data, error } = await deps.admin.rpc('confirm_user_email', { p_user_id: userId });
    if (error) throw new Error(`confirm_user_email: ${error.message}`);
    const newlyConfirmed = data === true;
    if (newlyConfirmed) background(deps.kickQueue());
    return json({ confirmed: true, already_confirmed: !newlyConfirmed });
  });
}
