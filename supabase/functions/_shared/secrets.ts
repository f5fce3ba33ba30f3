/**
 * The project's secrets of the Edge Functions and the one check every function runs before it
 * acts (issue 12 §3, superseding spec §8's "dummy key used"): no secret has a default in the
 * source, not even locally (the local stack generates its own per data folder and passes them
 * in). A function whose secret is missing or shorter than its minimum answers
 * 500 `{ error: { code: 'server_misconfigured', message } }` in every environment, before it
 * reads the body, calls Stripe, sends mail or writes anything, and logs a critical line naming
 * the variable.
 *
 * Minimum lengths (characters): TOKEN_SECRET 32 (HMAC key of the confirm/reset tokens),
 * STRIPE_SECRET_KEY 24, STRIPE_WEBHOOK_SECRET 32, RESEND_API_KEY 20 (real Stripe/Resend values
 * are longer; anything shorter is a placeholder).
 */
import { HttpError, errorResponse, preflight } from './http.ts';

/** Minimum length of each secret (see the module comment). */
export const SECRET_MIN_LENGTH = {
  TOKEN_SECRET: 32,
  STRIPE_SECRET_KEY: 24,
  STRIPE_WEBHOOK_SECRET: 32,
  RESEND_API_KEY: 20,
} as const;

/** The names of the project's secrets. */
export type SecretName = keyof typeof SECRET_MIN_LENGTH;

/** The error a function answers when a secret is missing: 500 `server_misconfigured`. */
export class MisconfiguredError extends HttpError {
  constructor(public readonly secret: string) {
    super(500, 'server_misconfigured', `The server is not configured for this request (${secret} is missing). Please contact support.`);
  }
}

/**
 * The value of the secret `name` (environment variable) when it is set and at least `minLength`
 * characters long (default: SECRET_MIN_LENGTH). Errors: throws MisconfiguredError (500
 * `server_misconfigured`) otherwise, after logging a critical line.
 */
export function requireSecret(name: SecretName, minLength: number = SECRET_MIN_LENGTH[name]): string {
  const value = Deno.env.get(name) ?? '';
  if (value.length >= minLength) return value;
  console.error(JSON.stringify({
    level: 'critical',
    message: `${name} is ${value ? `shorter than ${minLength} characters` : 'not set'}; requests that need it answer 500 server_misconfigured`,
  }));
  throw new MisconfiguredError(name);
}

type Handler = (req: Request) => Response | Promise<Response>;

/**
 * Serves the handler `build()` makes only while every secret in `names` passes `requireSecret`:
 * otherwise each request (except a CORS preflight) gets 500 `server_misconfigured` and the
 * handler is neither built nor called, so nothing acts. `build` runs once, on the first request
 * with all secrets present (so a function module never fails to boot for a missing secret).
 */
export function withSecrets(names: SecretName[], build: () => Handler): Handler {
  let handler: Handler | null = null;
  return (req) => {
    const pre = preflight(req);
    if (pre) return pre;
    try {
      for (const name of names) requireSecret(name);
    } catch (err) {
      if (err instanceof MisconfiguredError) return errorResponse(err.status, err.code, err.message);
      throw err;
    }
    handler ??= build();
    return handler(req);
  };
}
