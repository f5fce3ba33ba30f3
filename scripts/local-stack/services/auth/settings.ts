/**
 * Settings of the local auth service (the GoTrue configuration it mirrors), read from the
 * stack config and environment variables.
 *
 * Environment knobs (all optional):
 * - `AUTH_ENABLE_CONFIRMATIONS` (default `true`): sign-ups must confirm their e-mail address via
 *   the mailed link/OTP before they get a session. `false` (or GoTrue's own
 *   `GOTRUE_MAILER_AUTOCONFIRM=true`) confirms at sign-up and returns a session right away.
 * - `AUTH_SECURE_EMAIL_CHANGE` (default `true`): an e-mail change must be confirmed from both
 *   the current and the new address (GoTrue's `MAILER_SECURE_EMAIL_CHANGE_ENABLED`).
 * - `AUTH_DISABLE_SIGNUP` (default `false`).
 * - `AUTH_ENABLE_ANONYMOUS_SIGN_INS` (default `false`, as `supabase start`).
 * - `AUTH_MIN_PASSWORD_LENGTH` (default 6, GoTrue's default).
 * - `AUTH_JWT_EXPIRY` seconds (default 3600).
 * - `AUTH_OTP_EXPIRY` seconds a mailed link/OTP stays valid (default 3600, `supabase start`'s).
 * - `AUTH_EMAIL_MAX_FREQUENCY` seconds between two mails of one kind to one address
 *   (default 1, as `supabase start`'s `[auth.email] max_frequency = "1s"`; hosted: 60).
 * - `AUTH_REFRESH_TOKEN_REUSE_INTERVAL` seconds a just-rotated refresh token may still be
 *   used (default 10, GoTrue's default).
 * - `AUTH_RATE_LIMIT_WINDOW` seconds (default 300) and per-client-IP budgets per window:
 *   `AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS` (30), `AUTH_RATE_LIMIT_TOKEN_REFRESH` (150),
 *   `AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS` (30) - `supabase start`'s `[auth.rate_limit]`.
 *   `AUTH_RATE_LIMIT_LOOPBACK_FACTOR` (default 100) multiplies the budgets for loopback
 *   clients, so a local test suite signing in hundreds of times from 127.0.0.1 is not
 *   throttled while the limits stay real (and testable with `X-Forwarded-For`).
 * - `AUTH_SMTP_SENDER` (default `Teamwerk <noreply@teamwerk.local>`): From of auth mails.
 * - `AUTH_EXTERNAL_PROVIDERS` (default `google,linkedin_oidc,github,apple,azure,facebook`):
 *   OAuth providers served by the local provider page.
 */
import type { StackConfig } from '../../config.ts';

export interface RateLimitSettings {
  windowSeconds: number;
  signInSignUps: number;
  tokenRefresh: number;
  tokenVerifications: number;
  loopbackFactor: number;
}

export interface AuthSettings {
  /** Base URL of the auth API as clients see it, e.g. `http://127.0.0.1:54321/auth/v1`. */
  externalUrl: string;
  siteUrl: string;
  jwtSecret: string;
  jwtExpirySeconds: number;
  enableConfirmations: boolean;
  secureEmailChange: boolean;
  disableSignup: boolean;
  enableAnonymousSignIns: boolean;
  minPasswordLength: number;
  otpExpirySeconds: number;
  otpLength: number;
  emailMaxFrequencySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
  flowStateExpirySeconds: number;
  rateLimits: RateLimitSettings;
  smtpSender: string;
  externalProviders: string[];
  /** Maximum accepted request body in bytes (bigger bodies get 413). */
  bodyLimitBytes: number;
}

function bool(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

function num(v: string | undefined, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/**
 * Builds the auth settings from the stack config and `env` (see the module comment for the
 * variables and their defaults). Pure: no I/O.
 */
export function authSettings(config: StackConfig, env: NodeJS.ProcessEnv = process.env): AuthSettings {
  const autoconfirm = bool(env.GOTRUE_MAILER_AUTOCONFIRM, false);
  return {
    externalUrl: `${config.apiUrl}/auth/v1`,
    siteUrl: config.siteUrl,
    jwtSecret: config.jwtSecret,
    jwtExpirySeconds: num(env.AUTH_JWT_EXPIRY, 3600),
    enableConfirmations: bool(env.AUTH_ENABLE_CONFIRMATIONS, !autoconfirm),
    secureEmailChange: bool(env.AUTH_SECURE_EMAIL_CHANGE, true),
    disableSignup: bool(env.AUTH_DISABLE_SIGNUP, false),
    enableAnonymousSignIns: bool(env.AUTH_ENABLE_ANONYMOUS_SIGN_INS, false),
    minPasswordLength: num(env.AUTH_MIN_PASSWORD_LENGTH, 6),
    otpExpirySeconds: num(env.AUTH_OTP_EXPIRY, 3600),
    otpLength: 6,
    emailMaxFrequencySeconds: num(env.AUTH_EMAIL_MAX_FREQUENCY, 1),
    refreshTokenReuseIntervalSeconds: num(env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL, 10),
    flowStateExpirySeconds: 300,
    rateLimits: {
      windowSeconds: num(env.AUTH_RATE_LIMIT_WINDOW, 300),
      signInSignUps: num(env.AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS, 30),
      tokenRefresh: num(env.AUTH_RATE_LIMIT_TOKEN_REFRESH, 150),
      tokenVerifications: num(env.AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS, 30),
      loopbackFactor: num(env.AUTH_RATE_LIMIT_LOOPBACK_FACTOR, 100),
    },
    smtpSender: env.AUTH_SMTP_SENDER ?? 'Teamwerk <noreply@teamwerk.local>',
    externalProviders: (env.AUTH_EXTERNAL_PROVIDERS ?? 'google,linkedin_oidc,github,apple,azure,facebook')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bodyLimitBytes: 256 * 1024,
  };
}
