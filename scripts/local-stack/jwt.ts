/**
 * HS256 JWT helpers (jose) shared by the gateway, auth, storage and realtime.
 */
import { jwtVerify, SignJWT, errors } from 'jose';
import type { JwtClaims } from './db.ts';

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * Verifies an HS256 token; returns its claims.
 * Throws `JwtError` with code `expired` (exp in the past) or `invalid` (bad signature, malformed).
 */
export async function verifyJwt(token: string, secret: string): Promise<JwtClaims> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    return payload as JwtClaims;
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new JwtError('expired', 'JWT expired');
    throw new JwtError('invalid', 'invalid JWT: unable to parse or verify signature');
  }
}

/** Signs claims with HS256; `expiresInSeconds` sets exp relative to now (iat = now). */
export async function signJwt(claims: JwtClaims, secret: string, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(key(secret));
}

export class JwtError extends Error {
  constructor(
    public code: 'expired' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}
