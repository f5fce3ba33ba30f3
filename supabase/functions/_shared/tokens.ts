/**
 * Signed confirm and reset tokens (spec §5, issue 6).
 *
 * A token is `<payload>.<signature>`, both base64url (no padding):
 * - payload: JSON `{ v: 1, p: purpose, sub: user id, iat: issued-at (seconds since epoch),
 *   n: random nonce, cc?: PKCE S256 code challenge (reset tokens) }`;
 * - signature: HMAC-SHA256 over `teamwerk-token.<payload>` with the server secret TOKEN_SECRET,
 *   so nobody without the secret can forge or alter a token.
 *
 * Validity: TOKEN_TTL_SECONDS (default 300 = 5 minutes, spec §9). An undecodable, forged, altered,
 * wrong-purpose or future-dated token counts as expired (spec §5): `verifyToken` answers
 * `{ ok: false, reason }` and callers answer 400 `token_expired`.
 *
 * Secret: TOKEN_SECRET (at least 32 characters), required in every environment: there is no
 * default in the source (issue 12 §3; the local stack generates one per data folder). Without
 * it `tokenSecret()` throws 500 `server_misconfigured` (secrets.ts).
 */
import { env } from './env.ts';
import { requireSecret } from './secrets.ts';

/**
 * What a token authorises: confirming the address, setting a new password, or confirming a
 * cancellation submitted without login (issue 12 finding 2; bound to the request by `r`).
 */
export type TokenPurpose = 'confirm' | 'reset' | 'cancel_contract';

/** The decoded, verified content of a token. */
export interface TokenPayload {
  v: 1;
  p: TokenPurpose;
  /** auth.users id. */
  sub: string;
  /** Issued-at, seconds since the Unix epoch. */
  iat: number;
  /** Random nonce (base64url, 16 bytes): identifies one token, e.g. to make reset tokens single-use. */
  n: string;
  /** PKCE S256 code challenge (reset tokens only). */
  cc?: string;
  /** The cancellation request a cancel_contract token confirms (uuid). */
  r?: string;
}

/** Why a token was refused; every reason is reported to users as "expired" (spec §5). */
export type TokenRejection = 'malformed' | 'bad_signature' | 'wrong_purpose' | 'expired' | 'not_yet_valid';

export type TokenVerification = { ok: true; payload: TokenPayload } | { ok: false; reason: TokenRejection };

/** Spec §9: token validity 5 minutes. */
export const DEFAULT_TOKEN_TTL_SECONDS = 300;
/** Tolerated clock skew for tokens issued "in the future" (seconds). */
const MAX_SKEW_SECONDS = 30;
const SIGNING_PREFIX = 'teamwerk-token.';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const B64URL_RE = /^[A-Za-z0-9_-]+$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (padding optional). Errors: throws on characters outside the alphabet. */
export function fromBase64url(text: string): Uint8Array {
  if (!B64URL_RE.test(text)) throw new Error('not base64url');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * The token secret from TOKEN_SECRET, in every environment (issue 12 §3).
 * Errors: throws MisconfiguredError (500 `server_misconfigured`) when it is unset or shorter
 * than 32 characters.
 */
export function tokenSecret(): string {
  return requireSecret('TOKEN_SECRET');
}

/** Token validity in seconds from TOKEN_TTL_SECONDS (positive integer), default 300 (spec §9). */
export function tokenTtlSeconds(): number {
  const raw = Number.parseInt(env('TOKEN_TTL_SECONDS', String(DEFAULT_TOKEN_TTL_SECONDS)), 10);
  return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_TOKEN_TTL_SECONDS;
}

const keyCache = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keyCache.set(secret, key);
  }
  return key;
}

/** Options of signToken/verifyToken; defaults come from the environment and the wall clock. */
export interface TokenOptions {
  secret?: string;
  /** Current time in milliseconds since the epoch (tests pass a fake clock). */
  now?: number;
}

/**
 * Issues a signed token for `userId` and `purpose`; `codeChallenge` (PKCE S256, base64url of
 * sha256(verifier), 43 characters) is bound into reset tokens.
 * Output: the token string (URL-safe). Errors: throws on a non-uuid user id.
 */
export async function signToken(
  purpose: TokenPurpose,
  userId: string,
  options: TokenOptions & { codeChallenge?: string; requestId?: string } = {},
): Promise<string> {
  if (!UUID_RE.test(userId)) throw new Error('signToken: userId must be a uuid');
  if (options.requestId !== undefined && !UUID_RE.test(options.requestId)) throw new Error('signToken: requestId must be a uuid');
  const payload: TokenPayload = {
    v: 1,
    p: purpose,
    sub: userId.toLowerCase(),
    iat: Math.floor((options.now ?? Date.now()) / 1000),
    n: base64url(crypto.getRandomValues(new Uint8Array(16))),
    ...(options.codeChallenge ? { cc: options.codeChallenge } : {}),
    ...(options.requestId ? { r: options.requestId.toLowerCase() } : {}),
  };
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const key = await hmacKey(options.secret ?? tokenSecret());
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(SIGNING_PREFIX + body)));
  return `${body}.${base64url(sig)}`;
}

function isPayload(value: unknown): value is TokenPayload {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    v.v === 1 &&
    (v.p === 'confirm' || v.p === 'reset' || v.p === 'cancel_contract') &&
    typeof v.sub === 'string' &&
    UUID_RE.test(v.sub) &&
    typeof v.iat === 'number' &&
    Number.isInteger(v.iat) &&
    typeof v.n === 'string' &&
    B64URL_RE.test(v.n) &&
    (v.cc === undefined || (typeof v.cc === 'string' && B64URL_RE.test(v.cc))) &&
    (v.r === undefined || (typeof v.r === 'string' && UUID_RE.test(v.r)))
  );
}

/**
 * Verifies a token: signature (constant-time HMAC verify), purpose, age ≤ `ttlSeconds`
 * (default TOKEN_TTL_SECONDS) and not issued in the future (30 s skew).
 * Output: `{ ok: true, payload }` or `{ ok: false, reason }`; never throws for bad input
 * (spec §5: an undecodable token counts as expired).
 */
export async function verifyToken(
  token: unknown,
  purpose: TokenPurpose,
  options: TokenOptions & { ttlSeconds?: number } = {},
): Promise<TokenVerification> {
  if (typeof token !== 'string' || token.length > 2048) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { ok: false, reason: 'malformed' };
  const [body, sigText] = parts as [string, string];
  let sig: Uint8Array;
  let payload: unknown;
  try {
    sig = fromBase64url(sigText);
    payload = JSON.parse(decoder.decode(fromBase64url(body)));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // Only the canonical encoding is accepted: base64url's last character carries unused bits, so
  // without this check several spellings of one signature would all verify.
  if (base64url(sig) !== sigText) return { ok: false, reason: 'malformed' };
  const key = await hmacKey(options.secret ?? tokenSecret());
  const valid = await crypto.subtle.verify('HMAC', key, sig as Uint8Array<ArrayBuffer>, encoder.encode(SIGNING_PREFIX + body));
  if (!valid) return { ok: false, reason: 'bad_signature' };
  if (!isPayload(payload)) return { ok: false, reason: 'malformed' };
  if (payload.p !== purpose) return { ok: false, reason: 'wrong_purpose' };
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (payload.iat > nowSeconds + MAX_SKEW_SECONDS) return { ok: false, reason: 'not_yet_valid' };
  if (nowSeconds - payload.iat > (options.ttlSeconds ?? tokenTtlSeconds())) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}

/** PKCE S256 (RFC 7636 §4.2): base64url(sha256(ASCII(code_verifier))). */
export async function pkceChallenge(codeVerifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(codeVerifier))));
}

/** RFC 7636 §4.1: a code verifier is 43–128 characters of [A-Za-z0-9-._~]. */
export const CODE_VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 code challenge: 43 base64url characters (32 bytes). */
export const CODE_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/** Constant-time comparison of two strings of any length (no early exit on the first difference). */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
