/** Unit tests of the signed confirm/reset tokens (spec §5). No stack needed. */
import { assert, assertEquals } from './assert.ts';
import { base64url, fromBase64url, pkceChallenge, signToken, timingSafeEqual, verifyToken, type TokenPayload, type TokenVerification } from './tokens.ts';

function payloadOf(v: TokenVerification): TokenPayload {
  if (!v.ok) throw new Error(`token refused: ${v.reason}`);
  return v.payload;
}

const secret = 'test-secret-with-at-least-32-characters!!';
const user = '6f1c2b9e-8d4a-4f3e-9a71-2c5b8e0d1f23';
const t0 = Date.UTC(2026, 10, 21, 8, 0, 0);

Deno.test('a fresh token verifies and carries user, purpose, issued-at and nonce', async () => {
  const token = await signToken('confirm', user, { secret, now: t0 });
  const p = payloadOf(await verifyToken(token, 'confirm', { secret, now: t0 + 1000, ttlSeconds: 300 }));
  assertEquals(p.sub, user);
  assertEquals(p.p, 'confirm');
  assertEquals(p.iat, t0 / 1000);
  assertEquals(fromBase64url(p.n).length, 16);
});

Deno.test('validity: 5 minutes by default, configurable; expiry is exact to the second', async () => {
  const token = await signToken('confirm', user, { secret, now: t0 });
  assert((await verifyToken(token, 'confirm', { secret, now: t0 + 300_000, ttlSeconds: 300 })).ok);
  assertEquals(await verifyToken(token, 'confirm', { secret, now: t0 + 301_000, ttlSeconds: 300 }), { ok: false, reason: 'expired' });
  assert((await verifyToken(token, 'confirm', { secret, now: t0 + 3_600_000, ttlSeconds: 7200 })).ok);
  // Default from TOKEN_TTL_SECONDS.
  Deno.env.set('TOKEN_TTL_SECONDS', '60');
  try {
    assertEquals((await verifyToken(token, 'confirm', { secret, now: t0 + 61_000 })).ok, false);
    assert((await verifyToken(token, 'confirm', { secret, now: t0 + 59_000 })).ok);
  } finally {
    Deno.env.delete('TOKEN_TTL_SECONDS');
  }
  assert((await verifyToken(token, 'confirm', { secret, now: t0 + 299_000 })).ok);
});

Deno.test('forged tokens are refused: other secret, altered payload, altered signature', async () => {
  const token = await signToken('confirm', user, { secret, now: t0 });
  const [body, sig] = token.split('.') as [string, string];
  const opts = { secret, now: t0, ttlSeconds: 300 };
  assertEquals((await verifyToken(await signToken('confirm', user, { secret: 'another-secret-with-32-characters-or-more', now: t0 }), 'confirm', opts)).ok, false);
  const payload = JSON.parse(new TextDecoder().decode(fromBase64url(body)));
  payload.sub = '00000000-0000-4000-8000-000000000000';
  const altered = `${base64url(new TextEncoder().encode(JSON.stringify(payload)))}.${sig}`;
  assertEquals(await verifyToken(altered, 'confirm', opts), { ok: false, reason: 'bad_signature' });
  const flipped = `${body}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
  assertEquals(await verifyToken(flipped, 'confirm', opts), { ok: false, reason: 'bad_signature' });
  // Extending the lifetime by moving iat is also a forgery.
  payload.sub = user;
  payload.iat = t0 / 1000 + 10_000;
  assertEquals((await verifyToken(`${base64url(new TextEncoder().encode(JSON.stringify(payload)))}.${sig}`, 'confirm', opts)).ok, false);
});

Deno.test('undecodable input counts as expired (never throws)', async () => {
  const opts = { secret, now: t0, ttlSeconds: 300 };
  for (const bad of ['', 'abc', 'a.b.c', '%%%.***', '.', 'x'.repeat(5000), null, undefined, 42, {}, 'eyJ2IjoxfQ.AAAA']) {
    const v = await verifyToken(bad, 'confirm', opts);
    assertEquals(v.ok, false, String(bad));
  }
});

Deno.test('purpose is bound: a confirm token is no reset token and vice versa', async () => {
  const confirm = await signToken('confirm', user, { secret, now: t0 });
  const reset = await signToken('reset', user, { secret, now: t0, codeChallenge: await pkceChallenge('v'.repeat(43)) });
  assertEquals(await verifyToken(confirm, 'reset', { secret, now: t0, ttlSeconds: 300 }), { ok: false, reason: 'wrong_purpose' });
  assertEquals(await verifyToken(reset, 'confirm', { secret, now: t0, ttlSeconds: 300 }), { ok: false, reason: 'wrong_purpose' });
  const p = payloadOf(await verifyToken(reset, 'reset', { secret, now: t0, ttlSeconds: 300 }));
  assertEquals(p.cc, await pkceChallenge('v'.repeat(43)));
});

Deno.test('tokens issued in the future (beyond 30 s skew) are refused', async () => {
  const token = await signToken('confirm', user, { secret, now: t0 + 120_000 });
  assertEquals(await verifyToken(token, 'confirm', { secret, now: t0, ttlSeconds: 300 }), { ok: false, reason: 'not_yet_valid' });
  assert((await verifyToken(await signToken('confirm', user, { secret, now: t0 + 10_000 }), 'confirm', { secret, now: t0, ttlSeconds: 300 })).ok);
});

Deno.test('every token is unique (nonce) and URL-safe', async () => {
  const a = await signToken('confirm', user, { secret, now: t0 });
  const b = await signToken('confirm', user, { secret, now: t0 });
  assert(a !== b);
  assert(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(a));
  assertEquals(encodeURIComponent(a), a);
});

Deno.test('PKCE S256 matches RFC 7636 appendix B', async () => {
  assertEquals(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  assert(timingSafeEqual('abc', 'abc'));
  assert(!timingSafeEqual('abc', 'abd'));
  assert(!timingSafeEqual('abc', 'abcd'));
});

Deno.test('the secret: TOKEN_SECRET in every environment, no default; missing or short is server_misconfigured', async () => {
  const { tokenSecret } = await import('./tokens.ts');
  const { MisconfiguredError } = await import('./secrets.ts');
  const saved = { s: Deno.env.get('TOKEN_SECRET'), u: Deno.env.get('SUPABASE_URL') };
  const refused = () => {
    try {
      tokenSecret();
    } catch (err) {
      return err instanceof MisconfiguredError && err.status === 500 && err.code === 'server_misconfigured';
    }
    return false;
  };
  try {
    for (const url of ['http://127.0.0.1:54321', 'http://localhost:54321', 'https://abcdefgh.supabase.co']) {
      Deno.env.set('SUPABASE_URL', url);
      Deno.env.delete('TOKEN_SECRET');
      assert(refused(), `no TOKEN_SECRET with SUPABASE_URL ${url} must be refused`);
      Deno.env.set('TOKEN_SECRET', 'x'.repeat(31));
      assert(refused(), `a 31-character TOKEN_SECRET with SUPABASE_URL ${url} must be refused`);
    }
    Deno.env.set('TOKEN_SECRET', secret);
    assertEquals(tokenSecret(), secret);
  } finally {
    if (saved.s === undefined) Deno.env.delete('TOKEN_SECRET');
    else Deno.env.set('TOKEN_SECRET', saved.s);
    if (saved.u === undefined) Deno.env.delete('SUPABASE_URL');
    else Deno.env.set('SUPABASE_URL', saved.u);
  }
});

Deno.test('a signature spelled with other unused trailing bits is refused (only canonical base64url)', async () => {
  const token = await signToken('reset', user, { secret, now: t0 });
  const [body, sig] = token.split('.') as [string, string];
  // 32 bytes → 43 characters; the last one carries 4 data bits and 2 unused bits.
  const last = sig.charCodeAt(sig.length - 1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const index = alphabet.indexOf(String.fromCharCode(last));
  const twin = alphabet[index ^ 1]!;
  const respelled = `${body}.${sig.slice(0, -1)}${twin}`;
  assertEquals(base64url(fromBase64url(respelled.split('.')[1]!)), sig, 'same signature bytes');
  assertEquals(await verifyToken(respelled, 'reset', { secret, now: t0 }), { ok: false, reason: 'malformed' });
});
