/**
 * Issue 12 §8: the anonymous contact form and the newsletter sign-up cannot be used to bomb a
 * mailbox or to phish from the product's sender. Driven through supabase-js as anon (and as a
 * signed-in user) against the real stack; the queue and the counters are read with a superuser
 * connection, the receipt from the mailbox's JSON API after process-email-queue ran.
 *
 * Limits (supabase/schemas/14_feedback_newsletter_contact.sql): contact form 5 messages per address
 * and per account in 24 h, 20 per client IP and hour; newsletter 10 sign-ups per client IP and
 * hour, at most one confirmation mail per address in 24 h. Refusals are HTTP 429 (SQLSTATE
 * PT429). The client address is private.client_ip of the headers PostgREST passes on (the
 * CF-Connecting-IP the edge sets, else the last X-Forwarded-For entry), which no client-sent header
 * changes (issue 12 finding 9, issue 29 §3); the tests reset the IP counters before each test.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { config, nodeClientOptions, serviceClient, signedInClient, superuserDb } from '../../scripts/test-support/clients.ts';

const CONTACT_PER_ADDRESS = 5;
const CONTACT_PER_IP = 20;
const NEWSLETTER_PER_IP = 10;

let db: pg.Client;

/**
 * An anon client whose requests carry forged address headers naming `ip`: X-Forwarded-For entries,
 * CF-Connecting-IP, X-Real-IP and Sb-Forwarded-For. None of them may change the address the
 * product counts (private.client_ip: the CF-Connecting-IP the edge sets, else the last
 * X-Forwarded-For entry; issue 29 §3).
 */
function visitor(ip: string): SupabaseClient {
  return createClient(config.apiUrl, config.anonKey, {
    ...nodeClientOptions,
    global: { headers: { 'x-forwarded-for': `${ip}, 10.0.0.1, ${ip}`, 'cf-connecting-ip': ip, 'x-real-ip': ip, 'sb-forwarded-for': ip } },
  });
}
const randomIp = () => `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
const address = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@mail-limits.example.com`;

const message = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Erika Mustermann',
  email,
  subject: 'Frage zum Tarif',
  message: 'Gibt es einen Rabatt für Studierende?',
  lang: 'de',
  ...extra,
});

async function queued(email: string, type: string): Promise<number> {
  const r = await db.query(`select count(*)::int as n from public.email_queue where lower(email) = lower($1) and email_type = $2`, [email, type]);
  return r.rows[0].n as number;
}
async function stored(email: string): Promise<number> {
  return (await db.query(`select count(*)::int as n from public.contact_messages where email = $1`, [email])).rows[0].n as number;
}

/** Forgets the per-IP counters (tests share the gateway's address once it stops forwarding the header). */
async function resetIpCounters(): Promise<void> {
  const exists = (await db.query(`select to_regclass('private.rate_limits') is not null as e`)).rows[0].e as boolean;
  if (exists) await db.query(`delete from private.rate_limits where bucket like '%:ip'`);
}

beforeAll(async () => {
  db = await superuserDb();
});
beforeEach(resetIpCounters);
afterAll(async () => {
  await resetIpCounters();
  await db.end();
});

describe('contact form', () => {
  test(`the ${CONTACT_PER_ADDRESS + 1}th message to one address is refused with 429 and queues nothing`, async () => {
    const email = address('contact');
    for (let i = 0; i < CONTACT_PER_ADDRESS; i++) {
      const ok = await visitor(randomIp()).from('contact_messages').insert(message(email));
      expect(ok.error, `message ${i + 1}`).toBeNull();
    }
    const refused = await visitor(randomIp()).from('contact_messages').insert(message(email));
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'PT429', message: 'rate_limited' });
    expect(refused.error!.details).toMatch(/address/);
    expect(await stored(email)).toBe(CONTACT_PER_ADDRESS);
    expect(await queued(email, 'contact_confirmation')).toBe(CONTACT_PER_ADDRESS);
  });

  test(`the ${CONTACT_PER_IP + 1}th message from one IP is refused with 429 and queues nothing`, async () => {
    const client = visitor(randomIp());
    for (let i = 0; i < CONTACT_PER_IP; i++) {
      const ok = await client.from('contact_messages').insert(message(address(`ip${i}`)));
      expect(ok.error, `message ${i + 1}`).toBeNull();
    }
    const victim = address('ip-victim');
    const refused = await client.from('contact_messages').insert(message(victim));
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'PT429', message: 'rate_limited' });
    expect(await stored(victim)).toBe(0);
    expect(await queued(victim, 'contact_confirmation')).toBe(0);
  });

  test('forged X-Forwarded-For, CF-Connecting-IP, X-Real-IP and Sb-Forwarded-For do not reset the per-IP limit (issue 12 finding 9, issue 29 §3)', async () => {
    for (let i = 0; i < CONTACT_PER_IP; i++) {
      const ok = await visitor(randomIp()).from('contact_messages').insert(message(address(`spoof${i}`)));
      expect(ok.error, `message ${i + 1}`).toBeNull();
    }
    const victim = address('spoof-victim');
    const refused = await visitor(randomIp()).from('contact_messages').insert(message(victim));
    expect(refused.status).toBe(429);
    expect(await stored(victim)).toBe(0);
  });

  test('a signed-in sender has the same limit per account, whatever addresses they enter', async () => {
    const { accessToken } = await signedInClient();
    const asUser = (ip: string) =>
      createClient(config.apiUrl, config.anonKey, {
        ...nodeClientOptions,
        global: { headers: { authorization: `Bearer ${accessToken}`, 'x-forwarded-for': ip } },
      });
    for (let i = 0; i < CONTACT_PER_ADDRESS; i++) {
      const ok = await asUser(randomIp()).from('contact_messages').insert(message(address(`acct${i}`)));
      expect(ok.error, `message ${i + 1}`).toBeNull();
    }
    const victim = address('acct-victim');
    const refused = await asUser(randomIp()).from('contact_messages').insert(message(victim));
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'PT429' });
    expect(await queued(victim, 'contact_confirmation')).toBe(0);
  });

  test('the receipt in the mailbox says "received" in the sender\'s language, without any of their text', async () => {
    const email = address('receipt');
    const marker = randomUUID().slice(0, 8);
    const sent = await visitor(randomIp()).from('contact_messages').insert({
      name: `Security Team ${marker} call +49 30 1234567`,
      email,
      subject: `Your account is locked ${marker}`,
      message: `Verify now at https://evil.example/login?m=${marker} or lose your data.`,
      lang: 'en',
    });
    expect(sent.error).toBeNull();
    const run = await serviceClient().functions.invoke('process-email-queue', { body: {} });
    expect(run.error).toBeNull();
    let mails: { subject: string; html: string | null; text: string | null }[] = [];
    for (let i = 0; i < 60 && mails.length === 0; i++) {
      mails = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)).json()) as typeof mails;
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('We have received your message');
    for (const part of [mail.subject, mail.text ?? '', mail.html ?? '']) {
      expect(part).not.toContain(marker);
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('Security Team');
      expect(part).not.toContain('locked');
    }
    expect(mail.text).toMatch(/received your message/);
  });
});

describe('newsletter sign-up', () => {
  const subscribe = (client: SupabaseClient, email: string, lang = 'de') =>
    client.rpc('newsletter_subscribe', { p_email: email, p_lang: lang, p_source: '/newsletter' });

  test('signing up twice in a day answers the same and queues one confirmation; the first link stays valid', async () => {
    const email = address('news');
    const first = await subscribe(visitor(randomIp()), email, 'de');
    expect(first.error).toBeNull();
    const token = (await db.query(`select token from public.newsletter_subscribers where email = $1`, [email])).rows[0].token as string;
    const second = await subscribe(visitor(randomIp()), email.toUpperCase(), 'en');
    expect({ status: second.status, data: second.data, error: second.error }).toEqual({ status: first.status, data: first.data, error: first.error });
    expect(await queued(email, 'newsletter_confirm')).toBe(1);
    const row = (await db.query(`select status, lang, token from public.newsletter_subscribers where email = $1`, [email])).rows[0];
    expect(row).toEqual({ status: 'pending', lang: 'de', token });
  });

  test('a confirmed address gets the same answer, no mail and no change', async () => {
    const email = address('confirmed');
    const fresh = await subscribe(visitor(randomIp()), address('fresh'));
    await db.query(
      `insert into public.newsletter_subscribers (email, lang, status, confirmed_at) values ($1, 'de', 'confirmed', now())`, [email]);
    const before = (await db.query(`select * from public.newsletter_subscribers where email = $1`, [email])).rows[0];
    const again = await subscribe(visitor(randomIp()), email, 'en');
    expect({ status: again.status, data: again.data, error: again.error }).toEqual({ status: fresh.status, data: fresh.data, error: fresh.error });
    expect(await queued(email, 'newsletter_confirm')).toBe(0);
    expect((await db.query(`select * from public.newsletter_subscribers where email = $1`, [email])).rows[0]).toEqual(before);
  });

  test(`the ${NEWSLETTER_PER_IP + 1}th sign-up from one IP is refused with 429 and queues nothing`, async () => {
    const client = visitor(randomIp());
    for (let i = 0; i < NEWSLETTER_PER_IP; i++) {
      const ok = await subscribe(client, address(`nip${i}`));
      expect(ok.error, `sign-up ${i + 1}`).toBeNull();
    }
    const victim = address('nip-victim');
    const refused = await subscribe(client, victim);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'PT429', message: 'rate_limited' });
    expect(await queued(victim, 'newsletter_confirm')).toBe(0);
    expect((await db.query(`select count(*)::int as n from public.newsletter_subscribers where email = $1`, [victim])).rows[0].n).toBe(0);
  });
});
