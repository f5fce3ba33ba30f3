/**
 * Paid tickets and attendee notifications in the database (issue 16; migration
 * supabase/schemas/11_events.sql): the attendance RPCs, the forward-only ticket ledger that the
 * webhook writes (duplicate, late and out-of-order states), seat holds and their release, the
 * waitlist offer, the 48-hour refund rule, refunds when an event is cancelled, the notification
 * mails (each once, in the recipient's language, switchable) and who can read what. Everything
 * runs in one transaction that is rolled back; `now()` is the transaction's start, so expired
 * holds are made by moving hold_expires_at into the past.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, serviceRole, TestDb, type Actor } from './support.ts';

let db: TestDb;
let organiser: Actor & { kind: 'user' };
beforeAll(async () => {
  db = await TestDb.open();
  organiser = await db.user({ role: 'premium', name: 'Olga Organisatorin' });
});
afterAll(async () => db?.close());

type User = Actor & { kind: 'user' };
let seq = 0;

async function paidEvent(opts: { capacity?: number | null; startsIn?: string; price?: number } = {}): Promise<number> {
  seq += 1;
  const [row] = await db.sql<{ id: string }>(
    `insert into public.events (organizer_id, title, status, starts_at, ends_at, city, venue_name, capacity, is_paid, price_cents)
     values ($1, $2, 'published', now() + $3::interval, now() + $3::interval + interval '2 hours', 'Köln', 'Halle 7', $4, true, $5) returning id`,
    [organiser.id, `Workshop ${seq}`, opts.startsIn ?? '10 days', opts.capacity === undefined ? 2 : opts.capacity, opts.price ?? 4900]);
  return Number(row!.id);
}

async function reserve(u: User, eventId: number, lang = 'de'): Promise<Record<string, unknown>> {
  const r = await db.keep(u, `select public.reserve_ticket($1, $2) as r`, [eventId, lang]);
  expect(r.ok, r.message).toBe(true);
  return r.rows[0]!.r as Record<string, unknown>;
}

/** Stores a session id on the caller's pending ticket, as create-ticket-checkout does. */
async function attach(ticketId: unknown, sessionId: string): Promise<void> {
  const r = await db.keep(serviceRole, `select public.attach_ticket_checkout($1, $2) as ok`, [ticketId, sessionId]);
  expect(r.rows[0]?.ok).toBe(true);
}

async function sync(sessionId: string, status: string, paymentStatus: string, pi: string | null, refunded = 0): Promise<Record<string, unknown>> {
  const r = await db.keep(serviceRole, `select public.sync_ticket_checkout($1, $2, $3, $4, $5, null) as t`, [sessionId, status, paymentStatus, pi, refunded]);
  expect(r.ok, r.message).toBe(true);
  return r.rows[0]!.t as Record<string, unknown>;
}

const seat = async (eventId: number, userId: string) =>
  (await db.sql<{ status: string }>(`select status from public.event_attendees where event_id = $1 and user_id = $2`, [eventId, userId]))[0]?.status ?? null;
const mails = async (userId: string, type: string) =>
  db.sql<{ lang: string; payload: Record<string, unknown> }>(`select lang, payload from public.email_queue where user_id = $1 and email_type = $2 order by id`, [userId, type]);

/** Buys a ticket through reserve → attach → paid checkout. Returns the session id. */
async function buy(u: User, eventId: number): Promise<string> {
  const r = await reserve(u, eventId);
  expect(r.status).toBe('held');
  const session = `cs_test_${u.id.slice(0, 8)}_${eventId}`;
  await attach(r.ticket_id, session);
  expect((await sync(session, 'complete', 'paid', `pi_test_${u.id.slice(0, 8)}_${eventId}`)).action).toBe('paid');
  return session;
}

describe('reserving and paying', () => {
  test('a seat is held for 30 minutes with a pending ticket; the same call again returns it; a full event waitlists', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const a = await db.user({ name: 'Anna Käuferin' });
    const b = await db.user({ name: 'Ben Zweiter' });
    const first = await reserve(a, ev);
    expect(first).toMatchObject({ status: 'held', amount_cents: 4900, currency: 'eur', checkout_session_id: null });
    expect(String(first.ticket_number)).toMatch(/^TW-[0-9A-F]{10}$/);
    const holdMinutes = (await db.sql<{ m: number }>(`select (extract(epoch from hold_expires_at - now()) / 60)::float8 as m from public.event_attendees where event_id = $1 and user_id = $2`, [ev, a.id]))[0]!.m;
    expect(holdMinutes).toBeGreaterThanOrEqual(30);
    expect(holdMinutes).toBeLessThanOrEqual(31);
    await attach(first.ticket_id, 'cs_test_reuse');
    expect(await reserve(a, ev)).toMatchObject({ status: 'held', ticket_id: first.ticket_id, checkout_session_id: 'cs_test_reuse' });
    expect(await reserve(b, ev)).toMatchObject({ status: 'waitlisted', ticket_id: null });
    expect(await seat(ev, b.id)).toBe('waitlisted');
  });

  test('free and paid events each need their own path', async () => {
    const ev = await paidEvent();
    const u = await db.user();
    expect((await db.as(u, `select public.rsvp_event($1)`, [ev])).message).toBe('ticket_required');
    const [free] = await db.sql<{ id: string }>(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city) values ($1, 'Gratis', 'published', now() + interval '3 days', now() + interval '3 days 1 hour', 'Köln') returning id`, [organiser.id]);
    expect((await db.as(u, `select public.reserve_ticket($1, 'de')`, [free!.id])).message).toBe('event_not_paid');
    expect((await db.as(anon, `select public.reserve_ticket($1, 'de')`, [ev])).code).toBe('42501');
    const [draft] = await db.sql<{ id: string }>(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, is_paid, price_cents) values ($1, 'Entwurf', 'draft', now() + interval '3 days', now() + interval '3 days 1 hour', 'Köln', true, 900) returning id`, [organiser.id]);
    const hidden = await db.as(u, `select public.reserve_ticket($1, 'de')`, [draft!.id]);
    expect(hidden.code).toBe('PT404');
    expect(hidden.message).toBe('event_not_found');
  });

  test('payment confirms the seat and queues the ticket mail with receipt and calendar data, once', async () => {
    const ev = await paidEvent();
    const u = await db.user({ name: 'Clara Kauf', lang: 'en' });
    const session = await buy(u, ev);
    expect(await seat(ev, u.id)).toBe('going');
    const [mail] = await mails(u.id, 'ticket_confirmation');
    expect(mail!.lang).toBe('en');
    expect(mail!.payload).toMatchObject({ amount: '€49.00', vat: '€7.82', event_place: 'Halle 7, Köln', path: expect.stringMatching(/^\/events\//) });
    expect(mail!.payload.ticket_number).toMatch(/^TW-/);
    expect(mail!.payload.ics).toMatchObject({ id: ev, city: 'Köln', status: 'published' });
    // duplicate and out-of-order deliveries change nothing
    expect((await sync(session, 'complete', 'paid', 'pi_other')).action).toBe('unchanged');
    expect((await sync(session, 'expired', 'unpaid', null)).action).toBe('unchanged');
    expect((await sync(session, 'open', 'unpaid', null)).status).toBe('paid');
    expect(await mails(u.id, 'ticket_confirmation')).toHaveLength(1);
    expect((await db.sql(`select going_count from public.events where id = $1`, [ev]))[0]).toEqual({ going_count: 1 });
  });

  test('an expired checkout releases the seat; a late payment gets a free seat, or a refund when there is none', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const a = await db.user();
    const b = await db.user();
    const r = await reserve(a, ev);
    await attach(r.ticket_id, 'cs_test_expiring');
    expect((await sync('cs_test_expiring', 'expired', 'unpaid', null)).action).toBe('expired');
    expect(await seat(ev, a.id)).toBe('cancelled');
    // b takes the seat; a's payment arrives late (Stripe completed it after all): refunded, no overbooking
    await buy(b, ev);
    const late = await sync('cs_test_expiring', 'complete', 'paid', 'pi_test_late');
    expect(late).toMatchObject({ action: 'refund_needed', status: 'refund_pending', refund_reason: 'no_seat' });
    expect(await seat(ev, a.id)).toBe('cancelled');
    // on an event with room, a late payment still gets the seat
    const roomy = await paidEvent({ capacity: 5 });
    const c = await db.user();
    const rc = await reserve(c, roomy);
    await attach(rc.ticket_id, 'cs_test_roomy');
    await sync('cs_test_roomy', 'expired', 'unpaid', null);
    expect((await sync('cs_test_roomy', 'complete', 'paid', 'pi_test_roomy')).action).toBe('paid');
    expect(await seat(roomy, c.id)).toBe('going');
    expect(await sync('cs_test_unknown', 'complete', 'paid', null)).toBeNull();
  });

  test('holds that ran out are released by the cron job and the waitlist is offered the seat for 24 hours', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const a = await db.user();
    const w = await db.user({ name: 'Wanda Warteliste', lang: 'de' });
    await reserve(a, ev);
    expect((await reserve(w, ev)).status).toBe('waitlisted');
    await db.sql(`update public.event_attendees set hold_expires_at = now() - interval '5 minutes' where event_id = $1 and user_id = $2`, [ev, a.id]);
    expect((await db.sql<{ n: number }>(`select private.release_expired_holds() as n`))[0]!.n).toBe(1);
    expect(await seat(ev, a.id)).toBe('cancelled');
    expect((await db.sql(`select status from public.event_tickets where event_id = $1 and user_id = $2`, [ev, a.id]))[0]).toEqual({ status: 'expired' });
    expect(await seat(ev, w.id)).toBe('held');
    const hours = (await db.sql<{ h: number }>(`select (extract(epoch from hold_expires_at - now()) / 3600)::float8 as h from public.event_attendees where event_id = $1 and user_id = $2`, [ev, w.id]))[0]!.h;
    expect(Math.round(hours)).toBe(24);
    const [offer] = await mails(w.id, 'event_seat_offer');
    expect(offer!.payload).toMatchObject({ amount: '49,00 €', path: expect.stringMatching(/^\/events\//) });
    expect(String(offer!.payload.deadline)).toMatch(/Uhr$/);
    // the offered person pays through the same reservation: the offer becomes the checkout hold
    const r = await reserve(w, ev);
    expect(r.status).toBe('held');
    // holds still running are kept
    expect((await db.sql<{ n: number }>(`select private.release_expired_holds() as n`))[0]!.n).toBe(0);
  });
});

describe('unpaid holds end and are capped (issue 31 §3)', () => {
  const holdOf = async (eventId: number, userId: string) =>
    (await db.sql<{ until: string; ticket: string | null }>(
      `select a.hold_expires_at::text as until, (select t.id::text from public.event_tickets t where t.event_id = a.event_id and t.user_id = a.user_id and t.status = 'pending') as ticket
       from public.event_attendees a where a.event_id = $1 and a.user_id = $2 and a.status = 'held'`, [eventId, userId]))[0] ?? null;
  const endHold = (eventId: number, userId: string, at: string) => db.sql(
    `with a as (update public.event_attendees set hold_expires_at = now() + $3::interval where event_id = $1 and user_id = $2 and status = 'held')
     update public.event_tickets set hold_expires_at = now() + $3::interval where event_id = $1 and user_id = $2 and status = 'pending'`, [eventId, userId, at]);

  test('a hold called again in its last minute keeps its ticket and its first expiry', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const a = await db.user();
    const first = await reserve(a, ev);
    await attach(first.ticket_id, `cs_test_lastminute_${ev}`);
    await endHold(ev, a.id, '30 seconds');
    const before = await holdOf(ev, a.id);
    const again = await reserve(a, ev);
    expect(again).toMatchObject({ status: 'held', ticket_id: first.ticket_id, checkout_session_id: `cs_test_lastminute_${ev}` });
    expect(await holdOf(ev, a.id)).toEqual(before);
    expect(Date.parse(String(again.hold_expires_at))).toBe(Date.parse(before!.until));
  });

  test('a hold that ran out is not renewed: the waitlisted buyer moves up, the holder waits 30 minutes', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const a = await db.user();
    const w = await db.user();
    await reserve(a, ev);
    expect((await reserve(w, ev)).status).toBe('waitlisted');
    await endHold(ev, a.id, '-5 minutes');
    const renew = await db.as(a, `select public.reserve_ticket($1, 'de')`, [ev]);
    expect([renew.code, renew.message]).toEqual(['PT429', 'hold_cooldown']);
    expect((await db.sql<{ n: number }>(`select private.release_expired_holds() as n`))[0]!.n).toBe(1);
    expect(await seat(ev, w.id)).toBe('held');
    expect(await seat(ev, a.id)).toBe('cancelled');
    // right after the release the same person gets no new hold, not even on a roomier event
    await db.sql(`update public.events set capacity = 4 where id = $1`, [ev]);
    expect((await db.as(a, `select public.reserve_ticket($1, 'de')`, [ev])).message).toBe('hold_cooldown');
    // a hold cancelled unpaid counts the same
    const b = await db.user();
    await reserve(b, ev);
    expect((await db.keep(b, `select public.cancel_rsvp($1)`, [ev])).ok).toBe(true);
    expect((await db.as(b, `select public.reserve_ticket($1, 'de')`, [ev])).message).toBe('hold_cooldown');
    // 30 minutes later: a new hold
    await db.sql(`update private.ended_holds set ended_at = now() - interval '31 minutes' where event_id = $1 and user_id = $2`, [ev, a.id]);
    expect((await reserve(a, ev)).status).toBe('held');
  });

  test('at most half the seats (rounded up) are held unpaid; the next buyer waits and moves up when a hold is paid', async () => {
    const ev = await paidEvent({ capacity: 4 });
    const [a, b, c, d] = [await db.user(), await db.user(), await db.user(), await db.user()];
    expect((await reserve(a, ev)).status).toBe('held');
    expect((await reserve(b, ev)).status).toBe('held');
    expect((await reserve(c, ev)).status).toBe('waitlisted');
    expect((await reserve(d, ev)).status).toBe('waitlisted');
    expect(await seat(ev, c.id)).toBe('waitlisted');
    // a pays: one hold fewer, c is offered the seat (waitlist order), d still waits
    const r = await reserve(a, ev);
    await attach(r.ticket_id, `cs_test_cap_${ev}`);
    expect((await sync(`cs_test_cap_${ev}`, 'complete', 'paid', `pi_test_cap_${ev}`)).action).toBe('paid');
    expect(await seat(ev, c.id)).toBe('held');
    expect(await seat(ev, d.id)).toBe('waitlisted');
    expect((await mails(c.id, 'event_seat_offer'))).toHaveLength(1);
    // the rule itself: ceil(capacity / 2), at least 1, none without a capacity
    expect((await db.sql(`select private.unpaid_hold_cap(1) as a, private.unpaid_hold_cap(2) as b, private.unpaid_hold_cap(5) as c, private.unpaid_hold_cap(null) as d`))[0])
      .toEqual({ a: 1, b: 1, c: 3, d: null });
    // an event without a capacity has no cap
    const open = await paidEvent({ capacity: null });
    for (const u of [b, c, d]) expect((await reserve(u, open)).status).toBe('held');
  });
});

describe('cancelling and refunds', () => {
  test('the attendee cancels until 48 hours before the start: queued for a full refund, then refunded once with a mail', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const u = await db.user({ lang: 'de' });
    const w = await db.user();
    const session = await buy(u, ev);
    await reserve(w, ev);
    const out = await db.keep(u, `select public.cancel_rsvp($1) as r`, [ev]);
    expect(out.rows[0]!.r).toMatchObject({ status: 'cancelled', refund: 'pending' });
    expect(await seat(ev, w.id)).toBe('held');
    const queued = await db.keep(serviceRole, `select * from public.claim_ticket_refunds(10)`);
    expect(queued.rows.map((r) => r.payment_intent_id)).toContain(`pi_test_${u.id.slice(0, 8)}_${ev}`);
    const done = await sync(session, 'complete', 'paid', null, 4900);
    expect(done).toMatchObject({ action: 'refunded', status: 'refunded', refund_reason: 'attendee_cancelled' });
    expect((await sync(session, 'complete', 'paid', null, 4900)).action).toBe('unchanged');
    expect(await mails(u.id, 'ticket_refunded')).toHaveLength(1);
    expect((await mails(u.id, 'ticket_refunded'))[0]!.payload).toMatchObject({ amount: '49,00 €' });
  });

  test('within 48 hours of the start a ticket cannot be cancelled', async () => {
    const ev = await paidEvent({ startsIn: '30 hours' });
    const u = await db.user();
    await buy(u, ev);
    const late = await db.as(u, `select public.cancel_rsvp($1)`, [ev]);
    expect(late.message).toBe('refund_window_closed');
    expect(await seat(ev, u.id)).toBe('going');
  });

  test('a cancelled event queues every paid ticket for a refund, releases held seats and tells everyone once', async () => {
    const ev = await paidEvent({ capacity: 2 });
    const a = await db.user({ lang: 'en' });
    const b = await db.user({ lang: 'de' });
    const h = await db.user();
    const w = await db.user();
    await buy(a, ev);
    await buy(b, ev);
    await db.sql(`update public.events set capacity = 3 where id = $1`, [ev]);
    await reserve(h, ev);
    await db.sql(`update public.events set capacity = 3 where id = $1`, [ev]);
    const off = await db.user();
    await db.sql(`insert into public.user_settings (user_id, email_event_updates) values ($1, false)`, [off.id]);
    await db.sql(`update public.events set capacity = 4 where id = $1`, [ev]);
    await buy(off, ev);
    expect((await reserve(w, ev)).status).toBe('waitlisted');
    expect((await db.keep(organiser, `update public.events set status = 'cancelled' where id = $1`, [ev])).ok).toBe(true);
    const tickets = await db.sql<{ user_id: string; status: string; refund_reason: string | null }>(
      `select user_id, status, refund_reason from public.event_tickets where event_id = $1 order by id`, [ev]);
    expect(tickets.filter((t) => t.status === 'refund_pending').map((t) => t.user_id).sort()).toEqual([a.id, b.id, off.id].sort());
    expect(tickets.find((t) => t.user_id === h.id)?.status).toBe('expired');
    expect(await seat(ev, h.id)).toBe('cancelled');
    for (const u of [a, b, h, w]) expect(await mails(u.id, 'event_cancelled'), u.id).toHaveLength(1);
    expect((await mails(a.id, 'event_cancelled'))[0]!.lang).toBe('en');
    expect(await mails(off.id, 'event_cancelled')).toHaveLength(0);
  });

  test('an event with sold tickets cannot be deleted; cancelling it is the way', async () => {
    const ev = await paidEvent();
    await buy(await db.user(), ev);
    expect((await db.as(organiser, `delete from public.events where id = $1`, [ev])).message).toBe('event_has_tickets');
  });
});

describe('notifications', () => {
  test('a change of time, place or link is mailed once per change to going, held and waitlisted people', async () => {
    const ev = await paidEvent({ capacity: 1 });
    const g = await db.user({ lang: 'en' });
    const w = await db.user({ lang: 'de' });
    await buy(g, ev);
    await reserve(w, ev);
    expect((await db.keep(organiser, `update public.events set summary = 'Neu' where id = $1`, [ev])).ok).toBe(true);
    expect(await mails(g.id, 'event_changed')).toHaveLength(0);
    expect((await db.keep(organiser, `update public.events set venue_name = 'Saal 2' where id = $1`, [ev])).ok).toBe(true);
    expect(await mails(g.id, 'event_changed')).toHaveLength(1);
    expect((await mails(g.id, 'event_changed'))[0]!.payload).toMatchObject({ event_place: 'Saal 2, Köln' });
    expect(await mails(w.id, 'event_changed')).toHaveLength(1);
    // the same values again (e.g. a second save) send nothing new; a new start time does
    await db.keep(organiser, `update public.events set venue_name = 'Saal 2' where id = $1`, [ev]);
    expect(await mails(g.id, 'event_changed')).toHaveLength(1);
    await db.keep(organiser, `update public.events set starts_at = starts_at + interval '1 hour', ends_at = ends_at + interval '1 hour' where id = $1`, [ev]);
    expect(await mails(g.id, 'event_changed')).toHaveLength(2);
  });

  test('the reminder goes to going attendees 24 hours before the start, once; the switch turns it off', async () => {
    const soon = await paidEvent({ startsIn: '20 hours', capacity: 5 });
    const later = await paidEvent({ startsIn: '3 days', capacity: 5 });
    const u = await db.user();
    const quiet = await db.user();
    await db.sql(`insert into public.user_settings (user_id, email_event_updates) values ($1, false)`, [quiet.id]);
    await buy(u, soon);
    await buy(u, later);
    await buy(quiet, soon);
    await db.sql(`select private.send_event_reminders()`);
    await db.sql(`select private.send_event_reminders()`);
    const reminders = await mails(u.id, 'event_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.payload.path).toBe((await db.sql<{ p: string }>(`select '/events/' || slug as p from public.events where id = $1`, [soon]))[0]!.p);
    expect(await mails(quiet.id, 'event_reminder')).toHaveLength(0);
  });
});

describe('who reads tickets', () => {
  test('the buyer and admins see a ticket, nobody else; Stripe ids are not readable by the buyer', async () => {
    const ev = await paidEvent();
    const u = await db.user();
    await buy(u, ev);
    const own = await db.as(u, `select ticket_number, status from public.event_tickets where event_id = $1`, [ev]);
    expect(own.rows).toHaveLength(1);
    expect((await db.as(await db.user(), `select 1 from public.event_tickets where event_id = $1`, [ev])).rows).toHaveLength(0);
    expect((await db.as(organiser, `select 1 from public.event_tickets where event_id = $1`, [ev])).rows).toHaveLength(0);
    expect((await db.as(await db.user({ role: 'admin' }), `select 1 from public.event_tickets where event_id = $1`, [ev])).rows).toHaveLength(1);
    for (const col of ['checkout_session_id', 'payment_intent_id', 'refund_id', 'refund_error']) {
      expect((await db.as(u, `select ${col} from public.event_tickets`)).code, col).toBe('42501');
    }
    expect((await db.as(u, `select public.sync_ticket_checkout('cs_x', 'complete', 'paid', null, 0, null)`)).code).toBe('42501');
    expect((await db.as(u, `update public.event_attendees set status = 'going' where user_id = $1`, [u.id])).code).toBe('42501');
  });

  test('the data export (DSGVO Art. 20) carries the buyer\'s tickets and settings', async () => {
    const ev = await paidEvent();
    const u = await db.user();
    await buy(u, ev);
    await db.sql(`insert into public.user_settings (user_id, email_event_updates) values ($1, false)`, [u.id]);
    const out = (await db.as(u, `select public.export_my_data() as d`)).rows[0]!.d as { event_tickets: { event_id: number; status: string; ticket_number: string }[]; settings: { email_event_updates: boolean }; profile: unknown };
    expect(out.event_tickets).toEqual([expect.objectContaining({ event_id: ev, status: 'paid', ticket_number: expect.stringMatching(/^TW-/) })]);
    expect(out.settings).toMatchObject({ email_event_updates: false });
    expect(out.profile).toBeTruthy();
  });
});
