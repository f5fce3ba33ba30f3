/**
 * Issue 12 findings 4, 5, 6 and 11 and the join link of paid online events, in the database
 * (rolled-back transaction). The HTTP status of the documented errors is checked through PostgREST in
 * exposure.test.ts (committed fixtures cannot be made while this file's transaction holds the counter lock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relations } from '../exposure.ts';
import { anon, TestDb, type Actor } from './support.ts';

let db: TestDb;
type User = Actor & { kind: 'user' };
let paid: User;
let free: User;
let hidden: User;
let admin: User;

beforeAll(async () => {
  db = await TestDb.open();
  paid = await db.user({ role: 'premium', name: 'Paula Paid' });
  free = await db.user({ role: 'free', name: 'Fred Free' });
  hidden = await db.user({ role: 'premium', name: 'Hanna Hidden', visible: false });
  admin = await db.user({ role: 'admin', name: 'Anton Admin' });
});
afterAll(async () => db?.close());

const sees = async (viewer: User, target: User) =>
  (await db.as(viewer, `select 1 from public.profiles where id = $1`, [target.id])).rowCount === 1;

describe('finding 4: relations created by one side alone do not widen what that side sees', () => {
  test('a pending request shows the requester to the addressee, not the addressee to the requester; acceptance shows both', async () => {
    const requester = await db.user({ role: 'premium', name: 'Rita Requester' });
    // the request exists (e.g. sent while the profile was public); the addressee hid the profile since
    const [c] = await db.sql<{ id: string }>(`insert into public.contacts (requester_id, addressee_id) values ($1, $2) returning id`, [requester.id, hidden.id]);
    expect(await sees(requester, hidden)).toBe(false);
    await db.sql(`update public.profiles set profile_visibility = 0 where id = $1`, [requester.id]);
    expect(await sees(hidden, requester)).toBe(true);
    await db.sql(`update public.contacts set status = 'declined', responded_at = now() where id = $1`, [c!.id]);
    expect(await sees(requester, hidden)).toBe(false);
    expect(await sees(hidden, requester)).toBe(false);
    await db.sql(`update public.contacts set status = 'accepted' where id = $1`, [c!.id]);
    expect(await sees(requester, hidden)).toBe(true);
    expect(await sees(hidden, requester)).toBe(true);
  });

  test('a conversation shows a member only after they took part (created it or wrote in it)', async () => {
    const opener = await db.user({ role: 'premium', name: 'Otto Opener' });
    const [conv] = await db.sql<{ id: string }>(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [opener.id]);
    await db.sql(`insert into public.conversation_members (conversation_id, user_id) values ($1, $2), ($1, $3)`, [conv!.id, opener.id, hidden.id]);
    expect(await sees(opener, hidden)).toBe(false);
    await db.sql(`insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Hallo, gern!')`, [conv!.id, hidden.id]);
    expect(await sees(opener, hidden)).toBe(true);
  });

  test('nobody opens a chat with or sends a request to a profile they cannot see (404 as for an unknown id)', async () => {
    const chat = await db.as(paid, `select public.start_direct_conversation($1)`, [hidden.id]);
    expect([chat.code, chat.message]).toEqual(['PT404', 'user_not_found']);
    const request = await db.as(paid, `select public.send_contact_request($1, 'Hallo')`, [hidden.id]);
    expect([request.code, request.message]).toEqual(['PT404', 'user_not_found']);
    // and no direct INSERT around the function (issue 13)
    const direct = await db.as(paid, `insert into public.contacts (requester_id, addressee_id) values ($1, $2)`, [paid.id, hidden.id]);
    expect(direct.code).toBe('42501');
    expect(await sees(paid, hidden)).toBe(false);
  });
});

describe('finding 5: the payment-required rule (spec §6) holds in the database', () => {
  const writes: [string, (u: User, other: User) => [string, unknown[]]][] = [
    ['portfolio', (u) => [`insert into public.portfolios (owner_id, title) values ($1, 'Meine Mappe')`, [u.id]]],
    ['event', (u) => [`insert into public.events (organizer_id, title, status, starts_at, ends_at, city) values ($1, 'Mein Treffen', 'draft', now() + interval '3 days', now() + interval '3 days 1 hour', 'Köln')`, [u.id]]],
    ['contact request', (_u, other) => [`select public.send_contact_request($1, 'Hallo')`, [other.id]]],
    ['direct conversation', (_u, other) => [`select public.start_direct_conversation($1)`, [other.id]]],
  ];
  test.each(writes)('a free user cannot create a %s (PT402 payment_required); a paying user and an admin can', async (name, make) => {
    const target = await db.user({ role: 'premium', name: 'Zora Ziel' });
    if (name === 'direct conversation') {
      // only contacts start a conversation (issue 13): all three are the target's contacts
      for (const u of [free, paid, admin]) {
        await db.sql(`insert into public.contacts (requester_id, addressee_id, status) values ($1, $2, 'accepted')`, [u.id, target.id]);
      }
    }
    const [sql, params] = make(free, target);
    const refused = await db.as(free, sql, params);
    expect([refused.code, refused.message]).toEqual(['PT402', 'payment_required']);
    for (const u of [paid, admin]) {
      const [okSql, okParams] = make(u, target);
      const ok = await db.as(u, okSql, okParams);
      expect(ok.ok, `${u.email}: ${ok.message}`).toBe(true);
    }
  });

  test('a free member of a conversation cannot write a message; a cancelled subscription ends the right', async () => {
    const [conv] = await db.sql<{ id: string }>(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [paid.id]);
    await db.sql(`insert into public.conversation_members (conversation_id, user_id) values ($1, $2), ($1, $3)`, [conv!.id, paid.id, free.id]);
    const write = (u: User) => db.as(u, `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Hi')`, [conv!.id, u.id]);
    expect((await write(free)).code).toBe('PT402');
    expect((await write(paid)).ok).toBe(true);
    const lapsed = await db.as(paid, `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Hi')`, [conv!.id, paid.id],
      `update public.subscriptions set status = 'canceled', ended_at = now() - interval '2 days', current_period_end = now() - interval '2 days' where user_id = '${paid.id}'`);
    expect(lapsed.code).toBe('PT402');
  });

  test('a portfolio file needs paid access too', async () => {
    const [pf] = await db.sql<{ id: string }>(`insert into public.portfolios (owner_id, title) values ($1, 'Alte Mappe') returning id`, [free.id]);
    const file = await db.as(free, `insert into public.portfolio_files (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes)
      values ($1, $2, $3, 'cv.pdf', 'application/pdf', 10)`, [pf!.id, free.id, `${free.id}/${pf!.id}/cv.pdf`]);
    expect(file.code).toBe('PT402');
  });
});

describe('finding 6: columns that decide order, ownership or state are not writable by users', () => {
  test('an attendee cannot rewrite the RSVP time to jump the waitlist', async () => {
    const [ev] = await db.sql<{ id: string }>(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity)
      values ($1, 'Volles Haus', 'published', now() + interval '5 days', now() + interval '5 days 2 hours', 'Bonn', 1) returning id`, [paid.id]);
    const first = await db.user({ role: 'premium', name: 'Erik Erster' });
    const late = await db.user({ role: 'premium', name: 'Lisa Letzte' });
    const waiting = await db.user({ role: 'premium', name: 'Wim Wartend' });
    for (const u of [first, waiting, late]) {
      expect((await db.keep(u, `select public.rsvp_event($1)`, [ev!.id])).ok).toBe(true);
    }
    const jump = await db.as(late, `update public.event_attendees set created_at = '2000-01-01' where event_id = $1 and user_id = $2`, [ev!.id, late.id]);
    expect(jump.code).toBe('42501');
    const backdated = await db.as(late, `insert into public.event_attendees (event_id, user_id, created_at) values ($1, $2, '2000-01-01')`, [ev!.id, late.id]);
    expect(backdated.code).toBe('42501');
    // the seat that frees up goes to the one who waited longest
    await db.keep(first, `select public.cancel_rsvp($1)`, [ev!.id]);
    const going = await db.sql<{ user_id: string }>(`select user_id from public.event_attendees where event_id = $1 and status = 'going'`, [ev!.id]);
    expect(going.map((r) => r.user_id)).toEqual([waiting.id]);
  });

  test('every column without a declared UPDATE/INSERT privilege is refused to a signed-in user (table-driven)', async () => {
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const [table, d] of Object.entries(relations)) {
      if (d.kind !== 'table') continue;
      for (const col of d.columns) {
        const update = await db.as(admin, `update public.${table} set ${col} = default where false`);
        (update.ok ? allowed : refused).push(`update ${table}.${col}`);
        if (update.ok !== (d.update?.authenticated ?? []).includes(col)) {
          expect.fail(`update ${table}.${col}: ${update.ok ? 'allowed' : update.code} but declared ${(d.update?.authenticated ?? []).includes(col) ? 'writable' : 'not writable'}`);
        }
        if (!update.ok) expect(update.code, `${table}.${col}`).toBe('42501');
      }
    }
    // the columns of the findings are among the refused ones
    for (const c of ['event_attendees.created_at', 'profiles.user_role', 'profiles.authenticated', 'profiles.email',
      'profiles.stripe_customer_id', 'projects.owner_id', 'projects.published_at', 'events.going_count', 'events.organizer_id',
      'events.slug', 'messages.sender_id', 'contacts.requester_id', 'conversation_members.role', 'subscriptions.status']) {
      expect(refused).toContain(`update ${c}`);
    }
    expect(allowed.length).toBeGreaterThan(50);
  });
});

describe('join links of paid online events (issue 12 "Also")', () => {
  test('anon and non-attendees get no link of a paid online event; attendees with a seat, the organiser and admins do; free events show it to all', async () => {
    const mk = async (paidEvent: boolean) => (await db.sql<{ id: string }>(
      `insert into public.events (organizer_id, title, status, starts_at, ends_at, is_online, online_url, is_paid, price_cents)
       values ($1, 'Online-Workshop', 'published', now() + interval '4 days', now() + interval '4 days 1 hour', true,
               'https://meet.example.com/geheim', $2, $3) returning id`, [paid.id, paidEvent, paidEvent ? 1500 : null]))[0]!.id;
    const paidEv = await mk(true);
    const freeEv = await mk(false);
    const link = async (who: Actor, ev: string) => (await db.as(who, `select public.event_join_link($1) as l`, [ev])).rows[0]?.l ?? null;
    const attendee = await db.user({ role: 'premium', name: 'Anna Attendee' });
    expect(await link(anon, paidEv)).toBeNull();
    expect(await link(attendee, paidEv)).toBeNull();
    // a held seat (checkout open) is not a seat yet; the paid ticket is (issue 16)
    expect((await db.keep(attendee, `select public.reserve_ticket($1, 'de')`, [paidEv])).ok).toBe(true);
    expect(await link(attendee, paidEv)).toBeNull();
    await db.sql(`update public.event_tickets set checkout_session_id = 'cs_test_joinlink' where event_id = $1 and user_id = $2`, [paidEv, attendee.id]);
    await db.sql(`select public.sync_ticket_checkout('cs_test_joinlink', 'complete', 'paid', 'pi_test_joinlink')`);
    expect(await link(attendee, paidEv)).toBe('https://meet.example.com/geheim');
    expect(await link(paid, paidEv)).toBe('https://meet.example.com/geheim');
    expect(await link(admin, paidEv)).toBe('https://meet.example.com/geheim');
    expect(await link(anon, freeEv)).toBe('https://meet.example.com/geheim');
    const column = await db.as(anon, `select online_url from public.events where id = $1`, [paidEv]);
    expect(column.code).toBe('42501');
  });
});

describe('search tells a member\'s plan only through the badge they chose (finding 1: the role is private)', () => {
  test('a premium member\'s hits carry premium = true only while show_premium_badge is on; ranking keeps the preference', async () => {
    const member = await db.user({ role: 'premium', name: 'Greta Geheim' });
    await db.sql(`insert into public.projects (owner_id, title, summary, category, status)
      values ($1, 'Zauberhafte Quokkazucht', 'Quokkas im Garten', 'science', 'published')`, [member.id]);
    const flag = async () => {
      const r = await db.as(anon, `select public.search('Quokkazucht') -> 'results' as r`);
      return (r.rows[0]!.r as { premium: boolean; owner_id: string }[]).find((h) => h.owner_id === member.id)?.premium;
    };
    expect(await flag()).toBe(true);
    await db.sql(`update public.profiles set show_premium_badge = false where id = $1`, [member.id]);
    expect(await flag()).toBe(false);
    const ranked = await db.sql<{ premium: boolean }>(`select premium from private.search_items where owner_id = $1 and type = 'project'`, [member.id]);
    expect(ranked).toEqual([{ premium: true }]);
  });
});
