/**
 * Parity test of login-check against the answers real GoTrue sends (issue 29 §1).
 *
 * A stand-in for hosted Auth answers the password grant exactly as GoTrue answers a refusal of
 * the custom access token hook: HTTP <http_code> with code `unknown` (supabase/auth
 * `internal/hooks/hookserrors/hookserrors.go` check → `apierrors.HTTPError` without an error code;
 * `internal/api/errors.go` handleResponseErrorHTTP writes `{code: "unknown", message}` for API
 * version 2024-01-01 and `{code: <status>, error_code: "unknown", msg}` before it, without
 * `x-sb-error-code`). login-check reads the answer through supabase-js (password-grant.ts), like in
 * production, and the account state from the stack's database.
 */
import { assertEquals } from '../_shared/assert.ts';
import { answer, createConfirmedUser, invoke, post, stack, STRONG_PASSWORD, uniqueEmail, withDb } from '../_shared/testing.ts';
import { serviceKey } from '../_shared/keys.ts';
import { accountBaseDepsFromEnv } from '../_shared/account-deps.ts';
import { ATTEMPTS_PER_ACCOUNT, ATTEMPTS_PER_ACCOUNT_ALL_SOURCES, createLoginCheckHandler, databaseLoginAttempts, LOGIN_MESSAGES } from './handler.ts';
import { createPasswordSignIn } from './password-grant.ts';

interface Seen {
  apikey: string | null;
  sbForwardedFor: string | null;
}

/** A GoTrue stand-in that refuses `refusals[email]` with that status in the chosen body shape. */
function fakeAuth(refusals: Map<string, number>, shape: 'api-2024' | 'legacy', seen: Seen[]) {
  return Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => undefined }, async (req) => {
    const body = (await req.json()) as { email: string };
    seen.push({ apikey: req.headers.get('apikey'), sbForwardedFor: req.headers.get('sb-forwarded-for') });
    const status = refusals.get(body.email);
    if (!status) {
      return Response.json({ code: 'invalid_credentials', message: 'Invalid login credentials' }, { status: 400, headers: { 'x-sb-error-code': 'invalid_credentials', 'x-supabase-api-version': '2024-01-01' } });
    }
    const message = status === 403 ? 'Your account has been suspended. Please contact support.' : 'Please set a new password (legacy account).';
    return shape === 'api-2024'
      ? Response.json({ code: 'unknown', message }, { status, headers: { 'x-supabase-api-version': '2024-01-01' } })
      : Response.json({ code: status, error_code: 'unknown', msg: message }, { status });
  });
}

Deno.test({
  name: 'login-check: hook refusals as real GoTrue sends them',
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const suspended = await createConfirmedUser('lc-suspended');
    const legacy = await createConfirmedUser('lc-legacy');
    await withDb(async (db) => {
      await db.query(`insert into public.account_suspensions (user_id) values ($1)`, [suspended.id]);
      await db.query(`update public.profiles set user_role = 'old_user' where id = $1`, [legacy.id]);
    });
    const refusals = new Map([[suspended.email, 403], [legacy.email, 409]]);
    const base = accountBaseDepsFromEnv();

    for (const shape of ['api-2024', 'legacy'] as const) {
      await t.step(`${shape} error body: suspended → 403 suspended, old_user → 409 password_update_required, in both languages`, async () => {
        const seen: Seen[] = [];
        const server = fakeAuth(refusals, shape, seen);
        try {
          const handler = createLoginCheckHandler({
            ...base,
            signIn: createPasswordSignIn(`http://127.0.0.1:${server.addr.port}`, 'sb_secret_parity'),
            attempts: databaseLoginAttempts(base.admin),
            revoke: () => Promise.resolve(),
            queueDelayMs: 0,
          });
          const s = await answer(await handler(post({ email: suspended.email, password: 'right-password', locale: 'de' })));
          assertEquals([s.status, s.body.error.code, s.body.error.message], [403, 'suspended', LOGIN_MESSAGES.suspended.de]);
          const l = await answer(await handler(post({ email: legacy.email, password: 'right-password', locale: 'en' })));
          assertEquals([l.status, l.body.error.code, l.body.error.message], [409, 'password_update_required', LOGIN_MESSAGES.password_update_required.en]);
          const wrong = await answer(await handler(post({ email: 'nobody@test.teamwerk.de', password: 'wrong' })));
          assertEquals([wrong.status, wrong.body.error.code], [400, 'invalid_credentials']);
        } finally {
          await server.shutdown();
        }
      });
    }

    await t.step('the browser address goes to Auth as Sb-Forwarded-For with a secret key only, read by the one client-IP rule', async () => {
      const seen: Seen[] = [];
      const server = fakeAuth(refusals, 'api-2024', seen);
      try {
        const url = `http://127.0.0.1:${server.addr.port}`;
        const spoofed = { 'cf-connecting-ip': '203.0.113.7', 'x-forwarded-for': '10.9.9.9, 198.51.100.1' };
        const withSecret = createLoginCheckHandler({ ...base, signIn: createPasswordSignIn(url, 'sb_secret_parity'), attempts: databaseLoginAttempts(base.admin), revoke: () => Promise.resolve(), queueDelayMs: 0 });
        await withSecret(post({ email: 'nobody@test.teamwerk.de', password: 'x' }, spoofed));
        const withLegacy = createLoginCheckHandler({ ...base, signIn: createPasswordSignIn(url, 'eyJlegacy.service.role'), attempts: databaseLoginAttempts(base.admin), revoke: () => Promise.resolve(), queueDelayMs: 0 });
        await withLegacy(post({ email: 'nobody@test.teamwerk.de', password: 'x' }, spoofed));
        assertEquals(seen, [
          { apikey: 'sb_secret_parity', sbForwardedFor: '203.0.113.7' },
          { apikey: 'eyJlegacy.service.role', sbForwardedFor: null },
        ]);
      } finally {
        await server.shutdown();
      }
    });
  },
});

Deno.test({
  name: 'login-check: the per-account attempt limit is the product\'s (issue 29 §2; hosted Auth has none)',
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step('100 parallel guesses through the deployed function: 10 reach Auth, the rest 429; the right password waits too', async () => {
      const user = await createConfirmedUser('lc-limit');
      const guesses = await Promise.all(Array.from({ length: 100 }, (_, i) => invoke('login-check', { email: user.email, password: `Wrong-guess-${i}` })));
      const codes = guesses.map((g) => g.body.error?.code);
      assertEquals(codes.filter((c) => c === 'invalid_credentials').length, ATTEMPTS_PER_ACCOUNT);
      assertEquals(codes.filter((c) => c === 'over_request_rate_limit').length, 100 - ATTEMPTS_PER_ACCOUNT);
      assertEquals(guesses.find((g) => g.body.error?.code === 'over_request_rate_limit')!.status, 429);
      const right = await invoke('login-check', { email: user.email, password: STRONG_PASSWORD, locale: 'de' });
      assertEquals([right.status, right.body.error?.message], [429, LOGIN_MESSAGES.over_request_rate_limit.de]);
      // other accounts are not affected; unknown addresses are counted the same way
      const other = await createConfirmedUser('lc-limit-other');
      assertEquals((await invoke('login-check', { email: other.email, password: STRONG_PASSWORD })).status, 200);
      const ghost = uniqueEmail('lc-ghost');
      const ghostCodes = (await Promise.all(Array.from({ length: ATTEMPTS_PER_ACCOUNT + 1 }, () => invoke('login-check', { email: ghost, password: 'x' })))).map((g) => g.body.error?.code);
      assertEquals(ghostCodes.filter((c) => c === 'over_request_rate_limit').length, 1);
    });

    await t.step('guesses from elsewhere do not lock the account holder out; a slower limit holds over all sources (issue 31 §7)', async () => {
      // the handler as deployed, fed the client address as Cloudflare sets it in front of hosted Supabase
      const base = accountBaseDepsFromEnv();
      const handler = createLoginCheckHandler({
        ...base, signIn: createPasswordSignIn(stack.apiUrl, serviceKey()), attempts: databaseLoginAttempts(base.admin),
        revoke: (token) => base.admin.auth.admin.signOut(token).then(() => undefined, () => undefined), queueDelayMs: 0,
      });
      const from = async (ip: string, email: string, password: string) => (await answer(await handler(post({ email, password }, { 'cf-connecting-ip': ip })))).status;
      const user = await createConfirmedUser('lc-sources');
      for (let i = 0; i < ATTEMPTS_PER_ACCOUNT; i++) assertEquals(await from('198.51.100.66', user.email, `Wrong-${i}`), 400);
      assertEquals(await from('198.51.100.66', user.email, STRONG_PASSWORD), 429, 'the guessing source is locked');
      assertEquals(await from('203.0.113.5', user.email, STRONG_PASSWORD), 200, 'the account holder elsewhere gets in');
      // many sources together meet the slower limit of the account
      const ghost = uniqueEmail('lc-sources-ghost');
      const statuses: number[] = [];
      for (let i = 0; i < ATTEMPTS_PER_ACCOUNT_ALL_SOURCES + 1; i++) statuses.push(await from(`192.0.2.${1 + Math.floor(i / ATTEMPTS_PER_ACCOUNT)}`, ghost, 'x'));
      assertEquals(statuses.filter((s) => s === 400).length, ATTEMPTS_PER_ACCOUNT_ALL_SOURCES);
      assertEquals(statuses.at(-1), 429);
    });

    await t.step('a successful sign-in starts the count afresh', async () => {
      const user = await createConfirmedUser('lc-reset');
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < ATTEMPTS_PER_ACCOUNT - 1; i++) {
          assertEquals((await invoke('login-check', { email: user.email, password: 'Wrong-guess' })).body.error?.code, 'invalid_credentials');
        }
        assertEquals((await invoke('login-check', { email: user.email, password: STRONG_PASSWORD })).status, 200);
      }
    });
  },
});
