/** localStorage key of the PKCE code verifier of the last reset request (issue 6 password reset). */
export const RESET_VERIFIER_KEY = 'teamwerk.passwordResetVerifier';

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A random PKCE code verifier: 32 random bytes as base64url (43 characters, RFC 7636 §4.1). */
export function createCodeVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of a verifier: base64url(sha256(verifier)) (RFC 7636 §4.2). */
export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
