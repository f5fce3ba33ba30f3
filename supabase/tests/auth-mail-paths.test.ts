/**
 * Issue 31 §1, §2: the Auth paths that send mail, through the stack's gateway with the project's
 * Auth configuration (supabase/config.toml `[auth.hook.send_email]` → public.send_email_hook).
 *
 * Before: `/otp` mailed a sign-in link to any registered address (and answered 200 there, 403 for
 * an unknown one), `/recover` mailed Auth's own reset link, and `PUT /user {email}` sent a
 * "confirm your new address" mail to any address as often as asked. Now every mail Auth would send
 * passes the hook: the e-mail change mails go through the product's queue (read here from the
 * mailbox and followed like a person would), within the product's limits; the other kinds are
 * refused like a sign-up through Auth or dropped, so known and unknown addresses get the same
 * answer and no mail. What hosted Auth still tells apart is listed in the README ("Auth paths").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { anonClient, config, serviceClient, signedInClient, superuserDb, uniqueEmail } from '../../scripts/test-support/clients.ts';

interface Mail {
  to: string[];
  subject: string;
  text: string | null;
}

let db: pg.Client;
const userIds: string[] = [];

/** POST to Auth as supabase-js v2 does (API version header); status, body and error-code header. */
async function authPost(path: string, body: unknown): Promise<{ status: number; body: unknown; errorCode: string | null }> {
  const res = await fetch(`${config.apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null), errorCode: res.headers.get('x-sb-error-code') };
}

/** Subjects of the welcome mail every new member gets (not an Auth mail). */
const WELCOME = /^(Willkommen bei Teamwerk|Welcome to Teamwerk)/;

/** The mails to `email` in the stack's mailbox, but the welcome mail. */
async function mails(email: string): Promise<Mail[]> {
  const all = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)).json()) as Mail[];
  return all.filter((m) => !WELCOME.test(m.subject));
}

/** The mails to `email`, waiting until `count` arrived (process-email-queue is kicked between polls). */
async function awaitMails(email: string, count: number): Promise<Mail[]> {
  for (let i = 0; i < 60; i++) {
    const got = await mails(email);
    if (got.length >= count) return got;
    if (i % 8 === 0) expect((await serviceClient().functions.invoke('process-email-queue', { body: {} })).error).toBeNull();
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`fewer than ${count} mails to ${email}`);
}

/** Queued mails to `email`, but the welcome mail. */
async function queued(email: string): Promise<number> {
  const r = await db.query<{ n: string }>(`select count(*) as n from public.email_queue where lower(email) = lower($1) and email_type <> 'welcome_email'`, [email]);
  return Number(r.rows[0]!.n);
}

async function member() {
  const m = await signedInClient();
  userIds.push(m.userId);
  return m;
}

beforeAll(async () => {
  db = await superuserDb();
});

afterAll(async () => {
  for (const id of userIds) await serviceClient().auth.admin.deleteUser(id);
  await db?.end();
});

describe('Auth paths the product does not use answer alike for known and unknown addresses and send nothing', () => {
  it('/otp (magic link) is refused for a registered address exactly as for an unknown one', async () => {
    const known = await member();
    const unknown = uniqueEmail('nobody');
    const a = await authPost('/otp', { email: known.email });
    const b = await authPost('/otp', { email: unknown });
    expect(a).toEqual(b);
    expect([a.status, (a.body as { code?: string }).code]).toEqual([403, 'unknown']);
    // Repeating it changes nothing either (no per-user interval starts when nothing is sent).
    expect(await authPost('/otp', { email: known.email })).toEqual(a);
    const viaClient = await anonClient().auth.signInWithOtp({ email: known.email });
    expect(viaClient.error?.status).toBe(403);
    expect(await mails(known.email)).toEqual([]);
    expect(await queued(known.email)).toBe(0);
  });

  it('/recover and /resend answer 200 {} for every address and mail nothing', async () => {
    const known = await member();
    const unknown = uniqueEmail('nobody');
    for (const path of ['/recover', '/resend']) {
      const body = path === '/resend' ? { type: 'signup' } : {};
      const a = await authPost(path, { email: known.email, ...body });
      const b = await authPost(path, { email: unknown, ...body });
      expect([path, a.status, a.body]).toEqual([path, 200, {}]);
      expect(b).toEqual(a);
    }
    expect(await mails(known.email)).toEqual([]);
    expect(await queued(known.email)).toBe(0);
  });
});

describe('e-mail change (PUT /auth/v1/user): the product queue, its links, its limits', () => {
  it('mails both addresses in the member language; following both links changes the address', async () => {
    const m = await member();
    await db.query(`update public.profiles set preferred_language = 'en', firstname = 'Erika' where id = $1`, [m.userId]);
    const next = uniqueEmail('moved');
    const { error } = await m.client.auth.updateUser({ email: next }, { emailRedirectTo: `${config.siteUrl}/user/settings` });
    expect(error).toBeNull();

    const [toNew] = await awaitMails(next, 1);
    const [toCurrent] = await awaitMails(m.email, 1);
    expect(toNew!.subject).toBe('Please confirm your new email address');
    expect(toCurrent!.subject).toBe('Confirm the change of your email address');
    expect(toNew!.text).toContain('Hi Erika');
    expect(toCurrent!.text).toContain(next);

    const linkOf = (mail: Mail) => new URL(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? '')![0]);
    for (const mail of [toNew!, toCurrent!]) {
      const link = linkOf(mail);
      expect(link.searchParams.get('type')).toBe('email_change');
      expect(link.searchParams.get('redirect_to')).toBe(`${config.siteUrl}/user/settings`);
      const res = await fetch(link, { redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(new RegExp(`^${config.siteUrl.replace(/[.]/g, '\\.')}/user/settings`));
      expect(res.headers.get('location')).not.toContain('error=');
    }
    const { data } = await serviceClient().auth.admin.getUserById(m.userId);
    expect(data.user?.email).toBe(next);
  });

  it('at most 3 e-mail change requests per account a day; the refused one mails nobody', async () => {
    const m = await member();
    const targets = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c'), uniqueEmail('d')];
    const outcomes: (number | null)[] = [];
    for (const target of targets) {
      const { error } = await m.client.auth.updateUser({ email: target });
      outcomes.push(error?.status ?? null);
      await new Promise((r) => setTimeout(r, 1100)); // Auth's own interval ([auth.email] max_frequency)
    }
    expect(outcomes).toEqual([null, null, null, 429]);
    expect(await queued(targets[3]!)).toBe(0);
    expect(await queued(targets[0]!)).toBe(1);
  });

  it('at most 3 Auth mails to one address an hour, whoever asks', async () => {
    const target = uniqueEmail('victim');
    const outcomes: (number | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const m = await member();
      const { error } = await m.client.auth.updateUser({ email: target });
      outcomes.push(error?.status ?? null);
    }
    expect(outcomes).toEqual([null, null, null, 429]);
    expect(await queued(target)).toBe(3);
  });
});
