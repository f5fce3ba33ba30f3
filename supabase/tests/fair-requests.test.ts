/**
 * Fair requests (issue 19 "Fair requests (anti-ghosting)"; supabase/schemas/07_contacts.sql):
 * the weekly contact-request allowance by plan (Basic 10, Premium 30; ISO week in Europe/Berlin,
 * renewing Monday 00:00), expiry after 14 days and one reminder after 7 (the cron functions called
 * with shifted times), and the 90-day response stats of a profile (shown from 5 decided requests,
 * aggregates only) with private.responsiveness for matching.
 *
 * Senders and addressees who act are real users signed in through supabase-js, their plans real
 * subscriptions written through sync_subscription; other addressees are plain confirmed users.
 * Data is committed (PostgREST cannot see a test transaction); every run uses new users.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { anonClient, config, serviceClient, signedInClient, superuserDb } from '../../scripts/test-support/clients.ts';

let db: pg.Client;
beforeAll(async () => {
  db = await superuserDb();
});
afterAll(async () => {
  await db?.end();
});

type Person = { id: string; client?: SupabaseClient; email?: string };

/** A signed-in user; with a plan, an active subscription through the billing write path. */
async function member(plan: 'basic' | 'premium' | 'enterprise' | null, lang: 'de' | 'en' = 'en'): Promise<Required<Person>> {
  const tag = randomUUID().slice(0, 8);
  const u = await signedInClient({ userMetadata: { firstname: `Fair${tag}`, lastname: 'Sender', preferred_language: lang } });
  if (plan) {
    await db.query(
      `select public.sync_subscription($1, $2, $3, 'active', null, $4, now() - interval '1 day', now() + interval '29 days',
         false, null, null, null, now())`,
      [u.userId, `cus_fair_${tag}`, `sub_fair_${tag}`, plan],
    );
  }
  await db.query(`update public.profiles set profile_visibility = 1 where id = $1`, [u.userId]);
  return { id: u.userId, client: u.client, email: u.email };
}

/** A confirmed, visible user who only receives requests. */
async function addressee(lang: 'de' | 'en' = 'de'): Promise<Person> {
  const tag = randomUUID().slice(0, 8);
  const r = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', $2, now(), now(), '', '', '', '') returning id`,
    [`fair-${tag}@tests.teamwerk.test`, JSON.stringify({ firstname: `Ziel${tag}`, lastname: 'Person', preferred_language: lang })],
  );
  const id = r.rows[0]!.id;
  await db.query(`update public.profiles set profile_visibility = 1 where id = $1`, [id]);
  return { id };
}

/** `n` addressees, one after the other (one database connection). */
async function addressees(n: number): Promise<Person[]> {
  const out: Person[] = [];
  for (let i = 0; i < n; i++) out.push(await addressee());
  return out;
}

const send = (from: Person, to: Person, note?: string) => from.client!.rpc('send_contact_request', { p_addressee_id: to.id, p_message: note });

/** Next Monday (the day after Sunday) in Europe/Berlin as YYYY-MM-DD, from the clock of the test. */
function expectedRenewal(now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const isoDay = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
  const berlinToday = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
  return new Date(berlinToday + (8 - isoDay) * 86_400_000).toISOString().slice(0, 10);
}

/** What a refusal must leave untouched: the sender's requests, the log, the addressee's mails. */
async function snapshot(sender: Person, target: Person) {
  const contacts = await db.query(`select id, addressee_id, status, created_at from public.contacts where requester_id = $1 order by id`, [sender.id]);
  const log = await db.query(`select count(*)::int as n from private.contact_request_log where requester_id = $1`, [sender.id]);
  const mails = await db.query(`select count(*)::int as n from public.email_queue where user_id = $1`, [target.id]);
  return { contacts: contacts.rows, log: log.rows[0].n as number, mails: mails.rows[0].n as number };
}

describe('weekly allowance (issue 19: Basic 10, Premium 30 per ISO week in Berlin)', () => {
  test('the 11th Basic request of the week is refused with PT429, the message code and the renewal date; nothing is stored', async () => {
    const basic = await member('basic');
    const targets = await addressees(11);
    for (const t of targets.slice(0, 10)) {
      const r = await send(basic, t);
      expect(r.error, r.error?.message).toBeNull();
      expect(r.data).toBe('pending');
    }
    const allowance = await basic.client.rpc('my_contact_request_allowance').single();
    expect(allowance.error).toBeNull();
    expect(allowance.data).toMatchObject({ plan: 'basic', weekly_limit: 10, used: 10, remaining: 0, renews_on: expectedRenewal() });

    const before = await snapshot(basic, targets[10]!);
    const refused = await send(basic, targets[10]!, 'Noch eine Anfrage');
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'PT429', message: 'weekly_contact_request_limit' });
    expect(refused.error!.details).toBe(
      `You have used your 10 contact requests for this week. Your allowance renews on ${expectedRenewal()}.`,
    );
    const hint = JSON.parse(refused.error!.hint) as Record<string, unknown>;
    expect(hint).toMatchObject({ plan: 'basic', limit: 10, used: 10, renews_on: expectedRenewal() });
    // renews_at is Monday 00:00 in Berlin: 23:00 or 22:00 UTC on the Sunday before
    const renewsAt = new Date(hint.renews_at as string);
    expect(new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' }).format(renewsAt)).toBe(
      `${expectedRenewal()} 00:00`,
    );
    expect(await snapshot(basic, targets[10]!)).toEqual(before);

    // withdrawing a request does not give it back
    const withdrawn = await basic.client.from('contacts').delete().eq('requester_id', basic.id).eq('addressee_id', targets[0]!.id);
    expect(withdrawn.error).toBeNull();
    expect((await send(basic, targets[10]!)).error?.message).toBe('weekly_contact_request_limit');
    expect((await basic.client.rpc('my_contact_request_allowance').single()).data).toMatchObject({ used: 10, remaining: 0 });

    // asking back (accepting someone's request) is not a new request and still works
    const asker = await member('premium');
    expect((await send(asker, basic)).data).toBe('pending');
    expect((await send(basic, asker)).data).toBe('accepted');

    // requests of last week do not count
    await db.query(`update private.contact_request_log set sent_at = sent_at - interval '7 days' where requester_id = $1`, [basic.id]);
    expect((await send(basic, targets[10]!)).data).toBe('pending');
  });

  test("Premium's 31st request of the week is refused; free users have no allowance (payment required)", async () => {
    const premium = await member('premium');
    const targets = await addressees(31);
    // 25 through the API today (the daily cap of issue 13), 5 more earlier this week as the
    // database records any request (the log trigger on contacts)
    for (const t of targets.slice(0, 25)) expect((await send(premium, t)).error).toBeNull();
    for (const t of targets.slice(25, 30)) {
      await db.query(`insert into public.contacts (requester_id, addressee_id, status) values ($1, $2, 'pending')`, [premium.id, t.id]);
    }
    expect((await premium.client.rpc('my_contact_request_allowance').single()).data).toMatchObject({
      plan: 'premium', weekly_limit: 30, used: 30, remaining: 0,
    });
    const before = await snapshot(premium, targets[30]!);
    const refused = await send(premium, targets[30]!);
    expect(refused.error).toMatchObject({ code: 'PT429', message: 'weekly_contact_request_limit' });
    expect(refused.error!.details).toContain('You have used your 30 contact requests for this week.');
    expect(refused.error!.details).toContain(`renews on ${expectedRenewal()}.`);
    expect(await snapshot(premium, targets[30]!)).toEqual(before);

    const free = await member(null);
    const denied = await send(free, targets[30]!);
    expect(denied.error).toMatchObject({ code: 'PT402', message: 'payment_required' });
    expect((await free.client.rpc('my_contact_request_allowance').single()).data).toMatchObject({ plan: null, weekly_limit: 0, remaining: 0 });
    expect((await anonClient().rpc('my_contact_request_allowance')).error).not.toBeNull();
  });
});

describe('expiry after 14 days, one reminder after 7 (cron functions)', () => {
  test('the reminder goes once in the addressee\'s language; the request expires and can be sent again', async () => {
    const sender = await member('basic');
    const target = await member('premium', 'de');
    expect((await send(sender, target, 'Lass uns gründen')).data).toBe('pending');
    const shift = async (days: number) => {
      await db.query(`update public.contacts set created_at = now() - make_interval(days => $2) where requester_id = $1 and addressee_id = $3`, [
        sender.id, days, target.id]);
      await db.query(`update private.contact_request_log set sent_at = now() - make_interval(days => $2) where requester_id = $1 and addressee_id = $3`, [
        sender.id, days, target.id]);
    };
    const reminders = async () =>
      (await db.query(`select lang, payload from public.email_queue where user_id = $1 and email_type = 'contact_request_reminder'`, [target.id])).rows;

    await shift(6);
    await db.query(`select private.send_contact_request_reminders()`);
    expect(await reminders()).toEqual([]);

    await shift(8);
    await db.query(`select private.send_contact_request_reminders()`);
    const mails = await reminders();
    expect(mails).toHaveLength(1);
    const sentOn = new Date(Date.now() - 8 * 86_400_000 + 14 * 86_400_000);
    const expires = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(sentOn);
    expect(mails[0]).toMatchObject({
      lang: 'de',
      payload: { note: 'Lass uns gründen', path: '/user/contacts?tab=received', expires_on: expires },
    });
    expect((mails[0].payload as { requester_name: string }).requester_name).toMatch(/^Fair/);
    const template = await db.query(`select subject, body from public.email_templates where key = 'contact_request_reminder' order by lang`);
    expect(template.rows).toHaveLength(2);
    for (const t of template.rows) expect(t.body).toContain('{{unsubscribe_link}}');
    // delivered by process-email-queue: German subject, the expiry day, a one-click unsubscribe link
    expect((await serviceClient().functions.invoke('process-email-queue', { body: {} })).error).toBeNull();
    let delivered: { subject: string; text: string | null }[] = [];
    for (let i = 0; i < 60 && delivered.length === 0; i++) {
      const all = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(target.email)}`)).json()) as typeof delivered;
      delivered = all.filter((m) => m.subject.startsWith('Erinnerung:'));
      if (delivered.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.subject).toMatch(/^Erinnerung: Fair\S+ Sender wartet auf Ihre Antwort$/);
    expect(delivered[0]!.text).toContain(`verfällt sie am ${expires}`);
    expect(delivered[0]!.text).toMatch(/\/de\/unsubscribe\?token=/);
    // once: later runs do not queue it again
    await db.query(`select private.send_contact_request_reminders()`);
    await shift(10);
    await db.query(`select private.send_contact_request_reminders()`);
    expect(await reminders()).toHaveLength(1);

    // still pending at 13 days, expired after 14
    await shift(13);
    await db.query(`select private.expire_contact_requests()`);
    expect((await target.client.rpc('my_contacts', { p_tab: 'received' })).data).toHaveLength(1);
    await shift(15);
    await db.query(`select private.expire_contact_requests()`);
    const row = await sender.client.from('contacts').select('status, responded_at').eq('addressee_id', target.id).single();
    expect(row.data).toEqual({ status: 'expired', responded_at: null });
    expect((await target.client.rpc('my_contacts', { p_tab: 'received' })).data).toEqual([]);
    expect((await sender.client.rpc('my_contacts', { p_tab: 'sent' })).data).toEqual([]);
    // the addressee cannot answer it any more, nor can anyone set "expired" by hand
    const late = await target.client.from('contacts').update({ status: 'accepted' }).eq('requester_id', sender.id).select();
    expect(late.error?.message).toBe('not_pending');

    // sent again later: a fresh request that counts again
    const usedNow = async () => ((await sender.client.rpc('my_contact_request_allowance').single()).data as { used: number }).used;
    const used = await usedNow();
    expect((await send(sender, target, 'Zweiter Versuch')).data).toBe('pending');
    expect(await usedNow()).toBe(used + 1);
    const manual = await target.client.from('contacts').update({ status: 'expired' }).eq('requester_id', sender.id).select();
    expect(manual.error?.message).toBe('not_pending');
  });

  test('no reminder when the addressee switched contact-request mails off', async () => {
    const sender = await member('basic');
    const target = await member('basic');
    expect((await target.client.from('user_settings').insert({ user_id: target.id, email_contact_requests: false })).error).toBeNull();
    expect((await send(sender, target)).error).toBeNull();
    await db.query(`update private.contact_request_log set sent_at = now() - interval '8 days' where requester_id = $1`, [sender.id]);
    await db.query(`select private.send_contact_request_reminders()`);
    expect((await db.query(`select 1 from public.email_queue where user_id = $1 and email_type like 'contact_request%'`, [target.id])).rows).toEqual([]);
  });
});

describe('response stats (90 days, from 5 decided requests; no requester identity)', () => {
  test('hidden below 5, correct from 5 on; responsiveness as the tie-break', async () => {
    const profile = await member('premium');
    const viewer = await member('basic');
    const senders = await addressees(8);
    const stats = async (client: SupabaseClient) => {
      const r = await client.rpc('profile_response_stats', { p_profile_id: profile.id });
      expect(r.error).toBeNull();
      return r.data as Record<string, unknown>[];
    };
    // requests as the database stores them (contacts insert, logged by the trigger)
    for (const s of senders) {
      await db.query(`insert into public.contacts (requester_id, addressee_id, status) values ($1, $2, 'pending')`, [s.id, profile.id]);
    }
    // the profile answers four of them through the API, then the answer times are set back
    const hours = [2, 5, 30, 100];
    for (const [i, h] of hours.entries()) {
      const r = await profile.client.from('contacts').update({ status: i % 2 === 0 ? 'accepted' : 'declined' }).eq('requester_id', senders[i]!.id);
      expect(r.error).toBeNull();
      await db.query(`update private.contact_request_log set sent_at = closed_at - make_interval(hours => $2) where requester_id = $1`, [
        senders[i]!.id, h]);
    }
    // senders[4] waits (expires below), senders[5] withdraws, senders[6] waits (open: not counted),
    // senders[7] was answered 100 days ago (outside the 90 days)
    await db.query(`delete from public.contacts where requester_id = $1`, [senders[5]!.id]);
    await db.query(`update public.contacts set status = 'accepted' where requester_id = $1`, [senders[7]!.id]);
    await db.query(`update private.contact_request_log set sent_at = now() - interval '100 days', closed_at = now() - interval '99 days' where requester_id = $1`, [
      senders[7]!.id]);

    expect(await stats(anonClient())).toEqual([]);
    expect(await stats(viewer.client)).toEqual([]);

    await db.query(`update public.contacts set created_at = now() - interval '15 days' where requester_id = $1`, [senders[4]!.id]);
    await db.query(`update private.contact_request_log set sent_at = now() - interval '15 days' where requester_id = $1`, [senders[4]!.id]);
    await db.query(`select private.expire_contact_requests()`);

    const sorted = [...hours].sort((a, b) => a - b);
    const median = (sorted[1]! + sorted[2]!) / 2;
    for (const client of [anonClient(), viewer.client, profile.client]) {
      const rows = await stats(client);
      expect(rows).toHaveLength(1);
      // aggregates only: exactly these three fields
      expect(Object.keys(rows[0]!).sort()).toEqual(['median_response_hours', 'requests', 'response_rate']);
      expect(rows[0]).toEqual({ requests: 5, response_rate: 4 / 5, median_response_hours: median });
    }
    // the log itself is not reachable through the API
    expect((await viewer.client.from('contact_request_log').select('*')).error).not.toBeNull();
    expect((await viewer.client.schema('private').from('contact_request_log').select('*')).error).not.toBeNull();

    // tie-break: within 72 h counts 1, later 0.5, expired 0; smoothed with 5 requests at 0.5
    const points = hours.reduce((sum, h) => sum + (h <= 72 ? 1 : 0.5), 0);
    const [{ r }] = (await db.query(`select private.responsiveness($1)::float8 as r`, [profile.id])).rows;
    expect(r).toBeCloseTo((points + 2.5) / (5 + 5), 10);
    const [{ n }] = (await db.query(`select private.responsiveness($1)::float8 as n`, [viewer.id])).rows;
    expect(n).toBe(0.5);

    // hidden profiles show nothing to others
    await db.query(`update public.profiles set profile_visibility = 0 where id = $1`, [profile.id]);
    expect(await stats(anonClient())).toEqual([]);
  });
});
