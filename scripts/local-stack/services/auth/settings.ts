/**
 * Settings of the local auth service (the GoTrue configuration it imitates), read from the
 * stack config and environment variables.
 *
 * Sources, in order of precedence: AUTH_* environment variables, the project's
 * `supabase/config.toml` `[auth]` section (as `supabase start` reads it), built-in defaults.
 *
 * Environment knobs (all optional; defaults shown are the built-in ones):
 * - `AUTH_ENABLE_CONFIRMATIONS` (default `true`): sign-ups must confirm their e-mail address via
 *   the mailed link/OTP before they get a session. `false` (or GoTrue's own
 *   `GOTRUE_MAILER_AUTOCONFIRM=true`) confirms at sign-up and returns a session right away.
 * - `AUTH_SECURE_EMAIL_CHANGE` (default `true`): an e-mail change must be confirmed from both
 *   the current and the new address (GoTrue's `MAILER_SECURE_EMAIL_CHANGE_ENABLED`).
 * - `AUTH_DISABLE_SIGNUP` (default `false`).
 * - `AUTH_ENABLE_ANONYMOUS_SIGN_INS` (default `false`, as `supabase start`).
 * - `AUTH_ENABLE_MANUAL_LINKING` (default `false`, as `supabase start`): linkIdentity/unlinkIdentity.
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
 * - `AUTH_RATE_LIMIT_EMAIL_SENT` (default: config.toml `[auth.rate_limit] email_sent`, else 30,
 *   GoTrue's GOTRUE_RATE_LIMIT_EMAIL_SENT default): Auth e-mails per hour, project-wide.
 * - `AUTH_SMTP_SENDER` (default `Teamwerk <noreply@teamwerk.local>`): From of auth mails.
 *
 * OAuth providers come only from config.toml `[auth.external.<name>]` (see externalProviders).
 */
import type { StackConfig } from '../../config.ts';

export interface RateLimitSettings {
  windowSeconds: number;
  signInSignUps: number;
  tokenRefresh: number;
  tokenVerifications: number;
  loopbackFactor: number;
  /**
   * E-mails Auth sends per hour, project-wide (`[auth.rate_limit] email_sent`, GoTrue's
   * GOTRUE_RATE_LIMIT_EMAIL_SENT; checked before every Auth mail, supabase/auth
   * `internal/api/mail.go` sendEmail: 429 over_email_send_rate_limit). 0 refuses every mail.
   */
  emailSentPerHour: number;
}

/**
 * One `[auth.external.<name>]` table of config.toml as GoTrue sees it (the CLI passes
 * GOTRUE_EXTERNAL_<NAME>_ENABLED / _CLIENT_ID / _SECRET, supabase/cli
 * `apps/cli-go/internal/start/start.go` appendGotrueExternalProviderEnv).
 */
export interface ExternalProviderSettings {
  /** `enabled`: only enabled providers work (GoTrue's OAuthProviderConfiguration.ValidateOAuth). */
  enabled: boolean;
  /**
   * Whether `client_id` and `secret` resolve to real values: set, and not an `env(NAME)` whose
   * variable is unset (the CLI then keeps the literal `env(NAME)` and only warns, supabase/cli
   * `apps/cli-go/pkg/config/config.go` assertEnvLoaded). Without real credentials the stack
   * serves its development sign-in page for the provider; with them it refuses, as it cannot
   * reach the real provider.
   */
  hasCredentials: boolean;
}

/**
 * Providers GoTrue knows (supabase/auth `internal/api/external.go` Provider); any other name is
 * "Provider <name> could not be found". `linkedin` and `slack` are dropped by the CLI's config
 * validation (deprecated, supabase/cli `apps/cli-go/pkg/config/config.go` external.validate), so
 * they stay disabled whatever config.toml says.
 */
export const KNOWN_PROVIDERS: readonly string[] = [
  'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'figma', 'fly', 'github', 'gitlab', 'google', 'kakao', 'keycloak',
  'linkedin', 'linkedin_oidc', 'notion', 'snapchat', 'spotify', 'slack', 'slack_oidc', 'twitch', 'twitter', 'x',
  'vercel_marketplace', 'workos', 'zoom',
];

const DEPRECATED_PROVIDERS = new Set(['linkedin', 'slack']);

/** The value of a config.toml string after the CLI's `env(NAME)` substitution (supabase/cli `pkg/config/decode_hooks.go` LoadEnvHook). */
function resolveEnv(value: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof value !== 'string') return '';
  const m = /^env\((.*)\)$/.exec(value);
  if (!m) return value;
  const v = env[m[1]!];
  return v !== undefined && v !== '' ? v : value;
}

/** A resolved value that is real: non-empty and not a leftover `env(NAME)` reference. */
const isReal = (v: string): boolean => v !== '' && !/^env\(.*\)$/.test(v);

/**
 * The `[auth.external.*]` tables of config.toml as ExternalProviderSettings, keyed by provider
 * name (lower case). Providers not listed are disabled. Pure apart from reading `env`.
 */
export function externalProviders(external: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, ExternalProviderSettings> {
  const out: Record<string, ExternalProviderSettings> = {};
  for (const [name, raw] of Object.entries(external)) {
    const t = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const enabled = t.enabled === true && !DEPRECATED_PROVIDERS.has(name);
    out[name.toLowerCase()] = { enabled, hasCredentials: isReal(resolveEnv(t.client_id, env)) && isReal(resolveEnv(t.secret, env)) };
  }
  return out;
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
  /** The before_user_created hook (`[auth.hook.before_user_created]`) as `schema.function`, or null. */
  beforeUserCreatedHook: string | null;
  /**
   * The custom access token hook (`[auth.hook.custom_access_token]`, uri
   * `pg-functions://postgres/<schema>/<function>`), as `schema.function`, or null. Called before
   * every access token is signed; an `{ error: { http_code, message } }` answer refuses it.
   */
  customAccessTokenHook: string | null;
  /**
   * The send-email hook (`[auth.hook.send_email]`, uri `pg-functions://postgres/<schema>/<function>`),
   * as `schema.function`, or null. When set, Auth sends no mail itself: it calls the hook once per
   * send (flows.ts `sendMail`); an `{ error: { http_code, message } }` answer fails the request.
   */
  sendEmailHook: string | null;
  enableAnonymousSignIns: boolean;
  enableManualLinking: boolean;
  minPasswordLength: number;
  /**
   * Character sets a password must each use (`[auth] password_requirements`, as the CLI maps it
   * to GOTRUE_PASSWORD_REQUIRED_CHARACTERS: supabase/cli pkg/config/auth.go ToChar); empty: none.
   */
  passwordRequiredCharacters: string[];
  otpExpirySeconds: number;
  otpLength: number;
  emailMaxFrequencySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
  /**
   * `[auth.sessions] timebox` in seconds, or null: a session older than this can no longer be
   * refreshed (GoTrue Sessions.Timebox, `internal/models/sessions.go` CheckValidity).
   */
  sessionTimeboxSeconds: number | null;
  flowStateExpirySeconds: number;
  rateLimits: RateLimitSettings;
  /**
   * The request header whose first value keys the per-IP limits (GoTrue's
   * GOTRUE_RATE_LIMIT_HEADER; `AUTH_RATE_LIMIT_HEADER`, default `CF-Connecting-IP`, which the
   * local gateway sets as Cloudflare does in front of hosted projects). Empty: no per-IP limit.
   */
  rateLimitHeader: string;
  /**
   * Whether `Sb-Forwarded-For` sets the client address (GoTrue's
   * GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED; hosted: Authentication > Rate Limits > IP address
   * forwarding, which the deploy script turns on; `AUTH_SB_FORWARDED_FOR_ENABLED`, default true).
   * The gateway passes the header on only with a secret key.
   */
  sbForwardedForEnabled: boolean;
  smtpSender: string;
  /** `[auth.external.<name>]` of config.toml, by provider name; absent = disabled. */
  externalProviders: Record<string, ExternalProviderSettings>;
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

/** Seconds of a Go/CLI duration such as "1s", "60s", "1m0s", "1h"; undefined when unparsable. */
export function durationSeconds(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return undefined;
  const unit: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SYMBOLS = '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~';

/**
 * The required character sets of a `password_requirements` value, as the CLI passes them to
 * GoTrue (supabase/cli pkg/config/auth.go PasswordRequirements.ToChar). Errors: throws on a value
 * the CLI would refuse.
 */
export function requiredCharacters(requirements: string): string[] {
  switch (requirements) {
    case '':
      return [];
    case 'letters_digits':
      return [LOWER + UPPER, DIGITS];
    case 'lower_upper_letters_digits':
      return [LOWER, UPPER, DIGITS];
    case 'lower_upper_letters_digits_symbols':
      return [LOWER, UPPER, DIGITS, SYMBOLS];
    default:
      throw new Error(`[auth] password_requirements "${requirements}" is not one of letters_digits, lower_upper_letters_digits, lower_upper_letters_digits_symbols`);
  }
}

type Table = Record<string, unknown>;
const table = (v: unknown): Table => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : {});
const tomlNum = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const tomlBool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/**
 * Builds the auth settings. Precedence: built-in defaults (GoTrue / `supabase start`), then the
 * project's `supabase/config.toml` `[auth]` tables (`toml`, already parsed; the same keys the
 * Supabase CLI reads: jwt_expiry, refresh_token_reuse_interval, enable_signup,
 * enable_anonymous_sign_ins, minimum_password_length, [auth.rate_limit], [auth.email]
 * enable_confirmations / double_confirm_changes / max_frequency / otp_length / otp_expiry,
 * [auth.external.<provider>]), then the AUTH_* environment variables. Pure: no I/O.
 */
export function authSettings(config: StackConfig, env: NodeJS.ProcessEnv = process.env, toml: Table = {}): AuthSettings {
  const auth = table(toml.auth);
  const email = table(auth.email);
  const rate = table(auth.rate_limit);
  const autoconfirm = bool(env.GOTRUE_MAILER_AUTOCONFIRM, false);
  const confirmationsDefault = env.GOTRUE_MAILER_AUTOCONFIRM !== undefined ? !autoconfirm : (tomlBool(email.enable_confirmations) ?? true);
  const signupEnabled = tomlBool(auth.enable_signup) ?? true;
  const hookFn = (name: string): string | null => {
    const hook = table(table(auth.hook)[name]);
    const uri = tomlBool(hook.enabled) && typeof hook.uri === 'string' ? hook.uri : '';
    const m = /^pg-functions:\/\/[a-z_]+\/([a-z_][a-z0-9_]*)\/([a-z_][a-z0-9_]*)$/.exec(uri);
    return m ? `${m[1]}.${m[2]}` : null;
  };
  return {
    externalUrl: `${config.apiUrl}/auth/v1`,
    siteUrl: config.siteUrl,
    jwtSecret: config.jwtSecret,
    jwtExpirySeconds: num(env.AUTH_JWT_EXPIRY, tomlNum(auth.jwt_expiry) ?? 3600),
    enableConfirmations: bool(env.AUTH_ENABLE_CONFIRMATIONS, confirmationsDefault),
    secureEmailChange: bool(env.AUTH_SECURE_EMAIL_CHANGE, tomlBool(email.double_confirm_changes) ?? true),
    disableSignup: bool(env.AUTH_DISABLE_SIGNUP, !signupEnabled),
    beforeUserCreatedHook: hookFn('before_user_created'),
    customAccessTokenHook: hookFn('custom_access_token'),
    sendEmailHook: hookFn('send_email'),
    enableAnonymousSignIns: bool(env.AUTH_ENABLE_ANONYMOUS_SIGN_INS, tomlBool(auth.enable_anonymous_sign_ins) ?? false),
    enableManualLinking: bool(env.AUTH_ENABLE_MANUAL_LINKING, tomlBool(auth.enable_manual_linking) ?? false),
    minPasswordLength: num(env.AUTH_MIN_PASSWORD_LENGTH, tomlNum(auth.minimum_password_length) ?? 6),
    passwordRequiredCharacters: requiredCharacters(typeof auth.password_requirements === 'string' ? auth.password_requirements : ''),
    otpExpirySeconds: num(env.AUTH_OTP_EXPIRY, tomlNum(email.otp_expiry) ?? 3600),
    otpLength: Math.min(10, Math.max(6, tomlNum(email.otp_length) ?? 6)),
    emailMaxFrequencySeconds: num(env.AUTH_EMAIL_MAX_FREQUENCY, durationSeconds(email.max_frequency) ?? 1),
    refreshTokenReuseIntervalSeconds: num(env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL, tomlNum(auth.refresh_token_reuse_interval) ?? 10),
    sessionTimeboxSeconds: durationSeconds(table(auth.sessions).timebox) || null,
    flowStateExpirySeconds: 300,
    rateLimits: {
      windowSeconds: num(env.AUTH_RATE_LIMIT_WINDOW, 300),
      signInSignUps: num(env.AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS, tomlNum(rate.sign_in_sign_ups) ?? 30),
      tokenRefresh: num(env.AUTH_RATE_LIMIT_TOKEN_REFRESH, tomlNum(rate.token_refresh) ?? 150),
      tokenVerifications: num(env.AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS, tomlNum(rate.token_verifications) ?? 30),
      loopbackFactor: num(env.AUTH_RATE_LIMIT_LOOPBACK_FACTOR, 100),
      emailSentPerHour: num(env.AUTH_RATE_LIMIT_EMAIL_SENT, tomlNum(rate.email_sent) ?? 30),
    },
    rateLimitHeader: env.AUTH_RATE_LIMIT_HEADER ?? 'CF-Connecting-IP',
    sbForwardedForEnabled: bool(env.AUTH_SB_FORWARDED_FOR_ENABLED, true),
    smtpSender: env.AUTH_SMTP_SENDER ?? 'Teamwerk <noreply@teamwerk.local>',
    externalProviders: externalProviders(table(auth.external), env),
    bodyLimitBytes: 256 * 1024,
  };
}
