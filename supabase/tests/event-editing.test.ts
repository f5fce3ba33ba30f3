/**
 * Editing events after creation (issue 8; rules in supabase/schemas/11_events.sql) through the
 * real API with supabase-js: the organiser edits, a stranger and anon are refused, the capacity
 * cannot drop below the confirmed attendees, adding seats promotes the waitlist in order,
 * finished/cancelled events are read-only, the slug is permanent, prices cannot rise with RSVPs,
 * an upcoming event moved far ahead is published again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import WebSocket from 'ws';
import { stackConfig } from '../../scripts/local-stack/config.ts';

const config = stackConfig();
const PASSWORD = 'Edit-Events-2026!';
const options = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket } };
const service = createClient(config.apiUrl, config.serviceRoleKey, options);
const anonClient = () => createClient(config.apiUrl, config.anonKey, options);

interface User { id: string; client: SupabaseClient }
const userIds: string[] = [];

/** A confirmed user of this file, signed in with supabase-js. */
async function newUser(name: string, role: 'free' | 'admin' = 'free'): Promise<User> {
  const email = `ev-edit-${name.toLowerCase()}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@tests.teamwerk.test`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { firstname: name, lastname: 'Edit' } });
  if (created.error) throw created.error;
  const id = created.data.user.id;
  userIds.push(id);
  const prof = await service.from('profiles').update({ user_role: role, authenticated: 1, profile_visibility: 1 }).eq('id', id).select('id').single();
  if (prof.error) throw prof.error;
  const client = anonClient();
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  return { id, client };
}

const inDays = (days: number, hours = 0) => new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();

/** Inserts an event as the service role (any status) and returns id and slug. */
async function insertEvent(organizerId: string, fields: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
  const r = await service
    .from('events')
    .insert({ organizer_id: organizerId, slug: '', title: 'Edit test event', status: 'published', starts_at: inDays(20), ends_at: inDays(20, 2), city: 'Bremen', ...fields })
    .select('id, slug')
    .single();
  if (r.error) throw r.error;
  return r.data;
}

const row = async (id: number) =>
  (await service.from('events').select('title, slug, capacity, going_count, waitlist_count, starts_at, is_paid, price_cents').eq('id', id).single()).data!;

const seats = async (eventId: number) =>
  Object.fromEntries(((await service.from('event_attendees').select('user_id, status').eq('event_id', eventId)).data ?? []).map((r) => [r.user_id, r.status]));

const rsvp = async (u: User, eventId: number) => {
  const r = await u.client.rpc('rsvp_event', { p_event_id: eventId });
  expect(r.error).toBeNull();
};

let owner: User;
let stranger: User;
let admin: User;
let a: User;
let b: User;
let c: User;

beforeAll(async () => {
  [owner, stranger, admin, a, b, c] = await Promise.all([
    newUser('Owner'), newUser('Stranger'), newUser('Admin', 'admin'), newUser('Anna'), newUser('Bernd'), newUser('Clara'),
  ]);
});

afterAll(async () => {
  // One after the other: profiles cascade to events and attendees, and parallel deletions would
  // contend for the same event rows (attendee trigger) and the listed-profiles counter.
  for (const id of userIds) {
    const { error } = await service.auth.admin.deleteUser(id);
    expect(error).toBeNull();
  }
});

describe('who may edit', () => {
  test('the organiser edits title, times and place; the slug stays', async () => {
    const ev = await insertEvent(owner.id, { title: 'Stammtisch Bremen' });
    const starts = inDays(30);
    const r = await owner.client
      .from('events')
      .update({ title: 'Stammtisch Bremen (neuer Termin)', starts_at: starts, ends_at: inDays(30, 3), city: 'Hamburg' })
      .eq('id', ev.id)
      .select('title, slug, city, starts_at')
      .single();
    expect(r.error).toBeNull();
    expect(r.data).toMatchObject({ title: 'Stammtisch Bremen (neuer Termin)', slug: ev.slug, city: 'Hamburg' });
    expect(new Date(r.data!.starts_at).toISOString()).toBe(starts);
  });

  test('search follows an edited title', async () => {
    const word = `Quarkstrudel${Math.random().toString(36).slice(2, 7)}`;
    const ev = await insertEvent(owner.id, { title: `Backkurs ${word}` });
    const find = async (q: string) => {
      const { data, error } = await anonClient().rpc('search', { q, types: ['event'] });
      expect(error).toBeNull();
      return (data as { results: unknown[] }).results.length;
    };
    expect(await find(word)).toBe(1);
    const edited = await owner.client.from('events').update({ title: 'Backkurs Apfelstrudel' }).eq('id', ev.id).select('id');
    expect(edited.error).toBeNull();
    expect(await find(word)).toBe(0);
  });

  test('a stranger and anon change nothing; an admin may edit', async () => {
    const ev = await insertEvent(owner.id, { title: 'Nur für die Veranstalterin' });
    const byStranger = await stranger.client.from('events').update({ title: 'Gekapert' }).eq('id', ev.id).select('id');
    expect(byStranger.error).toBeNull();
    expect(byStranger.data).toEqual([]);
    const byAnon = await anonClient().from('events').update({ title: 'Gekapert' }).eq('id', ev.id).select('id');
    expect(byAnon.error?.code).toBe('42501');
    expect((await row(ev.id)).title).toBe('Nur für die Veranstalterin');
    const byAdmin = await admin.client.from('events').update({ title: 'Vom Admin korrigiert' }).eq('id', ev.id).select('title').single();
    expect(byAdmin.error).toBeNull();
    expect((await row(ev.id)).title).toBe('Vom Admin korrigiert');
  });

  test('the slug is permanent', async () => {
    const ev = await insertEvent(owner.id);
    const r = await owner.client.from('events').update({ slug: 'neuer-slug-fuer-links' }).eq('id', ev.id).select('id');
    expect(r.error?.code).toBe('42501');
    expect((await row(ev.id)).slug).toBe(ev.slug);
  });
});

describe('capacity and waitlist', () => {
  test('the capacity cannot drop below the confirmed attendees; nothing of the edit is saved', async () => {
    const ev = await insertEvent(owner.id, { title: 'Volles Haus', capacity: 3 });
    await rsvp(a, ev.id);
    await rsvp(b, ev.id);
    const r = await owner.client.from('events').update({ title: 'Volles Haus, kleiner', capacity: 1 }).eq('id', ev.id).select('id');
    expect(r.error?.code).toBe('P0001');
    expect(r.error?.message).toBe('capacity_below_attendees');
    expect(r.error?.hint).toBe('2');
    expect(await row(ev.id)).toMatchObject({ title: 'Volles Haus', capacity: 3, going_count: 2 });
    // exactly the number of attendees is fine
    const ok = await owner.client.from('events').update({ capacity: 2 }).eq('id', ev.id).select('capacity').single();
    expect(ok.error).toBeNull();
    expect(ok.data!.capacity).toBe(2);
  });

  test('raising the capacity promotes the first waitlisted; removing it promotes the rest', async () => {
    const ev = await insertEvent(owner.id, { title: 'Warteliste', capacity: 1 });
    await rsvp(a, ev.id);
    await rsvp(b, ev.id);
    await rsvp(c, ev.id);
    expect(await seats(ev.id)).toEqual({ [a.id]: 'going', [b.id]: 'waitlisted', [c.id]: 'waitlisted' });
    const raised = await owner.client.from('events').update({ capacity: 2 }).eq('id', ev.id).select('going_count, waitlist_count').single();
    expect(raised.error).toBeNull();
    expect(raised.data).toEqual({ going_count: 2, waitlist_count: 1 });
    expect(await seats(ev.id)).toEqual({ [a.id]: 'going', [b.id]: 'going', [c.id]: 'waitlisted' });
    // C still sees a position on the waitlist, now the first
    expect((await c.client.rpc('event_waitlist_position', { p_event_id: ev.id })).data).toBe(1);
    const unlimited = await owner.client.from('events').update({ capacity: null }).eq('id', ev.id).select('id');
    expect(unlimited.error).toBeNull();
    expect(await seats(ev.id)).toEqual({ [a.id]: 'going', [b.id]: 'going', [c.id]: 'going' });
    expect(await row(ev.id)).toMatchObject({ going_count: 3, waitlist_count: 0 });
  });

  test('cancelling an RSVP still promotes the next one (shared promotion code)', async () => {
    const ev = await insertEvent(owner.id, { title: 'Absage', capacity: 1 });
    await rsvp(a, ev.id);
    await rsvp(b, ev.id);
    const cancel = await a.client.rpc('cancel_rsvp', { p_event_id: ev.id });
    expect(cancel.error).toBeNull();
    expect(await seats(ev.id)).toEqual({ [a.id]: 'cancelled', [b.id]: 'going' });
    expect(await row(ev.id)).toMatchObject({ going_count: 1, waitlist_count: 0 });
  });
});

describe('read-only and time rules', () => {
  test.each(['finished', 'cancelled'])('a %s event is read-only', async (status) => {
    const ev = await insertEvent(owner.id, { title: `Vorbei ${status}`, status, starts_at: inDays(-3), ends_at: inDays(-3, 2) });
    const r = await owner.client.from('events').update({ title: 'Nachträglich geändert' }).eq('id', ev.id).select('id');
    expect(r.error?.code).toBe('P0001');
    expect(r.error?.message).toBe('event_read_only');
    const reopen = await owner.client.from('events').update({ status: 'published' }).eq('id', ev.id).select('id');
    expect(reopen.error?.message).toBe('invalid_event_transition');
    expect(await row(ev.id)).toMatchObject({ title: `Vorbei ${status}` });
  });

  test('a changed start must lie in the future; an ongoing event keeps its start', async () => {
    const ev = await insertEvent(owner.id, { title: 'Zeitreise' });
    const past = await owner.client.from('events').update({ starts_at: inDays(-1), ends_at: inDays(-1, 2) }).eq('id', ev.id).select('id');
    expect(past.error?.message).toBe('event_time_past');
    const running = await insertEvent(owner.id, { title: 'Läuft schon', status: 'ongoing', starts_at: inDays(0, -1), ends_at: inDays(0, 2) });
    const moved = await owner.client.from('events').update({ starts_at: inDays(2) }).eq('id', running.id).select('id');
    expect(moved.error?.message).toBe('event_started');
    // extending an ongoing event is fine
    const longer = await owner.client.from('events').update({ ends_at: inDays(0, 4) }).eq('id', running.id).select('id');
    expect(longer.error).toBeNull();
    const reversed = await owner.client.from('events').update({ ends_at: inDays(19) }).eq('id', ev.id).select('id');
    expect(reversed.error?.code).toBe('23514');
  });

  test('an upcoming event moved more than 7 days ahead is published again; a smaller move keeps it upcoming', async () => {
    const ev = await insertEvent(owner.id, { title: 'Bald', status: 'upcoming', starts_at: inDays(3), ends_at: inDays(3, 2) });
    const near = await owner.client.from('events').update({ starts_at: inDays(5), ends_at: inDays(5, 2) }).eq('id', ev.id).select('status').single();
    expect(near.data).toEqual({ status: 'upcoming' });
    const far = await owner.client.from('events').update({ starts_at: inDays(30), ends_at: inDays(30, 2) }).eq('id', ev.id).select('status').single();
    expect(far.error).toBeNull();
    expect(far.data).toEqual({ status: 'published' });
  });

  test('with RSVPs a free event cannot become paid and a price cannot rise; lowering is fine', async () => {
    const free = await insertEvent(owner.id, { title: 'Gratis' });
    const paid = await insertEvent(owner.id, { title: 'Kurs', is_paid: true, price_cents: 2000 });
    // without RSVPs the organiser may still set a price
    expect((await owner.client.from('events').update({ price_cents: 2500 }).eq('id', paid.id).select('id')).error).toBeNull();
    await rsvp(a, free.id);
    // a paid event's RSVP is a reserved ticket (issue 16)
    expect((await a.client.rpc('reserve_ticket', { p_event_id: paid.id, p_lang: 'de' })).error).toBeNull();
    const toPaid = await owner.client.from('events').update({ is_paid: true, price_cents: 500 }).eq('id', free.id).select('id');
    expect(toPaid.error?.message).toBe('event_price_locked');
    const rise = await owner.client.from('events').update({ price_cents: 3000 }).eq('id', paid.id).select('id');
    expect(rise.error?.message).toBe('event_price_locked');
    const lower = await owner.client.from('events').update({ price_cents: 1500 }).eq('id', paid.id).select('price_cents').single();
    expect(lower.error).toBeNull();
    expect(await row(paid.id)).toMatchObject({ is_paid: true, price_cents: 1500 });
    expect(await row(free.id)).toMatchObject({ is_paid: false, price_cents: null });
  });
});

describe('under concurrency (the event row lock orders RSVPs and edits)', () => {
  /** A Postgres session acting as `userId` like PostgREST does, inside an open transaction. */
  async function session(userId: string): Promise<{ c: pg.Client; pid: number }> {
    const c = new pg.Client({ connectionString: config.dbUrl });
    await c.connect();
    await c.query('begin');
    await c.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)`,
      [JSON.stringify({ sub: userId, role: 'authenticated' }), userId]);
    const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    return { c, pid };
  }

  /** Resolves once backend `pid` waits for a lock (polling, no fixed sleep). */
  async function waitsForLock(pid: number): Promise<void> {
    const probe = new pg.Client({ connectionString: config.dbUrl });
    await probe.connect();
    try {
      for (let i = 0; i < 200; i++) {
        const { rows } = await probe.query(`select wait_event_type from pg_stat_activity where pid = $1`, [pid]);
        if (rows[0]?.wait_event_type === 'Lock') return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`backend ${pid} never waited for a lock`);
    } finally {
      await probe.end();
    }
  }

  test('an RSVP committed while the organiser lowers the capacity makes the edit fail', async () => {
    const ev = await insertEvent(owner.id, { title: 'Wettlauf Kapazität', capacity: 2 });
    await rsvp(a, ev.id);
    const guest = await session(b.id);
    const organiser = await session(owner.id);
    try {
      await guest.c.query(`select public.rsvp_event($1)`, [ev.id]);
      const edit = organiser.c.query(`update public.events set capacity = 1 where id = $1`, [ev.id]).then(() => 'saved', (e: Error) => e.message);
      await waitsForLock(organiser.pid);
      await guest.c.query('commit');
      expect(await edit).toBe('capacity_below_attendees');
    } finally {
      await organiser.c.query('rollback').catch(() => undefined);
      await Promise.all([guest.c.end(), organiser.c.end()]);
    }
    expect(await row(ev.id)).toMatchObject({ capacity: 2, going_count: 2 });
  });

  test('an RSVP waiting behind a capacity change gets the seat situation after it', async () => {
    const ev = await insertEvent(owner.id, { title: 'Wettlauf Warteliste', capacity: 3 });
    await rsvp(a, ev.id);
    const organiser = await session(owner.id);
    const guest = await session(b.id);
    try {
      await organiser.c.query(`update public.events set capacity = 1 where id = $1`, [ev.id]);
      const signUp = guest.c.query(`select public.rsvp_event($1) as status`, [ev.id]);
      await waitsForLock(guest.pid);
      await organiser.c.query('commit');
      expect((await signUp).rows[0]).toEqual({ status: 'waitlisted' });
      await guest.c.query('commit');
    } finally {
      await Promise.all([guest.c.end(), organiser.c.end()]);
    }
    expect(await seats(ev.id)).toEqual({ [a.id]: 'going', [b.id]: 'waitlisted' });
    expect(await row(ev.id)).toMatchObject({ capacity: 1, going_count: 1, waitlist_count: 1 });
  });
});
