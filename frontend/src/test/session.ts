import { SUPABASE_URL } from '@/lib/public-api';

/** A signed-in member of the component tests (ids are UUIDs, as Auth makes them). */
export interface TestMember {
  id: string;
  email: string;
}

/** The member `signInAs` signs in unless told otherwise. */
export const MEMBER: TestMember = { id: '6f1c2d4e-8a9b-4c3d-9e2f-1a2b3c4d5e6f', email: 'member@example.com' };

/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
export const SESSION_KEY = `sb-${new URL(SUPABASE_URL).hostname.split('.')[0]}-auth-token`;

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * Stores a session for `member` where supabase-js keeps it (localStorage), valid for an hour, so
 * the SPA's session (lib/session.ts) restores it without asking Auth: screens behind sign-in render
 * as for that member. Call before rendering; happy-dom's localStorage starts empty in every file.
 * The token's signature is not checked by anyone (MSW answers every request).
 */
export function signInAs(member: TestMember = MEMBER): void {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: member.id, email: member.email, role: 'authenticated', aud: 'authenticated', exp: now + 3600, iat: now };
  const accessToken = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.signature`;
  const session = {
    access_token: accessToken,
    refresh_token: 'refresh-token-of-the-component-tests',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: now + 3600,
    user: { id: member.id, email: member.email, aud: 'authenticated', role: 'authenticated', app_metadata: {}, user_metadata: {}, created_at: new Date().toISOString() },
  };
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}
