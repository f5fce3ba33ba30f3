/**
 * Contract tests of the local Auth service (issue 2 item 5), driven through the gateway with
 * the official `@supabase/supabase-js` client: sign-up with e-mail confirmation via the
 * mailbox, password sign-in and the access token's claims, refresh-token rotation and reuse
 * detection, user get/update, sign-out scopes, PKCE password recovery, verifyOtp, resend,
 * the admin API, OAuth through the local provider page, rate limits, and bad input (GoTrue's
 * status codes and error shapes; nothing stored changes).
 *
 * Behaviour that needs other settings than the stack's defaults (confirmations off, a long
 * per-address mail interval) runs against the same handler mounted in-process on a tiny
 * server over the stack's Postgres.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, config, nodeClientOptions, serviceClient, superuserDb, uniqueEmail } from '../../test-support/clients.ts';
import type { OutgoingMail } from '../types.ts';
import { createAuthHandler, projectAuthSettings } from '../services/auth/index.ts';
import { IntervalLimiter, WindowLimiter } from '../services/auth/ratelimit.ts';
import { authSettings, type AuthSettings } from '../services/auth/settings.ts';

const AUTH_URL = `${config.apiUrl}/auth/v1`;
const PASSWORD = 'Test-Passw0rd!';

interface MailboxMessage {
  to: string[];
  subject: string;
  text?: string;
  html?: string;
  created_at: string;
}

async function mailsTo(address: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(address)}`);
  expect(res.status).toBe(200);
  const list = (await res.json()) as MailboxMessage[];
  return list.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

async function latestMail(address: string, subject?: string): Promise<MailboxMessage> {
  const list = (await mailsTo(address)).filter((m) => !subject || m.subject === subject);
  const mail = list.at(-1);
  if (!mail) throw new Error(`no mail to ${address}${subject ? ` with subject ${subject}` : ''}`);
  return mail;
}

function linkOf(mail: { text?: string }): string {
  const m = /(http\S+\/auth\/v1\/verify\?\S+)/.exec(mail.text ?? '');
  if (!m) throw new Error('no verify link in mail');
  return m[1]!;
}

function otpOf(mail: { text?: string }): string {
  const m = /code: (\d{6})/.exec(mail.text ?? '');
  if (!m) throw new Error('no OTP in mail');
  return m[1]!;
}

/** Follows one redirect step without following it; returns the Location. */
async function location(url: string, init: RequestInit = {}): Promise<{ status: number; location: string }> {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

function fragmentParams(url: string): URLSearchParams {
  return new URLSearchParams(new URL(url).hash.slice(1));
}

function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function pkceClient(url = config.apiUrl): SupabaseClient {
  return createClient(url, config.anonKey, { ...nodeClientOptions, auth: { ...nodeClientOptions.auth, flowType: 'pkce' } });
}

/** Raw request to the auth API through the gateway (with the anon key unless overridden). */
async function raw(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; apikey?: string | null; url?: string } = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.apikey !== null) headers.apikey = options.apikey ?? config.anonKey;
  const res = await fetch(`${options.url ?? AUTH_URL}${path}`, { method, headers, body: options.body });
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: res.status, json, headers: res.headers };
}

let db: pg.Client;
const admin = serviceClient();

/**
 * GoTrue's sign-up contract is measured against the same Auth handler as the stack's, mounted
 * in-process over the stack's Postgres without the project's before_user_created hook (the product
 * turns self sign-up through Auth off: its sign-up is the register function, issue 12). Mails go
 * to the stack's mailbox through its Resend API.
 */
let selfSignup: { url: string; server: http.Server; pool: pg.Pool } | null = null;
async function signupUrl(): Promise<string> {
  if (selfSignup) return selfSignup.url;
  const pool = new pg.Pool({ connectionString: config.dbUrl, max: 4 });
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse, subpath: string) => Promise<void>) | null = null;
  const server = http.createServer((req, res) => {
    const subpath = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/auth\/v1/, '') || '/';
    void handler!(req, res, subpath);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = { ...projectAuthSettings(config), externalUrl: `${url}/auth/v1`, beforeUserCreatedHook: null, sendEmailHook: null };
  handler = createAuthHandler({
    pool,
    settings,
    mailer: {
      deliver: async (m) => {
        const res = await fetch(`${config.mailboxUrl}/emails`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.resendApiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ from: m.from, to: m.to, subject: m.subject, html: m.html, text: m.text }),
        });
        return (await res.json()) as { id: string };
      },
    },
    now: () => new Date(),
    limiter: new WindowLimiter(300_000),
    emailLimiter: new IntervalLimiter(settings.rateLimits.emailSentPerHour, 3600_000),
    log: () => undefined,
  });
  selfSignup = { url, server, pool };
  return url;
}
/** A supabase-js client of the sign-up Auth above (`pkce` for the PKCE flow). */
async function signupClient(pkce = false): Promise<SupabaseClient> {
  return pkce ? pkceClient(await signupUrl()) : createClient(await signupUrl(), config.anonKey, nodeClientOptions);
}

async function createConfirmedUser(email = uniqueEmail('auth'), password = PASSWORD, extra: Record<string, unknown> = {}) {
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true, ...extra });
  if (error) throw error;
  return { id: data.user.id, email, password };
}

/** How many of these addresses have an auth.users row (other test files add users concurrently). */
async function storedUsers(emails: string[]): Promise<number> {
  return Number((await db.query<{ n: string }>('select count(*) as n from auth.users where email = any($1)', [emails])).rows[0]!.n);
}

interface MountedAuth {
  url: string;
  sent: OutgoingMail[];
  server: http.Server;
  client: () => SupabaseClient;
}
const mountedAuth: MountedAuth[] = [];
let mountedPool: pg.Pool | null = null;

/**
 * The stack's Auth handler in-process over the stack's Postgres with the project's settings and
 * these overrides (confirmations on, no before_user_created hook unless given), its own
 * limiters (`emailSentPerHour` e-mails per hour) and a log of the mails it sends. Closed after
 * the file.
 */
async function mountAuth(overrides: Partial<AuthSettings> & { emailSentPerHour: number }): Promise<MountedAuth> {
  mountedPool ??= new pg.Pool({ connectionString: config.dbUrl, max: 4 });
  const pool = mountedPool;
  const sent: OutgoingMail[] = [];
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse, subpath: string) => Promise<void>) | null = null;
  const server = http.createServer((req, res) => void handler!(req, res, new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/auth\/v1/, '') || '/'));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = projectAuthSettings(config);
  const { emailSentPerHour, ...rest } = overrides;
  const settings: AuthSettings = {
    ...base,
    externalUrl: `${url}/auth/v1`,
    beforeUserCreatedHook: null,
    sendEmailHook: null,
    enableConfirmations: true,
    ...rest,
    rateLimits: { ...base.rateLimits, emailSentPerHour },
  };
  handler = createAuthHandler({
    pool,
    settings,
    mailer: { deliver: async (m) => (sent.push(m), { id: randomUUID() }) },
    now: () => new Date(),
    limiter: new WindowLimiter(300_000),
    emailLimiter: new IntervalLimiter(emailSentPerHour, 3600_000),
    log: (scope, message) => console.error(scope, message),
  });
  const m = { url, sent, server, client: () => createClient(url, config.anonKey, nodeClientOptions) };
  mountedAuth.push(m);
  return m;
}

beforeAll(async () => {
  db = await superuserDb();
});

afterAll(async () => {
  for (const m of mountedAuth) await new Promise((r) => m.server.close(r));
  await mountedPool?.end();
  await db.end();
  if (selfSignup) {
    await new Promise((r) => selfSignup!.server.close(r));
    await selfSignup.pool.end();
  }
});

describe('health, settings and the gateway key check', () => {
  it('answers /health and /settings like GoTrue', async () => {
    const h = await raw('GET', '/health');
    expect(h.status).toBe(200);
    expect(h.json).toMatchObject({ name: 'GoTrue' });
    const s = await raw('GET', '/settings');
    expect(s.status).toBe(200);
    expect(s.json).toMatchObject({ disable_signup: false, mailer_autoconfirm: false, external: { email: true, google: true, linkedin_oidc: true } });
  });

  it('rejects a wrong or missing apikey at the gateway with 401', async () => {
    const wrong = await raw('GET', '/settings', { apikey: 'not-a-key' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ message: 'Invalid API key' });
    const missing = await raw('POST', '/token?grant_type=password', { apikey: null, body: '{}' });
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ message: 'No API key found in request' });
  });
});

describe('sign-up through Auth itself', () => {
  it('is refused on the stack by the before_user_created hook: e-mail sign-up and magic-link sign-up (issue 12 finding 12)', async () => {
    const email = uniqueEmail('direct');
    const { data, error } = await anonClient().auth.signUp({ email, password: PASSWORD });
    expect([error?.status, error?.code, data.user]).toEqual([403, 'unknown', null]);
    const otp = await anonClient().auth.signInWithOtp({ email });
    expect([otp.error?.status, otp.error?.code]).toEqual([403, 'unknown']);
    expect(await storedUsers([email])).toBe(0);
    expect(await mailsTo(email)).toEqual([]);
  });
});

describe('sign-up with e-mail confirmation (GoTrue contract; Auth without the project hook)', () => {
  it('returns the user without a session, mails a link that confirms and signs in', async () => {
    const email = uniqueEmail('signup');
    const client = await signupClient();
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { full_name: 'Ada Lovelace' }, emailRedirectTo: 'http://127.0.0.1:5173/welcome' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ full_name: 'Ada Lovelace' });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', identity_data: { email } });

    const blocked = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(blocked.error?.status).toBe(400);
    expect(blocked.error?.code).toBe('email_not_confirmed');

    const mail = await latestMail(email, 'Confirm your email address');
    const link = linkOf(mail);
    expect(link).toContain('type=signup');
    expect(link).toContain(`redirect_to=${encodeURIComponent('http://127.0.0.1:5173/welcome')}`);
    const hop = await location(link);
    expect(hop.status).toBe(303);
    expect(hop.location.startsWith('http://127.0.0.1:5173/welcome#')).toBe(true);
    const frag = fragmentParams(hop.location);
    expect(frag.get('type')).toBe('signup');
    expect(frag.get('token_type')).toBe('bearer');
    expect(frag.get('refresh_token')).toBeTruthy();
    const { data: me } = await client.auth.getUser(frag.get('access_token')!);
    expect(me.user?.email_confirmed_at).toBeTruthy();
    expect(me.user?.user_metadata.email_verified).toBe(true);

    const again = await location(link);
    expect(fragmentParams(again.location).get('error_code')).toBe('otp_expired');

    const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.access_token).toBeTruthy();
  });

  it('confirms a PKCE sign-up: the link redirects with ?code=, exchanged for a session', async () => {
    const email = uniqueEmail('pkcesignup');
    const client = await signupClient(true);
    const { data, error } = await client.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: 'http://127.0.0.1:5173/confirm' } });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const link = linkOf(await latestMail(email));
    expect(link).toContain('token=pkce_');
    const target = new URL((await location(link)).location);
    expect(target.origin + target.pathname).toBe('http://127.0.0.1:5173/confirm');
    const exchanged = await client.auth.exchangeCodeForSession(target.searchParams.get('code')!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(exchanged.data.user?.email_confirmed_at).toBeTruthy();
    expect(decodeJwt(exchanged.data.session!.access_token).amr).toEqual([expect.objectContaining({ method: 'email/signup' })]);
  });

  it('does not reveal an existing confirmed address: 200 with a different, session-less user and no mail', async () => {
    const existing = await createConfirmedUser();
    // Auth's mails only: the product's welcome mail of the new account arrives whenever its queue runs
    const authMails = async () => (await mailsTo(existing.email)).filter((m) => !/^(Welcome to|Willkommen bei) Teamwerk/.test(m.subject)).length;
    const before = await authMails();
    const { data, error } = await (await signupClient()).auth.signUp({ email: existing.email, password: 'Other-secret-1' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.id).not.toBe(existing.id);
    expect(await authMails()).toBe(before);
    const still = await anonClient().auth.signInWithPassword({ email: existing.email, password: existing.password });
    expect(still.error).toBeNull();
  });

  it('rejects weak passwords with 422 weak_password and stores nothing', async () => {
    const email = uniqueEmail('weak');
    const { error } = await (await signupClient()).auth.signUp({ email, password: '123' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(['length', 'characters']);
    expect(await storedUsers([email])).toBe(0);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('confirms with the mailed OTP through verifyOtp and resends the confirmation', async () => {
    const email = uniqueEmail('otp');
    const client = await signupClient();
    await client.auth.signUp({ email, password: PASSWORD });
    const first = await latestMail(email);
    await new Promise((r) => setTimeout(r, 1100));
    const resent = await client.auth.resend({ type: 'signup', email });
    expect(resent.error).toBeNull();
    const mails = await mailsTo(email);
    expect(mails.length).toBe(2);
    const second = mails[1]!;
    const wrong = await client.auth.verifyOtp({ email, token: otpOf(first) === '000000' ? '111111' : '000000', type: 'signup' });
    expect(wrong.error?.status).toBe(403);
    expect(wrong.error?.code).toBe('otp_expired');
    const ok = await client.auth.verifyOtp({ email, token: otpOf(second), type: 'signup' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email).toBe(email);
    expect(decodeJwt(ok.data.session!.access_token).amr).toEqual([expect.objectContaining({ method: 'otp' })]);
  });
});

describe('password sign-in and the access token', () => {
  it('issues HS256 tokens with the claims hosted Supabase issues', async () => {
    const u = await createConfirmedUser(uniqueEmail('claims'), PASSWORD, { user_metadata: { full_name: 'Grace' } });
    const { data, error } = await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD });
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: AUTH_URL,
      sub: u.id,
      aud: 'authenticated',
      email: u.email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Grace' },
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(typeof claims.session_id).toBe('string');
    const header = JSON.parse(Buffer.from(session.access_token.split('.')[0]!, 'base64url').toString('utf8')) as { alg: string };
    expect(header.alg).toBe('HS256');
    const sessions = await db.query('select id from auth.sessions where user_id = $1', [u.id]);
    expect(sessions.rows.map((r) => r.id)).toContain(claims.session_id);
  });

  it('signs in users that seed SQL inserted directly (pgcrypto hash, NULL token columns, no identity)', async () => {
    const email = uniqueEmail('seeded');
    const id = randomUUID();
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
          extensions.crypt('Seed-Passw0rd', extensions.gen_salt('bf')), now(),
          '{"provider":"email","providers":["email"]}', '{"firstname":"Demo"}', now(), now())`,
      [id, email],
    );
    const client = anonClient();
    const { data, error } = await client.auth.signInWithPassword({ email, password: 'Seed-Passw0rd' });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id, email, identities: [], user_metadata: { firstname: 'Demo' } });
    expect((await client.auth.refreshSession()).error).toBeNull();
    expect((await client.auth.updateUser({ data: { lastname: 'User' } })).data.user?.user_metadata).toEqual({ firstname: 'Demo', lastname: 'User' });
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    expect((await admin.auth.admin.getUserById(id)).data.user?.email).toBe(email);
  });

  it('answers wrong credentials with 400 invalid_credentials, also for unknown addresses', async () => {
    const u = await createConfirmedUser();
    const wrong = await anonClient().auth.signInWithPassword({ email: u.email, password: 'wrong-password' });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.code).toBe('invalid_credentials');
    expect(wrong.error?.message).toBe('Invalid login credentials');
    const unknown = await anonClient().auth.signInWithPassword({ email: uniqueEmail('nobody'), password: 'whatever1' });
    expect(unknown.error?.code).toBe('invalid_credentials');
  });

  it('uses both GoTrue error shapes depending on X-Supabase-Api-Version', async () => {
    const body = JSON.stringify({ email: uniqueEmail('nobody'), password: 'whatever1' });
    const legacy = await raw('POST', '/token?grant_type=password', { body });
    expect(legacy.status).toBe(400);
    expect(legacy.json).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    const v2024 = await raw('POST', '/token?grant_type=password', { body, headers: { 'X-Supabase-Api-Version': '2024-01-01' } });
    expect(v2024.json).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(v2024.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(v2024.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    const grant = await raw('POST', '/token?grant_type=magic', { body: '{}' });
    expect(grant.json).toMatchObject({ code: 400, error_code: 'invalid_credentials', msg: 'unsupported_grant_type' });
  });
});

describe('refresh tokens', () => {
  it('rotates on refresh; the previous token returns the active one; an older one revokes the family', async () => {
    const u = await createConfirmedUser();
    const client = anonClient();
    const signIn = await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const a = signIn.data.session!;
    const r1 = await client.auth.refreshSession({ refresh_token: a.refresh_token });
    expect(r1.error).toBeNull();
    const b = r1.data.session!;
    expect(b.refresh_token).not.toBe(a.refresh_token);
    expect(decodeJwt(b.access_token).session_id).toBe(decodeJwt(a.access_token).session_id);
    const r2 = await client.auth.refreshSession({ refresh_token: b.refresh_token });
    const c = r2.data.session!;
    expect(c.refresh_token).not.toBe(b.refresh_token);

    // B is the parent of the active token C: GoTrue answers with C again (lost response).
    const retry = await anonClient().auth.refreshSession({ refresh_token: b.refresh_token });
    expect(retry.error).toBeNull();
    expect(retry.data.session?.refresh_token).toBe(c.refresh_token);

    // A, revoked longer ago than the reuse interval (10 s): reuse detected.
    await db.query(`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`, [a.refresh_token]);
    const reuse = await anonClient().auth.refreshSession({ refresh_token: a.refresh_token });
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    const after = await anonClient().auth.refreshSession({ refresh_token: c.refresh_token });
    expect(after.error?.status).toBe(400);
    expect(after.error?.code).toBe('session_expired');

    // Two tabs refreshing the same token at once both get the same new token.
    const fresh = (await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;
    const [t1, t2] = await Promise.all([
      anonClient().auth.refreshSession({ refresh_token: fresh.refresh_token }),
      anonClient().auth.refreshSession({ refresh_token: fresh.refresh_token }),
    ]);
    expect(t1.error).toBeNull();
    expect(t2.error).toBeNull();
    expect(t1.data.session?.refresh_token).toBe(t2.data.session?.refresh_token);

    const unknown = await raw('POST', '/token?grant_type=refresh_token', { body: JSON.stringify({ refresh_token: 'nope' }) });
    expect(unknown.json).toMatchObject({ code: 400, error_code: 'refresh_token_not_found' });
    const missing = await raw('POST', '/token?grant_type=refresh_token', { body: '{}' });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' });
  });
});

describe('session time-box ([auth.sessions] timebox, GoTrue internal/models/sessions.go CheckValidity)', () => {
  it('refreshes a session of 399 days; one older than the 400 days of config.toml ends with 400 session_expired (spec §9)', async () => {
    expect(projectAuthSettings(config, {}).sessionTimeboxSeconds).toBe(400 * 24 * 3600);
    const u = await createConfirmedUser();
    const client = anonClient();
    const s = (await client.auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;
    const sessionId = decodeJwt(s.access_token).session_id as string;
    await db.query(`update auth.sessions set created_at = now() - interval '399 days' where id = $1`, [sessionId]);
    const young = await anonClient().auth.refreshSession({ refresh_token: s.refresh_token });
    expect(young.error).toBeNull();
    await db.query(`update auth.sessions set created_at = now() - interval '401 days' where id = $1`, [sessionId]);
    const old = await anonClient().auth.refreshSession({ refresh_token: young.data.session!.refresh_token });
    expect([old.error?.status, old.error?.code]).toEqual([400, 'session_expired']);
  });
});

describe('user: get and update', () => {
  it('updates user_metadata (merge, null removes) and the password; other sessions end', async () => {
    const u = await createConfirmedUser(uniqueEmail('upd'), PASSWORD, { user_metadata: { full_name: 'Old', city: 'Berlin' } });
    const client = anonClient();
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const other = anonClient();
    const otherSession = (await other.auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;

    const data = await client.auth.updateUser({ data: { full_name: 'New', city: null, locale: 'de' } });
    expect(data.error).toBeNull();
    expect(data.data.user?.user_metadata).toMatchObject({ full_name: 'New', locale: 'de' });
    expect(data.data.user?.user_metadata.city).toBeUndefined();

    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error?.status).toBe(422);
    expect(same.error?.code).toBe('same_password');

    const changed = await client.auth.updateUser({ password: 'New-Passw0rd!' });
    expect(changed.error).toBeNull();
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: 'New-Passw0rd!' })).error).toBeNull();
    const otherRefresh = await other.auth.refreshSession({ refresh_token: otherSession.refresh_token });
    expect(otherRefresh.error?.code).toBe('refresh_token_not_found');
    const me = await client.auth.getUser();
    expect(me.data.user?.id).toBe(u.id);

    const appMeta = await raw('PUT', '/user', {
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
      headers: { authorization: `Bearer ${(await client.auth.getSession()).data.session!.access_token}` },
    });
    expect(appMeta.status).toBe(403);
    expect(appMeta.json).toMatchObject({ error_code: 'not_admin' });
  });

  it('changes the e-mail address after confirmation from both addresses (secure e-mail change)', async () => {
    const u = await createConfirmedUser();
    const client = await signupClient(); // GoTrue's own mails: Auth without the project's send-email hook
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const newEmail = uniqueEmail('new');
    const res = await client.auth.updateUser({ email: newEmail });
    expect(res.error).toBeNull();
    expect(res.data.user?.email).toBe(u.email);
    expect(res.data.user?.new_email).toBe(newEmail);
    const toNew = await latestMail(newEmail, 'Confirm your new email address');
    const toCurrent = await latestMail(u.email, 'Confirm your new email address');
    const first = await location(linkOf(toCurrent));
    expect(fragmentParams(first.location).get('message')).toContain('Confirmation link accepted');
    const second = await location(linkOf(toNew));
    const token = fragmentParams(second.location).get('access_token')!;
    const { data } = await client.auth.getUser(token);
    expect(data.user?.email).toBe(newEmail);
    expect(data.user?.new_email).toBeUndefined();
  });

  it('resends the e-mail change mails and confirms both sides with OTPs through verifyOtp', async () => {
    const u = await createConfirmedUser();
    const client = await signupClient(); // GoTrue's own mails: Auth without the project's send-email hook
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const newEmail = uniqueEmail('otpchange');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await client.auth.resend({ type: 'email_change', email: u.email })).error).toBeNull();
    expect((await mailsTo(newEmail)).length).toBe(2);
    const first = await client.auth.verifyOtp({ email: u.email, token: otpOf(await latestMail(u.email, 'Confirm your new email address')), type: 'email_change' });
    expect(first.error).toBeNull();
    expect(first.data.session).toBeNull();
    const second = await client.auth.verifyOtp({ email: newEmail, token: otpOf(await latestMail(newEmail)), type: 'email_change' });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
    expect((await anonClient().auth.signInWithPassword({ email: newEmail, password: PASSWORD })).error).toBeNull();
  });

  it('rejects forged, expired and missing JWTs with GoTrue statuses', async () => {
    const u = await createConfirmedUser();
    const forged = await new SignJWT({ sub: u.id, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-some-other-secret-1234'));
    const f = await anonClient().auth.getUser(forged);
    expect(f.error?.status).toBe(403);
    expect(f.error?.code).toBe('bad_jwt');
    const expired = await new SignJWT({ sub: u.id, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(config.jwtSecret));
    const e = await raw('GET', '/user', { headers: { authorization: `Bearer ${expired}` } });
    expect(e.status).toBe(403);
    expect(e.json).toMatchObject({ code: 403, error_code: 'bad_jwt' });
    expect(String(e.json.msg)).toContain('token is expired');
    const none = await raw('GET', '/user', { headers: {} });
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: 401, error_code: 'no_authorization' });
    const anonAsUser = await raw('GET', '/user', { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(anonAsUser.status).toBe(403);
    expect(anonAsUser.json).toMatchObject({ error_code: 'bad_jwt' });
  });
});

describe('sign-out scopes', () => {
  it('others ends the other sessions, local the current one, global all', async () => {
    const u = await createConfirmedUser();
    const s1 = anonClient();
    const s2 = anonClient();
    const s3 = anonClient();
    await s1.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const t2 = (await s2.auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;
    const t3 = (await s3.auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;
    expect((await s1.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await anonClient().auth.refreshSession({ refresh_token: t2.refresh_token })).error?.code).toBe('refresh_token_not_found');
    const stillS1 = await s1.auth.getUser();
    expect(stillS1.error).toBeNull();
    const s1Token = (await s1.auth.getSession()).data.session!.access_token;
    expect((await s1.auth.signOut({ scope: 'local' })).error).toBeNull();
    const gone = await raw('GET', '/user', { headers: { authorization: `Bearer ${s1Token}` } });
    expect(gone.status).toBe(403);
    expect(gone.json).toMatchObject({ error_code: 'session_not_found' });

    const s4 = anonClient();
    const t4 = (await s4.auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!;
    expect((await s4.auth.signOut()).error).toBeNull();
    expect((await anonClient().auth.refreshSession({ refresh_token: t4.refresh_token })).error?.code).toBe('refresh_token_not_found');
    expect((await anonClient().auth.refreshSession({ refresh_token: t3.refresh_token })).error?.code).toBe('refresh_token_not_found');
    const bad = await raw('POST', '/logout?scope=everything', { headers: { authorization: `Bearer ${t4.access_token}` } });
    expect(bad.status).toBe(403);
  });
});

describe('password recovery with PKCE', () => {
  it('mails a link that redirects with ?code=, exchanged for a recovery session that sets a new password', async () => {
    const u = await createConfirmedUser();
    const client = pkceClient(await signupUrl());
    const { error } = await client.auth.resetPasswordForEmail(u.email, { redirectTo: 'http://127.0.0.1:5173/passwort-neu' });
    expect(error).toBeNull();
    const link = linkOf(await latestMail(u.email, 'Reset your password'));
    expect(link).toContain('token=pkce_');
    const hop = await location(link);
    expect(hop.status).toBe(303);
    const target = new URL(hop.location);
    expect(target.origin + target.pathname).toBe('http://127.0.0.1:5173/passwort-neu');
    const code = target.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.id).toBe(u.id);
    expect(decodeJwt(exchanged.data.session!.access_token).amr).toEqual([expect.objectContaining({ method: 'recovery' })]);
    expect((await client.auth.updateUser({ password: 'Recovered-1' })).error).toBeNull();
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: 'Recovered-1' })).error).toBeNull();

    const reused = await pkceClient().auth.exchangeCodeForSession(code);
    expect(reused.error?.code).toBe('pkce_code_verifier_not_found');
    const wrongVerifier = await raw('POST', '/token?grant_type=pkce', { body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }) });
    expect(wrongVerifier.status).toBe(404);
    expect(wrongVerifier.json).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('accepts the plain code_challenge_method and rejects a wrong verifier with 400 bad_code_verifier', async () => {
    const u = await createConfirmedUser();
    const verifier = `plain-${randomUUID()}-${randomUUID()}`;
    const rec = await raw('POST', '/recover', { url: await signupUrl(), body: JSON.stringify({ email: u.email, code_challenge: verifier, code_challenge_method: 'plain' }) });
    expect(rec.status).toBe(200);
    const code = new URL((await location(linkOf(await latestMail(u.email, 'Reset your password')))).location).searchParams.get('code')!;
    const wrong = await raw('POST', '/token?grant_type=pkce', { body: JSON.stringify({ auth_code: code, code_verifier: `${verifier}x` }) });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error_code: 'bad_code_verifier' });
    const ok = await raw('POST', '/token?grant_type=pkce', { body: JSON.stringify({ auth_code: code, code_verifier: verifier }) });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ token_type: 'bearer', user: { id: u.id } });
    const short = await raw('POST', '/recover', { url: await signupUrl(), body: JSON.stringify({ email: u.email, code_challenge: 'short', code_challenge_method: 'plain' }) });
    expect(short.status).toBe(400);
    expect(short.json).toMatchObject({ error_code: 'validation_failed' });
  });

  it('expires mailed links after otp_expiry and PKCE codes after 5 minutes', async () => {
    const email = uniqueEmail('late');
    await (await signupClient()).auth.signUp({ email, password: PASSWORD });
    const mail = await latestMail(email);
    await db.query(`update auth.users set confirmation_sent_at = now() - interval '2 days' where email = $1`, [email]);
    const hop = await location(linkOf(mail));
    const frag = fragmentParams(hop.location);
    expect(frag.get('error')).toBe('access_denied');
    expect(frag.get('error_code')).toBe('otp_expired');
    expect(frag.get('error_description')).toBe('Email link is invalid or has expired');
    const otp = await (await signupClient()).auth.verifyOtp({ email, token: otpOf(mail), type: 'signup' });
    expect(otp.error?.code).toBe('otp_expired');
    expect((await db.query('select email_confirmed_at from auth.users where email = $1', [email])).rows[0].email_confirmed_at).toBeNull();

    const u = await createConfirmedUser();
    const client = pkceClient(await signupUrl());
    await client.auth.resetPasswordForEmail(u.email);
    const code = new URL((await location(linkOf(await latestMail(u.email, 'Reset your password')))).location).searchParams.get('code')!;
    await db.query(`update auth.flow_state set auth_code_issued_at = now() - interval '6 minutes' where auth_code = $1`, [code]);
    const late = await client.auth.exchangeCodeForSession(code);
    expect(late.error?.status).toBe(422);
    expect(late.error?.code).toBe('flow_state_expired');
  });

  it('answers 200 for unknown addresses without sending mail, accepts captcha_token, and validates input', async () => {
    const email = uniqueEmail('ghost');
    const res = await raw('POST', '/recover', { body: JSON.stringify({ email, gotrue_meta_security: { captcha_token: 'x' } }) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    expect(await mailsTo(email)).toEqual([]);
    const invalid = await raw('POST', '/recover', { body: JSON.stringify({ email: 'not-an-address' }) });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ error_code: 'validation_failed' });
  });

  it('sends magic links with signInWithOtp (sign-up confirmation for new addresses, otp_disabled without create)', async () => {
    const u = await createConfirmedUser();
    const client = await signupClient();
    expect((await client.auth.signInWithOtp({ email: u.email, options: { emailRedirectTo: 'http://127.0.0.1:5173/app' } })).error).toBeNull();
    const hop = await location(linkOf(await latestMail(u.email, 'Your sign-in link')));
    expect(hop.location.startsWith('http://127.0.0.1:5173/app#')).toBe(true);
    expect(fragmentParams(hop.location).get('type')).toBe('magiclink');

    const fresh = uniqueEmail('fresh');
    const signup = await signupClient();
    expect((await signup.auth.signInWithOtp({ email: fresh, options: { data: { full_name: 'Fresh' } } })).error).toBeNull();
    const confirm = await latestMail(fresh, 'Confirm your email address');
    const viaOtp = await signup.auth.verifyOtp({ email: fresh, token: otpOf(confirm), type: 'email' });
    expect(viaOtp.error).toBeNull();
    expect(viaOtp.data.user?.user_metadata).toMatchObject({ full_name: 'Fresh', email_verified: true });

    const none = await client.auth.signInWithOtp({ email: uniqueEmail('none'), options: { shouldCreateUser: false } });
    expect(none.error?.status).toBe(422);
    expect(none.error?.code).toBe('otp_disabled');
  });

  it('signs in with a magic link via verifyOtp(token_hash) from admin.generateLink', async () => {
    const u = await createConfirmedUser();
    const { data, error } = await admin.auth.admin.generateLink({ type: 'magiclink', email: u.email });
    expect(error).toBeNull();
    expect(data.properties!.verification_type).toBe('magiclink');
    expect(data.properties!.action_link).toContain('/auth/v1/verify?token=');
    expect(data.user!.id).toBe(u.id);
    const ok = await anonClient().auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'magiclink' });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.id).toBe(u.id);
    const again = await anonClient().auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'magiclink' });
    expect(again.error?.status).toBe(403);
    expect(again.error?.code).toBe('otp_expired');
  });
});

describe('admin API', () => {
  it('lists, creates, updates (ban, password, app_metadata) and deletes users', async () => {
    const email = uniqueEmail('adm');
    const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { full_name: 'Admin Made' }, app_metadata: { plan: 'free' } });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.app_metadata).toMatchObject({ provider: 'email', providers: ['email'], plan: 'free' });
    expect(created.data.user?.email_confirmed_at).toBeTruthy();

    const dup = await admin.auth.admin.createUser({ email, password: PASSWORD });
    expect(dup.error?.status).toBe(422);
    expect(dup.error?.code).toBe('email_exists');

    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(list.error).toBeNull();
    expect(list.data.users.length).toBe(2);
    expect((list.data as unknown as { total: number }).total).toBeGreaterThanOrEqual(2);
    expect((list.data as unknown as { nextPage: number | null }).nextPage).toBe(2);

    const earlier = (await anonClient().auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
    const banned = await admin.auth.admin.updateUserById(id, { ban_duration: '24h', app_metadata: { plan: 'pro', beta: true } });
    expect(banned.error).toBeNull();
    expect(banned.data.user?.banned_until).toBeTruthy();
    expect(banned.data.user?.app_metadata).toMatchObject({ provider: 'email', plan: 'pro', beta: true });
    const blocked = await anonClient().auth.signInWithPassword({ email, password: PASSWORD });
    expect(blocked.error?.code).toBe('user_banned');
    const heldToken = await raw('GET', '/user', { headers: { authorization: `Bearer ${earlier.access_token}` } });
    expect(heldToken.status).toBe(403);
    expect(heldToken.json).toMatchObject({ error_code: 'user_banned' });
    const unbanned = await admin.auth.admin.updateUserById(id, { ban_duration: 'none', password: 'Admin-Set-1' });
    expect(unbanned.data.user?.banned_until).toBeUndefined();
    expect((await anonClient().auth.signInWithPassword({ email, password: 'Admin-Set-1' })).error).toBeNull();
    const badBan = await admin.auth.admin.updateUserById(id, { ban_duration: 'forever' });
    expect(badBan.error?.status).toBe(400);
    expect(badBan.error?.code).toBe('validation_failed');

    const fetched = await admin.auth.admin.getUserById(id);
    expect(fetched.data.user?.user_metadata).toMatchObject({ full_name: 'Admin Made' });
    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    const missing = await admin.auth.admin.getUserById(id);
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe('user_not_found');
    expect((await db.query('select 1 from auth.identities where user_id = $1', [id])).rowCount).toBe(0);
  });

  it('requires the service_role key: anon gets 403 not_admin', async () => {
    const res = await raw('GET', '/admin/users', { headers: { authorization: `Bearer ${config.anonKey}` } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 403, error_code: 'not_admin', msg: 'User not allowed' });
    const viaClient = await anonClient().auth.admin.listUsers();
    expect(viaClient.error?.status).toBe(403);
  });

  it('generates signup, invite, recovery and email_change links whose action links work', async () => {
    const email = uniqueEmail('gen');
    const signup = await admin.auth.admin.generateLink({ type: 'signup', email, password: PASSWORD, options: { redirectTo: 'http://127.0.0.1:5173/da' } });
    expect(signup.error).toBeNull();
    expect(signup.data.properties).toMatchObject({ verification_type: 'signup', redirect_to: 'http://127.0.0.1:5173/da' });
    expect(signup.data.properties!.email_otp).toMatch(/^\d{6}$/);
    const hop = await location(signup.data.properties!.action_link);
    expect(hop.location.startsWith('http://127.0.0.1:5173/da#access_token=')).toBe(true);
    expect(fragmentParams(hop.location).get('type')).toBe('signup');

    const recovery = await admin.auth.admin.generateLink({ type: 'recovery', email });
    expect(recovery.data.properties!.verification_type).toBe('recovery');
    const ghost = await admin.auth.admin.generateLink({ type: 'recovery', email: uniqueEmail('ghost') });
    expect(ghost.error?.status).toBe(404);
    expect(ghost.error?.code).toBe('user_not_found');

    const invitee = uniqueEmail('invitee');
    const invite = await admin.auth.admin.generateLink({ type: 'invite', email: invitee });
    expect(invite.data.user?.invited_at).toBeTruthy();
    const accepted = await location(invite.data.properties!.action_link);
    expect(fragmentParams(accepted.location).get('type')).toBe('invite');

    const newEmail = uniqueEmail('moved');
    const change = await admin.auth.admin.generateLink({ type: 'email_change_new', email, newEmail });
    expect(change.error).toBeNull();
    expect(change.data.properties!.action_link).toContain('type=email_change');

    // Invitations by mail are not the product's: its send-email hook refuses Auth's invite mail.
    const invited = uniqueEmail('mailed');
    const mailed = await admin.auth.admin.inviteUserByEmail(invited);
    expect([mailed.error?.status, mailed.error?.code]).toEqual([403, 'unknown']);
    expect(await mailsTo(invited)).toEqual([]);
  });
});

describe('OAuth providers as config.toml enables them (GoTrue external.go, settings.go, linking.go)', () => {
  /** The provider flow through the development page: returns the final redirect after /callback. */
  async function runProvider(url: string, answer: { decision?: 'continue' | 'cancel'; email?: string; name?: string; verified?: boolean }): Promise<string> {
    const toPage = await location(url);
    expect(toPage.status).toBe(302);
    expect(toPage.location).toContain('/auth/v1/local-oauth?');
    const page = await fetch(toPage.location);
    expect(page.status).toBe(200);
    const state = new URL(toPage.location).searchParams.get('state')!;
    const form: Record<string, string> = { state, email: answer.email ?? '', name: answer.name ?? '', decision: answer.decision ?? 'continue' };
    if (answer.verified) form.email_verified = 'true';
    const posted = await location(`${AUTH_URL}/local-oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    expect(posted.location).toContain('/auth/v1/callback?');
    const back = await location(posted.location);
    expect(back.status).toBe(302);
    return back.location;
  }

  async function oauthUrl(provider: 'google' | 'linkedin_oidc', client: SupabaseClient = anonClient(), redirectTo = 'http://127.0.0.1:5173/auth/callback'): Promise<string> {
    const { data, error } = await client.auth.signInWithOAuth({ provider, options: { redirectTo, skipBrowserRedirect: true } });
    expect(error).toBeNull();
    return data.url!;
  }

  async function userRow(email: string) {
    return (await db.query<{ id: string; email_confirmed_at: Date | null; encrypted_password: string | null; raw_user_meta_data: Record<string, unknown>; raw_app_meta_data: Record<string, unknown> }>(
      'select id, email_confirmed_at, encrypted_password, raw_user_meta_data, raw_app_meta_data from auth.users where email = $1', [email])).rows[0];
  }

  /** The links of the auth_confirm_signup mails queued for `email` (public.send_email_hook), oldest first. */
  async function queuedConfirmations(email: string): Promise<string[]> {
    return (await db.query<{ link: string }>(
      `select payload ->> 'link' as link from public.email_queue where email = $1 and email_type = 'auth_confirm_signup' order by id`, [email])).rows.map((r) => r.link);
  }

  async function queuedConfirmLink(email: string): Promise<string> {
    const link = (await queuedConfirmations(email)).at(-1);
    if (!link) throw new Error(`no confirmation queued for ${email}`);
    return link;
  }

  async function identitiesOf(userId: string): Promise<string[]> {
    return (await db.query<{ provider: string }>('select provider from auth.identities where user_id = $1 order by created_at', [userId])).rows.map((r) => r.provider);
  }

  it('enables exactly the providers of config.toml: /settings, /authorize for disabled (400 provider is not enabled) and unknown ones', async () => {
    const settings = await raw('GET', '/settings');
    const enabled = Object.entries(settings.json.external as Record<string, boolean>).filter(([, on]) => on).map(([name]) => name).sort();
    expect(enabled).toEqual(['email', 'google', 'linkedin_oidc']);
    const disabled = await raw('GET', '/authorize?provider=github', { apikey: null, headers: { 'X-Supabase-Api-Version': '2024-01-01' } });
    expect([disabled.status, disabled.json]).toEqual([400, { code: 'validation_failed', message: 'Unsupported provider: provider is not enabled' }]);
    const deprecated = await raw('GET', '/authorize?provider=linkedin', { apikey: null });
    expect(deprecated.json).toMatchObject({ code: 400, error_code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' });
    const unknown = await raw('GET', '/authorize?provider=MySpace', { apikey: null });
    expect([unknown.status, unknown.json]).toEqual([400, { code: 400, error_code: 'validation_failed', msg: 'Unsupported provider: Provider myspace could not be found' }]);
    const missing = await raw('GET', '/authorize', { apikey: null });
    expect(missing.json).toMatchObject({ msg: 'Unsupported provider: Provider  could not be found' });
    const viaClient = await anonClient().auth.signInWithOAuth({ provider: 'github', options: { skipBrowserRedirect: true } });
    // supabase-js only builds the URL; the browser would land on the 400 above
    expect((await location(viaClient.data.url!)).status).toBe(400);
    const google = await location(`${AUTH_URL}/authorize?provider=Google`);
    expect(google.status).toBe(302);
    expect(new URL(google.location).pathname).toBe('/auth/v1/local-oauth');
  });

  it('refuses an enabled provider whose credentials are set (the stack reaches no real provider); /settings follows the config', async () => {
    const m = await mountAuth({
      emailSentPerHour: 30,
      externalProviders: { google: { enabled: true, hasCredentials: true }, github: { enabled: true, hasCredentials: false }, apple: { enabled: false, hasCredentials: false } },
    });
    const real = await fetch(`${m.url}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect([real.status, ((await real.json()) as { error_code: string }).error_code]).toEqual([501, 'local_stack_unsupported']);
    expect((await fetch(`${m.url}/auth/v1/authorize?provider=github`, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(`${m.url}/auth/v1/authorize?provider=apple`, { redirect: 'manual' })).status).toBe(400);
    const settings = (await (await fetch(`${m.url}/auth/v1/settings`)).json()) as { external: Record<string, boolean> };
    expect(Object.entries(settings.external).filter(([, on]) => on).map(([name]) => name).sort()).toEqual(['email', 'github', 'google']);
  });

  it('serves a development page marked as such, with "verified" unchecked and no accounts offered', async () => {
    await createConfirmedUser(uniqueEmail('listed'));
    const page = await fetch((await location(await oauthUrl('google'))).location);
    const html = await page.text();
    expect(html).toContain('<title>Development sign-in page — not Google</title>');
    expect(html).toContain('<h1>Development sign-in page — not Google</h1>');
    expect(html).toMatch(/<div class="banner" role="note"[^>]*>Development sign-in page — not Google\./);
    const checkbox = /<input id="email_verified"[^>]*>/.exec(html)?.[0];
    expect(checkbox).toBe('<input id="email_verified" name="email_verified" type="checkbox" value="true">');
    expect(html).toContain('Google reports this address as verified');
    expect(html).not.toContain('@test.teamwerk.local');
    expect(html).not.toContain('<datalist');
    const linkedin = await (await fetch((await location(await oauthUrl('linkedin_oidc'))).location)).text();
    expect(linkedin).toContain('<h1>Development sign-in page — not LinkedIn</h1>');
  });

  it('a new verified address creates a confirmed account and signs in (implicit flow)', async () => {
    const email = uniqueEmail('google');
    const final = await runProvider(await oauthUrl('google'), { email, name: 'Gustav Google', verified: true });
    expect(final.startsWith('http://127.0.0.1:5173/auth/callback#')).toBe(true);
    const frag = fragmentParams(final);
    expect(frag.get('provider_token')).toBeTruthy();
    const { data: me } = await anonClient().auth.getUser(frag.get('access_token')!);
    expect(me.user?.email).toBe(email);
    expect(me.user?.email_confirmed_at).toBeTruthy();
    expect(me.user?.app_metadata).toMatchObject({ provider: 'google', providers: ['google'] });
    expect(me.user?.user_metadata).toMatchObject({ full_name: 'Gustav Google', email_verified: true });
    expect(me.user?.identities?.map((i) => [i.provider, i.identity_data?.email_verified])).toEqual([['google', true]]);
    expect(decodeJwt(frag.get('access_token')!).amr).toEqual([expect.objectContaining({ method: 'oauth' })]);
    // the same identity signs in again (account exists)
    const again = fragmentParams(await runProvider(await oauthUrl('google'), { email, name: 'Gustav G.', verified: true }));
    expect(decodeJwt(again.get('access_token')!).sub).toBe(me.user?.id);
  });

  it('a new unverified address creates an unconfirmed account, mails a confirmation and answers 422 provider_email_needs_verification', async () => {
    const email = uniqueEmail('unverified');
    const final = new URL(await runProvider(await oauthUrl('google'), { email, name: 'Una Verified' }));
    expect(final.origin + final.pathname).toBe('http://127.0.0.1:5173/auth/callback');
    expect(Object.fromEntries(final.searchParams)).toEqual({
      error: 'access_denied',
      error_code: 'provider_email_needs_verification',
      error_description: 'Unverified email with google. A confirmation email has been sent to your google email',
    });
    expect(fragmentParams(final.toString()).get('error_code')).toBe('provider_email_needs_verification');
    const row = (await userRow(email))!;
    expect(row.email_confirmed_at).toBeNull();
    expect(await identitiesOf(row.id)).toEqual(['google']);
    // The confirmation goes through the project's send-email hook into the product's queue.
    const link = await queuedConfirmLink(email);
    expect(new URL(link).searchParams.get('type')).toBe('signup');
    const confirmed = await location(link);
    expect(fragmentParams(confirmed.location).get('access_token')).toBeTruthy();
    expect((await userRow(email))!.email_confirmed_at).not.toBeNull();
  });

  it('a verified address links to the one existing account with it (PKCE)', async () => {
    const u = await createConfirmedUser();
    const client = pkceClient();
    const url = await oauthUrl('linkedin_oidc', client);
    expect(url).toContain('code_challenge=');
    const final = new URL(await runProvider(url, { email: u.email, name: 'Lina Linked', verified: true }));
    const exchanged = await client.auth.exchangeCodeForSession(final.searchParams.get('code')!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.id).toBe(u.id);
    expect(exchanged.data.user?.identities?.map((i) => i.provider)).toEqual(['email', 'linkedin_oidc']);
    expect(exchanged.data.user?.app_metadata).toMatchObject({ provider: 'email', providers: ['email', 'linkedin_oidc'] });
    // the password still works: a confirmed account keeps it
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: u.password })).error).toBeNull();
  });

  it('an unverified address of an existing account never reaches it: a new account without e-mail, 422', async () => {
    const u = await createConfirmedUser();
    const before = (await mailsTo(u.email)).length;
    const final = new URL(await runProvider(await oauthUrl('linkedin_oidc'), { email: u.email, name: 'Mallory' }));
    expect(final.searchParams.get('error_code')).toBe('provider_email_needs_verification');
    expect(final.searchParams.get('error_description')).toBe('Unverified email with linkedin_oidc. Verify the email with linkedin_oidc in order to sign in');
    expect(await identitiesOf(u.id)).toEqual(['email']);
    expect((await mailsTo(u.email)).length).toBe(before);
    // the identity went to a new account with no e-mail address (GoTrue blanks a taken candidate address)
    const other = await db.query<{ email: string | null; email_confirmed_at: Date | null }>(
      `select u.email, u.email_confirmed_at from auth.identities i join auth.users u on u.id = i.user_id where i.provider = 'linkedin_oidc' and i.email = $1`, [u.email]);
    expect(other.rows).toEqual([{ email: null, email_confirmed_at: null }]);
    // the demo admin is not reachable with an unverified address either
    const admin = new URL(await runProvider(await oauthUrl('google'), { email: 'admin@teamwerk.test', name: 'Not Admin' }));
    expect(admin.searchParams.get('error_code')).toBe('provider_email_needs_verification');
  });

  it('an unconfirmed account linked with a verified address loses its password and other identities, then is confirmed', async () => {
    const email = uniqueEmail('preclaimed');
    const created = await admin.auth.admin.createUser({ email, password: PASSWORD, user_metadata: { planted: 'by someone else' } });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(await identitiesOf(id)).toEqual(['email']);
    const frag = fragmentParams(await runProvider(await oauthUrl('google'), { email, name: 'Real Owner', verified: true }));
    expect(decodeJwt(frag.get('access_token')!).sub).toBe(id);
    const row = (await userRow(email))!;
    expect(row.email_confirmed_at).not.toBeNull();
    expect(row.encrypted_password).toBeNull();
    expect(await identitiesOf(id)).toEqual(['google']);
    expect(row.raw_app_meta_data).toMatchObject({ provider: 'google', providers: ['google'] });
    expect(row.raw_user_meta_data.planted).toBeUndefined();
    expect(row.raw_user_meta_data).toMatchObject({ full_name: 'Real Owner', email_verified: true });
    expect((await anonClient().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
  });

  it('an unconfirmed account signing in unverified loses its other identities and password, gets a confirmation mail and 422', async () => {
    const email = uniqueEmail('halfway');
    const first = new URL(await runProvider(await oauthUrl('google'), { email, name: 'Half Way' }));
    expect(first.searchParams.get('error_code')).toBe('provider_email_needs_verification');
    const id = (await userRow(email))!.id;
    // something else got into the unconfirmed account meanwhile: a password and another identity
    await admin.auth.admin.updateUserById(id, { password: PASSWORD });
    await db.query(`insert into auth.identities (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
      values (gen_random_uuid(), $1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text), 'email', now(), now())`, [id, email]);
    expect(await identitiesOf(id)).toEqual(['google', 'email']);
    await new Promise((r) => setTimeout(r, 1100)); // max_frequency of the confirmation mail
    const second = new URL(await runProvider(await oauthUrl('google'), { email, name: 'Half Way' }));
    expect(second.searchParams.get('error_description')).toBe('Unverified email with google. A confirmation email has been sent to your google email');
    const row = (await userRow(email))!;
    expect([row.email_confirmed_at, row.encrypted_password]).toEqual([null, null]);
    expect(await identitiesOf(id)).toEqual(['google']);
    expect((await queuedConfirmations(email)).length).toBe(2);
    // the provider verifies the address later: the same account is confirmed and signed in
    const third = fragmentParams(await runProvider(await oauthUrl('google'), { email, name: 'Half Way', verified: true }));
    expect(decodeJwt(third.get('access_token')!).sub).toBe(id);
    expect((await userRow(email))!.email_confirmed_at).not.toBeNull();
  });

  it('refuses banned accounts (403 user_banned as access_denied) and passes a cancel on as access_denied', async () => {
    const email = uniqueEmail('banned');
    const frag = fragmentParams(await runProvider(await oauthUrl('google'), { email, name: 'Ban Me', verified: true }));
    const id = String(decodeJwt(frag.get('access_token')!).sub);
    expect((await admin.auth.admin.updateUserById(id, { ban_duration: '1h' })).error).toBeNull();
    const banned = new URL(await runProvider(await oauthUrl('google'), { email, name: 'Ban Me', verified: true }));
    expect(Object.fromEntries(banned.searchParams)).toEqual({ error: 'access_denied', error_code: 'user_banned', error_description: 'User is banned' });

    const cancelled = new URL(await runProvider(await oauthUrl('google', anonClient(), 'http://127.0.0.1:5173/login'), { decision: 'cancel' }));
    expect(cancelled.origin + cancelled.pathname).toBe('http://127.0.0.1:5173/login');
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.searchParams.get('error_description')).toBeTruthy();
    expect(fragmentParams(cancelled.toString()).get('error')).toBe('access_denied');
  });
});

describe('bad input', () => {
  it('answers malformed JSON, wrong types and huge bodies with GoTrue statuses; nothing stored changes', async () => {
    const emails = [uniqueEmail('t'), uniqueEmail('t'), uniqueEmail('huge')];
    const malformed = await raw('POST', '/signup', { body: '{"email": "x@' });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: 400, error_code: 'bad_json' });
    const wrongType = await raw('POST', '/signup', { body: JSON.stringify({ email: 12345, password: PASSWORD }) });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json).toMatchObject({ error_code: 'bad_json' });
    expect(String(wrongType.json.msg)).toContain('SignupParams.email of type string');
    const wrongData = await raw('POST', '/signup', { body: JSON.stringify({ email: emails[0], password: PASSWORD, data: 'x' }) });
    expect(wrongData.status).toBe(400);
    const arrayBody = await raw('POST', '/signup', { body: '[1,2]' });
    expect(arrayBody.status).toBe(400);
    const missing = await raw('POST', '/signup', { body: JSON.stringify({ email: emails[1] }) });
    expect(missing.json).toMatchObject({ code: 400, error_code: 'validation_failed', msg: 'Signup requires a valid password' });
    const huge = await raw('POST', '/signup', {
      body: JSON.stringify({ email: emails[2], password: PASSWORD, data: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect(huge.json).toMatchObject({ error_code: 'request_entity_too_large' });
    const verify = await raw('POST', '/verify', { body: JSON.stringify({ type: 'signup', token: '123456' }) });
    expect(verify.status).toBe(400);
    expect(await storedUsers(emails)).toBe(0);
    for (const e of emails) expect(await mailsTo(e)).toEqual([]);

    const service = { apikey: config.serviceRoleKey, headers: { authorization: `Bearer ${config.serviceRoleKey}` } };
    const badId = await raw('GET', '/admin/users/%E0%A4%A', service);
    expect(badId.status).toBe(404);
    expect(badId.json).toMatchObject({ error_code: 'validation_failed', msg: 'user_id must be an UUID' });
    const badPage = await raw('GET', '/admin/users?page=abc', service);
    expect(badPage.status).toBe(400);
    expect(badPage.json).toMatchObject({ error_code: 'validation_failed' });
    const badCreate = await raw('POST', '/admin/users', { ...service, body: JSON.stringify({ email: uniqueEmail('bad'), email_confirm: 'yes' }) });
    expect(badCreate.json).toMatchObject({ code: 400, error_code: 'bad_json' });

    // An existing user: a bad update changes nothing.
    const u = await createConfirmedUser(uniqueEmail('keep'), PASSWORD, { user_metadata: { full_name: 'Keep' } });
    const token = (await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!.access_token;
    const before = (await db.query('select updated_at, raw_user_meta_data, encrypted_password from auth.users where id = $1', [u.id])).rows[0];
    const auth = { authorization: `Bearer ${token}` };
    expect((await raw('PUT', '/user', { body: JSON.stringify({ data: 'x', password: 'Changed-1!' }), headers: auth })).status).toBe(400);
    expect((await raw('PUT', '/user', { body: '{"data": {"full_name": "X"', headers: auth })).json).toMatchObject({ error_code: 'bad_json' });
    expect((await raw('PUT', '/user', { body: JSON.stringify({ password: 'x' }), headers: auth })).json).toMatchObject({ error_code: 'weak_password' });
    expect((await raw('PUT', '/user', { body: JSON.stringify({ email: 'nope' }), headers: auth })).json).toMatchObject({ error_code: 'validation_failed' });
    const after = (await db.query('select updated_at, raw_user_meta_data, encrypted_password from auth.users where id = $1', [u.id])).rows[0];
    expect(after).toEqual(before);
    expect((await raw('GET', '/health')).status).toBe(200);
  });
});

describe('robustness', () => {
  it('answers garbage on every endpoint with a 4xx in GoTrue shape, never a 5xx', async () => {
    const u = await createConfirmedUser();
    const userToken = (await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD })).data.session!.access_token;
    const routes: [string, string, string | null][] = [
      ['POST', '/signup', null],
      ['POST', '/token?grant_type=password', null],
      ['POST', '/token?grant_type=refresh_token', null],
      ['POST', '/token?grant_type=pkce', null],
      ['PUT', '/user', userToken],
      ['POST', '/logout', userToken],
      ['POST', '/recover', null],
      ['POST', '/otp', null],
      ['POST', '/resend', null],
      ['POST', '/verify', null],
      ['POST', '/admin/users', config.serviceRoleKey],
      ['PUT', `/admin/users/${u.id}`, config.serviceRoleKey],
      ['POST', '/admin/generate_link', config.serviceRoleKey],
      ['POST', '/invite', config.serviceRoleKey],
    ];
    const bodies = [
      '{',
      'null',
      '[]',
      '"text"',
      '42',
      JSON.stringify({ email: ['a'], password: { x: 1 }, data: [], type: 7, token: false, refresh_token: 1, auth_code: {}, code_verifier: [] }),
      JSON.stringify({ email: 'x'.repeat(300) + '@example.com', password: 'p'.repeat(100), type: 'signup', token_hash: 'abc', ban_duration: '-' }),
      JSON.stringify({ email: 'bad@', code_challenge: 'short', code_challenge_method: 'S256', new_email: 'nope', redirect_to: 'javascript:alert(1)' }),
      '\u0000\u0001binary',
    ];
    const failures: string[] = [];
    for (const [method, path, token] of routes) {
      for (const body of bodies) {
        const res = await raw(method, path, { body, headers: token ? { authorization: `Bearer ${token}` } : {} });
        const shaped = res.status === 204 || res.status < 300 || typeof res.json.error_code === 'string' || typeof res.json.error === 'string';
        if (res.status >= 500 || !shaped) failures.push(`${method} ${path} ${body.slice(0, 30)} -> ${res.status} ${JSON.stringify(res.json).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: PASSWORD })).error).toBeNull();
  });
});

describe('rate limits', () => {
  it('limits password sign-ins per client IP (sign_in_sign_ups per 5 min), keyed by the rate-limit header (GoTrue performRateLimiting)', async () => {
    // The key is the first value of GOTRUE_RATE_LIMIT_HEADER (here CF-Connecting-IP, which the
    // gateway sets from the socket as Cloudflare does). Here the test plays the gateway.
    const limit = projectAuthSettings(config).rateLimits.signInSignUps;
    expect(limit).toBeLessThanOrEqual(200);
    const url = await signupUrl();
    const ip = `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
    const client = createClient(url, config.anonKey, { ...nodeClientOptions, global: { headers: { 'CF-Connecting-IP': ip, 'X-Forwarded-For': `203.0.113.${Math.floor(Math.random() * 250)}` } } });
    const codes: string[] = [];
    for (let i = 0; i <= limit; i++) {
      const { error } = await client.auth.signInWithPassword({ email: uniqueEmail('rl'), password: 'whatever1' });
      codes.push(error?.code ?? 'ok');
    }
    expect(codes.slice(0, limit).every((c) => c === 'invalid_credentials')).toBe(true);
    expect(codes[limit]).toBe('over_request_rate_limit');
    // another address keeps its own budget
    const other = createClient(url, config.anonKey, { ...nodeClientOptions, global: { headers: { 'CF-Connecting-IP': '2001:db8::1' } } });
    expect((await other.auth.signInWithPassword({ email: uniqueEmail('rl'), password: 'whatever1' })).error?.code).toBe('invalid_credentials');
  });

  it('Sb-Forwarded-For keys the limit when IP forwarding is on (supabase/auth internal/sbff, middleware.go)', async () => {
    const limit = projectAuthSettings(config).rateLimits.signInSignUps;
    const url = await signupUrl();
    const forwarded = `2001:db8:5bff::${randomUUID().slice(0, 4)}`;
    // a different CF-Connecting-IP on every request: the forwarded address is what counts
    const codes: string[] = [];
    for (let i = 0; i <= limit; i++) {
      const client = createClient(url, config.anonKey, { ...nodeClientOptions, global: { headers: { 'Sb-Forwarded-For': forwarded, 'CF-Connecting-IP': `198.51.100.${i % 250}` } } });
      codes.push((await client.auth.signInWithPassword({ email: uniqueEmail('sbff'), password: 'whatever1' })).error?.code ?? 'ok');
    }
    expect(codes[limit]).toBe('over_request_rate_limit');
    // an address that is no IP is ignored (falls back to the header), as GoTrue's parseSBFFHeader
    const junk = createClient(url, config.anonKey, { ...nodeClientOptions, global: { headers: { 'Sb-Forwarded-For': 'not-an-ip', 'CF-Connecting-IP': '2001:db8::77' } } });
    expect((await junk.auth.signInWithPassword({ email: uniqueEmail('sbff'), password: 'whatever1' })).error?.code).toBe('invalid_credentials');
  });

  it('the gateway passes Sb-Forwarded-For to Auth only with the secret key (docs "IP address forwarding")', async () => {
    // Through the gateway the audit log records the address Auth used: the forwarded one only
    // for the secret key; with the anon key the header is dropped and the socket address counts.
    const u = await createConfirmedUser();
    const forwarded = `2001:db8:ab::${randomUUID().slice(0, 4)}`;
    const addressOfLogin = async (apikey: string) => {
      const res = await fetch(`${AUTH_URL}/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey, authorization: `Bearer ${apikey}`, 'content-type': 'application/json', 'sb-forwarded-for': forwarded },
        body: JSON.stringify({ email: u.email, password: u.password }),
      });
      expect(res.status).toBe(200);
      const r = await db.query<{ ip: string }>(
        `select ip_address as ip from auth.audit_log_entries where payload ->> 'actor_id' = $1 and payload ->> 'action' = 'login' order by created_at desc limit 1`, [u.id]);
      return r.rows[0]?.ip;
    };
    expect(await addressOfLogin(config.secretKey)).toBe(forwarded);
    expect(await addressOfLogin(config.anonKey)).not.toBe(forwarded);
  });

  it('has no per-account password limit, as GoTrue (the product counts attempts in login-check)', async () => {
    const u = await createConfirmedUser();
    const guesses = await Promise.all(Array.from({ length: 15 }, (_, i) =>
      anonClient().auth.signInWithPassword({ email: u.email, password: `Wrong-guess-${i}` })));
    expect(guesses.map((g) => g.error?.code)).toEqual(Array.from({ length: 15 }, () => 'invalid_credentials'));
    expect((await anonClient().auth.signInWithPassword({ email: u.email, password: u.password })).error).toBeNull();
  });
});

describe('Auth hook errors answer as GoTrue (supabase/auth internal/hooks/hookserrors/hookserrors.go, internal/api/errors.go)', () => {
  let mounted: { url: string; server: http.Server; pool: pg.Pool } | null = null;
  beforeAll(async () => {
    // A custom access token hook whose answer the user's e-mail chooses.
    await db.query(`create schema if not exists parity_hooks`);
    await db.query(`create or replace function parity_hooks.access_token(event jsonb) returns jsonb language plpgsql as $fn$
      declare v_email text := (select email from auth.users where id = (event ->> 'user_id')::uuid);
      begin
        if v_email like 'hook403%' then return '{"error":{"http_code":403,"message":"Refused with 403"}}';
        elsif v_email like 'hook409%' then return '{"error":{"http_code":409,"message":"Refused with 409"}}';
        elsif v_email like 'hookzero%' then return '{"error":{"message":"Refused without a code"}}';
        elsif v_email like 'hookempty%' then return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message', ''), 'claims', event -> 'claims');
        end if;
        return jsonb_build_object('claims', event -> 'claims');
      end $fn$`);
    const pool = new pg.Pool({ connectionString: config.dbUrl, max: 2 });
    let handler: ((req: http.IncomingMessage, res: http.ServerResponse, subpath: string) => Promise<void>) | null = null;
    const server = http.createServer((req, res) => void handler!(req, res, new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/auth\/v1/, '') || '/'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settings = { ...projectAuthSettings(config), externalUrl: `${url}/auth/v1`, customAccessTokenHook: 'parity_hooks.access_token' };
    handler = createAuthHandler({
      pool,
      settings,
      mailer: { deliver: () => Promise.resolve({ id: 'none' }) },
      now: () => new Date(),
      limiter: new WindowLimiter(300_000),
      emailLimiter: new IntervalLimiter(settings.rateLimits.emailSentPerHour, 3600_000),
      log: () => undefined,
    });
    mounted = { url, server, pool };
  });
  afterAll(async () => {
    if (mounted) {
      await new Promise((r) => mounted!.server.close(r));
      await mounted.pool.end();
    }
    await db.query(`drop schema if exists parity_hooks cascade`);
  });

  async function grant(email: string, apiVersion: boolean) {
    const res = await fetch(`${mounted!.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: config.anonKey, ...(apiVersion ? { 'x-supabase-api-version': '2024-01-01' } : {}) },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, errorCodeHeader: res.headers.get('x-sb-error-code') };
  }

  it('a refusal is HTTP <http_code> with code unknown and no x-sb-error-code, in both API versions', async () => {
    const u = await createConfirmedUser(uniqueEmail('hook403'));
    expect(await grant(u.email, true)).toEqual({ status: 403, body: { code: 'unknown', message: 'Refused with 403' }, errorCodeHeader: null });
    expect(await grant(u.email, false)).toEqual({ status: 403, body: { code: 403, error_code: 'unknown', msg: 'Refused with 403' }, errorCodeHeader: null });
    const legacy = await createConfirmedUser(uniqueEmail('hook409'));
    expect((await grant(legacy.email, true)).status).toBe(409);
    // supabase-js reads it as AuthApiError(status, code 'unknown')
    const js = await createClient(mounted!.url, config.anonKey, nodeClientOptions).auth.signInWithPassword({ email: u.email, password: PASSWORD });
    expect([js.error?.status, js.error?.code, js.error?.message, js.data.session]).toEqual([403, 'unknown', 'Refused with 403', null]);
  });

  it('an error without http_code is a 500 unexpected_failure; one without a message is no error', async () => {
    const zero = await createConfirmedUser(uniqueEmail('hookzero'));
    expect(await grant(zero.email, true)).toMatchObject({ status: 500, body: { code: 'unexpected_failure', message: 'Refused without a code' } });
    const empty = await createConfirmedUser(uniqueEmail('hookempty'));
    expect((await grant(empty.email, true)).status).toBe(200);
  });

  it("the project's hook refuses the demo's suspended and legacy accounts the same way (through the gateway)", async () => {
    const suspended = await anonClient().auth.signInWithPassword({ email: 'suspended@teamwerk.test', password: 'Teamwerk!2026' });
    expect([suspended.error?.status, suspended.error?.code]).toEqual([403, 'unknown']);
    const legacy = await anonClient().auth.signInWithPassword({ email: 'olduser@teamwerk.test', password: 'Teamwerk!2026' });
    expect([legacy.error?.status, legacy.error?.code]).toEqual([409, 'unknown']);
  });
});

describe('password rules from config.toml (supabase/auth internal/api/password.go checkPasswordStrength)', () => {
  it('a password change through Auth must meet [auth] password_requirements and minimum_password_length', async () => {
    const u = await createConfirmedUser();
    const client = anonClient();
    expect((await client.auth.signInWithPassword({ email: u.email, password: u.password })).error).toBeNull();
    const lower = await client.auth.updateUser({ password: 'alllowercase1' });
    expect([lower.error?.status, lower.error?.code]).toEqual([422, 'weak_password']);
    expect((lower.error as { reasons?: string[] } | null)?.reasons).toEqual(['characters']);
    const short = await client.auth.updateUser({ password: 'Ab1' });
    expect((short.error as { reasons?: string[] } | null)?.reasons).toEqual(['length']);
    expect((await client.auth.updateUser({ password: 'Strong-Enough-2026' })).error).toBeNull();
  });

  it('maps password_requirements as the CLI does', () => {
    expect(authSettings(config, {}, { auth: { password_requirements: 'lower_upper_letters_digits' } }).passwordRequiredCharacters).toHaveLength(3);
    expect(authSettings(config, {}, { auth: { password_requirements: 'letters_digits' } }).passwordRequiredCharacters).toHaveLength(2);
    expect(authSettings(config, {}, {}).passwordRequiredCharacters).toEqual([]);
    expect(() => authSettings(config, {}, { auth: { password_requirements: 'strong' } })).toThrow(/password_requirements/);
  });
});

describe('settings', () => {
  it('reads supabase/config.toml [auth] like supabase start, with AUTH_* env taking precedence', () => {
    const toml = {
      auth: {
        jwt_expiry: 1800,
        minimum_password_length: 8,
        enable_anonymous_sign_ins: true,
        rate_limit: { sign_in_sign_ups: 5 },
        email: { enable_confirmations: false, double_confirm_changes: false, max_frequency: '1m0s', otp_expiry: 600 },
        external: {
          notion: { enabled: false, client_id: 'x', secret: 'y' },
          google: { enabled: true, client_id: 'env(TEAMWERK_TEST_UNSET_ID)', secret: 'env(TEAMWERK_TEST_UNSET_SECRET)' },
          github: { enabled: true, client_id: 'literal-id', secret: 'literal-secret' },
          linkedin: { enabled: true, client_id: 'x', secret: 'y' },
        },
      },
    };
    const s = authSettings(config, {}, toml);
    expect(s).toMatchObject({
      jwtExpirySeconds: 1800,
      minPasswordLength: 8,
      enableAnonymousSignIns: true,
      enableConfirmations: false,
      secureEmailChange: false,
      emailMaxFrequencySeconds: 60,
      otpExpirySeconds: 600,
      rateLimits: { signInSignUps: 5, tokenRefresh: 150 },
    });
    // enabled only as config.toml says (linkedin is dropped by the CLI as deprecated); credentials
    // are real when set and not an unset env()
    expect(s.externalProviders).toEqual({
      notion: { enabled: false, hasCredentials: true },
      google: { enabled: true, hasCredentials: false },
      github: { enabled: true, hasCredentials: true },
      linkedin: { enabled: false, hasCredentials: true },
    });
    expect(authSettings(config, { TEAMWERK_TEST_UNSET_ID: 'id', TEAMWERK_TEST_UNSET_SECRET: 'secret' }, toml).externalProviders.google).toEqual({ enabled: true, hasCredentials: true });
    expect(authSettings(config, {}).externalProviders).toEqual({});
    expect(projectAuthSettings(config, {}).externalProviders).toEqual({
      google: { enabled: true, hasCredentials: false },
      linkedin_oidc: { enabled: true, hasCredentials: false },
    });
    expect(projectAuthSettings(config, {}).rateLimits.emailSentPerHour).toBe(1000);
    const env = authSettings(config, { AUTH_ENABLE_CONFIRMATIONS: 'true', AUTH_EMAIL_MAX_FREQUENCY: '0', AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000' }, toml);
    expect(env).toMatchObject({ enableConfirmations: true, emailMaxFrequencySeconds: 0, rateLimits: { signInSignUps: 1000 } });
    expect(authSettings(config, { GOTRUE_MAILER_AUTOCONFIRM: 'true' }).enableConfirmations).toBe(false);
    expect(authSettings(config, {})).toMatchObject({ enableConfirmations: true, minPasswordLength: 6, emailMaxFrequencySeconds: 1, jwtExpirySeconds: 3600 });
  });
});

describe('in-process handler with other settings', () => {
  let server: http.Server;
  let url: string;
  let pool: pg.Pool;
  const sent: OutgoingMail[] = [];

  async function start(overrides: Partial<AuthSettings>): Promise<void> {
    const base = authSettings(config, {});
    server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      void handler(req, res, path.replace(/^\/auth\/v1/, '') || '/');
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settings = { ...base, externalUrl: `${url}/auth/v1`, ...overrides };
    const handler = createAuthHandler({
      pool,
      settings,
      mailer: { deliver: async (m) => (sent.push(m), { id: randomUUID() }) },
      now: () => new Date(),
      limiter: new WindowLimiter(60_000),
      emailLimiter: new IntervalLimiter(settings.rateLimits.emailSentPerHour, 3600_000),
      log: (scope, message) => console.error(scope, message),
    });
  }

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: config.dbUrl, max: 4 });
    await start({
      enableConfirmations: false,
      emailMaxFrequencySeconds: 60,
      enableAnonymousSignIns: true,
      enableManualLinking: true,
      externalProviders: { google: { enabled: true, hasCredentials: false } },
    });
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await pool.end();
  });

  it('signs up with a session right away when confirmations are off; a second sign-up is 422 user_already_exists', async () => {
    const email = uniqueEmail('auto');
    const client = createClient(url, config.anonKey, nodeClientOptions);
    const { data, error } = await client.auth.signUp({ email, password: PASSWORD, options: { data: { full_name: 'Auto' } } });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(sent.filter((m) => m.to.includes(email))).toEqual([]);
    const again = await client.auth.signUp({ email, password: PASSWORD });
    expect(again.error?.status).toBe(422);
    expect(again.error?.code).toBe('user_already_exists');
  });

  it('signs in anonymously when enabled (disabled on the stack: 422) and upgrades with an e-mail address', async () => {
    const disabled = await anonClient().auth.signInAnonymously();
    expect(disabled.error?.status).toBe(422);
    expect(disabled.error?.code).toBe('anonymous_provider_disabled');
    const client = createClient(url, config.anonKey, nodeClientOptions);
    const { data, error } = await client.auth.signInAnonymously({ options: { data: { locale: 'de' } } });
    expect(error).toBeNull();
    const claims = decodeJwt(data.session!.access_token);
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', email: '', user_metadata: { locale: 'de' } });
    expect(claims.amr).toEqual([expect.objectContaining({ method: 'anonymous' })]);
    const email = uniqueEmail('anon');
    const upgraded = await client.auth.updateUser({ email });
    expect(upgraded.error).toBeNull();
    expect(upgraded.data.user).toMatchObject({ email, is_anonymous: false });
  });

  it('still mails an e-mail change for regular users when confirmations are off', async () => {
    const u = await createConfirmedUser();
    const client = createClient(url, config.anonKey, nodeClientOptions);
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const newEmail = uniqueEmail('chg');
    const res = await client.auth.updateUser({ email: newEmail });
    expect(res.error).toBeNull();
    expect(res.data.user).toMatchObject({ email: u.email, new_email: newEmail });
    const mail = sent.filter((m) => m.to.includes(newEmail)).at(-1)!;
    const hop = await location(linkOf(mail));
    const { data } = await client.auth.getUser(fragmentParams(hop.location).get('access_token')!);
    expect(data.user?.email).toBe(newEmail);
  });

  it('links and unlinks identities when manual linking is enabled (404 manual_linking_disabled on the stack)', async () => {
    const u = await createConfirmedUser();
    const onStack = anonClient();
    await onStack.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const disabled = await onStack.auth.linkIdentity({ provider: 'google' });
    expect(disabled.error?.status).toBe(404);
    expect(disabled.error?.code).toBe('manual_linking_disabled');

    const client = createClient(url, config.anonKey, nodeClientOptions);
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const { data, error } = await client.auth.linkIdentity({ provider: 'google', options: { redirectTo: 'http://127.0.0.1:5173/user/settings' } });
    expect(error).toBeNull();
    const page = await location(data.url!);
    expect(page.status).toBe(200);
    const state = new URL(data.url!).searchParams.get('state')!;
    const answer = await location(`${url}/auth/v1/local-oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, email: uniqueEmail('gmail'), name: 'Linked', decision: 'continue' }).toString(),
    });
    const back = await location(answer.location);
    expect(back.location.startsWith('http://127.0.0.1:5173/user/settings#access_token=')).toBe(true);
    const identities = await client.auth.getUserIdentities();
    expect(identities.data?.identities.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    const me = (await client.auth.getUser()).data.user!;
    expect(me.email).toBe(u.email);
    expect(me.app_metadata.providers).toEqual(expect.arrayContaining(['email', 'google']));

    const google = identities.data!.identities.find((i) => i.provider === 'google')!;
    expect((await client.auth.unlinkIdentity(google)).error).toBeNull();
    const left = (await client.auth.getUserIdentities()).data!.identities;
    expect(left.map((i) => i.provider)).toEqual(['email']);
    const last = await client.auth.unlinkIdentity(left[0]!);
    expect(last.error?.status).toBe(422);
    expect(last.error?.code).toBe('single_identity_not_deletable');
  });
});

describe('Auth e-mail limits: max_frequency per user and kind, email_sent per hour (GoTrue internal/api/mail.go)', () => {
  const to = (m: MountedAuth, address: string) => m.sent.filter((x) => x.to.includes(address));

  it('the interval limiter restarts its count in whole hours counted from its start, not per request', () => {
    const t0 = Date.parse('2026-01-01T10:00:00Z');
    const limiter = new IntervalLimiter(2, 3600_000, t0);
    expect([limiter.allow(t0), limiter.allow(t0 + 1000), limiter.allow(t0 + 2000)]).toEqual([true, true, false]);
    expect(limiter.allow(t0 + 3599_999)).toBe(false);
    // the window that starts at t0 + 1 h: a fresh count, whenever in it the next mail comes
    expect([limiter.allow(t0 + 3600_000 + 59 * 60_000), limiter.allow(t0 + 3600_000 + 59 * 60_000 + 1), limiter.allow(t0 + 7199_999)]).toEqual([true, true, false]);
    expect(limiter.allow(t0 + 3 * 3600_000 + 5)).toBe(true);
    const none = new IntervalLimiter(0, 3600_000, t0);
    expect(none.allow(t0)).toBe(false);
  });

  it('max_frequency applies per user and kind on magic link, recovery, resend, e-mail change; not on invites', async () => {
    const m = await mountAuth({ emailSentPerHour: 1000, emailMaxFrequencySeconds: 60 });
    const client = m.client();
    const u = await createConfirmedUser();
    const frequency = { status: 429, code: 'over_email_send_rate_limit' };
    // magic link and recovery share recovery_sent_at, as in GoTrue
    expect((await client.auth.signInWithOtp({ email: u.email, options: { shouldCreateUser: false } })).error).toBeNull();
    const otp = await client.auth.signInWithOtp({ email: u.email, options: { shouldCreateUser: false } });
    expect({ status: otp.error?.status, code: otp.error?.code }).toEqual(frequency);
    expect(otp.error?.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    expect((await client.auth.resetPasswordForEmail(u.email)).error?.code).toBe('over_email_send_rate_limit');
    expect(to(m, u.email).length).toBe(1);
    // an e-mail change is its own kind
    await client.auth.signInWithPassword({ email: u.email, password: PASSWORD });
    const newEmail = uniqueEmail('freq-new');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    expect((await client.auth.updateUser({ email: uniqueEmail('freq-other') })).error?.code).toBe('over_email_send_rate_limit');
    expect((await client.auth.resend({ type: 'email_change', email: u.email })).error?.code).toBe('over_email_send_rate_limit');
    // sign-up confirmation: resend within the interval
    const fresh = uniqueEmail('freq-signup');
    expect((await m.client().auth.signUp({ email: fresh, password: PASSWORD })).error).toBeNull();
    expect((await m.client().auth.resend({ type: 'signup', email: fresh })).error?.code).toBe('over_email_send_rate_limit');
    expect(to(m, fresh).length).toBe(1);
    // invites have no interval (GoTrue's sendInvite)
    const service = createClient(m.url, config.serviceRoleKey, nodeClientOptions);
    const invitee = uniqueEmail('freq-invite');
    expect((await service.auth.admin.inviteUserByEmail(invitee)).error).toBeNull();
    expect((await service.auth.admin.inviteUserByEmail(invitee)).error).toBeNull();
    expect(to(m, invitee).length).toBe(2);
  });

  it('recovery for an address without an account answers 200 every time and sends nothing (GoTrue recover.go)', async () => {
    const m = await mountAuth({ emailSentPerHour: 1000, emailMaxFrequencySeconds: 60 });
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 3; i++) expect((await m.client().auth.resetPasswordForEmail(ghost)).error).toBeNull();
    expect(m.sent).toEqual([]);
  });

  it('email_sent is one budget for every Auth mail of the project: 429 "email rate limit exceeded" once used up', async () => {
    const m = await mountAuth({ emailSentPerHour: 4, emailMaxFrequencySeconds: 0 });
    const [a, b] = [await createConfirmedUser(), await createConfirmedUser()];
    const signedIn = m.client();
    await signedIn.auth.signInWithPassword({ email: b.email, password: PASSWORD });
    const stranger = uniqueEmail('stranger');
    // four sends from four paths (an e-mail change to both addresses is one send)
    expect((await m.client().auth.signInWithOtp({ email: a.email, options: { shouldCreateUser: false } })).error).toBeNull();
    expect((await m.client().auth.resetPasswordForEmail(b.email)).error).toBeNull();
    expect((await signedIn.auth.updateUser({ email: stranger })).error).toBeNull();
    expect((await m.client().auth.signUp({ email: uniqueEmail('budget'), password: PASSWORD })).error).toBeNull();
    expect(m.sent.length).toBe(5);
    const over = await m.client().auth.signInWithOtp({ email: a.email, options: { shouldCreateUser: false } });
    expect([over.error?.status, over.error?.code, over.error?.message]).toEqual([429, 'over_email_send_rate_limit', 'email rate limit exceeded']);
    const raw429 = await fetch(`${m.url}/auth/v1/resend`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'email_change', email: b.email }),
    });
    expect([raw429.status, await raw429.json()]).toEqual([429, { code: 429, error_code: 'over_email_send_rate_limit', msg: 'email rate limit exceeded' }]);
    const service = createClient(m.url, config.serviceRoleKey, nodeClientOptions);
    expect((await service.auth.admin.inviteUserByEmail(uniqueEmail('late-invite'))).error?.code).toBe('over_email_send_rate_limit');
    expect((await m.client().auth.resetPasswordForEmail(a.email)).error?.code).toBe('over_email_send_rate_limit');
    expect(m.sent.length).toBe(5);
    expect(to(m, stranger).length).toBe(1);
    // nothing was stored for the refused mails: the magic link of the first send still signs in
    const link = linkOf(to(m, a.email).at(-1)!);
    expect(link).toContain('type=magiclink');
    expect(fragmentParams((await location(link)).location).get('access_token')).toBeTruthy();
  });

  it('email_sent = 0 refuses every Auth mail; with confirmations off the hourly budget is not applied (GoTrue)', async () => {
    const zero = await mountAuth({ emailSentPerHour: 0, emailMaxFrequencySeconds: 0 });
    const u = await createConfirmedUser();
    expect((await zero.client().auth.resetPasswordForEmail(u.email)).error?.code).toBe('over_email_send_rate_limit');
    expect(zero.sent).toEqual([]);
    const autoconfirm = await mountAuth({ emailSentPerHour: 1, emailMaxFrequencySeconds: 0, enableConfirmations: false });
    for (let i = 0; i < 3; i++) expect((await autoconfirm.client().auth.resetPasswordForEmail(u.email)).error).toBeNull();
    expect(to(autoconfirm, u.email).length).toBe(3);
  });

  it('the stack applies config.toml: email_sent and max_frequency of [auth.rate_limit] / [auth.email]', () => {
    const s = projectAuthSettings(config, {});
    expect({ perHour: s.rateLimits.emailSentPerHour, frequency: s.emailMaxFrequencySeconds }).toEqual({ perHour: 1000, frequency: 1 });
  });
});
