/**
 * Database rules (issue 4): display helpers, visible users, protected columns, plan limit,
 * event transitions and RSVP waitlist, favourites, blocking, confirmation -> welcome mail,
 * legacy password change, Stripe sync ordering, newsletter double opt-in, chat, realtime
 * topics and storage folders. Everything runs in one transaction that is rolled back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, serviceRole, TestDb, type Actor } from './support.ts';
import { paths } from '../../frontend/src/config/paths.ts';

let db: TestDb;
type User = Actor & { kind: 'user' };
let basic: User;
let free: User;
let premium: User;
let admin: User;
let blocker: User;

beforeAll(async () => {
  db = await TestDb.open();
  basic = await db.user({ role: 'basic', name: 'Bernd Basic' });
  free = await db.user({ role: 'free', name: 'Frieda Frei' });
  premium = await db.user({ role: 'premium', name: 'Paula Premium' });
  admin = await db.user({ role: 'admin', name: 'Adam Admin' });
  blocker = await db.user({ role: 'premium', name: 'Boris Blocker' });
});
afterAll(async () => db?.close());

const val = async <T>(sql: string, params: unknown[] = []): Promise<T> => Object.values((await db.sql(sql, params))[0]!)[0] as T;

describe('display helpers (spec §3)', () => {
  const show = async (fields: Record<string, unknown>) => {
    const sets = Object.keys(fields).map((k, i) => `${k} = $${i + 2}`).join(', ');
    await db.sql(`update public.profiles set ${sets} where id = $1`, [free.id, ...Object.values(fields)]);
    const [row] = await db.sql<{ name: string; public_name: string; slug: string; address: string }>(
      `select private.display_name(u) as name, private.public_display_name(u.firstname, u.lastname, u.slug) as public_name,
              u.slug, private.public_display_address(u.id) as address
       from public.profiles u where u.id = $1`, [free.id]);
    return row!;
  };
  test('display name is first plus last name', async () => {
    expect((await show({ firstname: 'Anna', lastname: 'Schmidt' })).name).toBe('Anna Schmidt');
  });
  test('display name drops an empty part', async () => {
    expect((await show({ firstname: 'Anna', lastname: '' })).name).toBe('Anna');
  });
  test('display name falls back to the e-mail for the person and admins, to the slug for everyone else (issue 12)', async () => {
    const r = await show({ firstname: ' ', lastname: '' });
    expect(r.name).toBe(free.email);
    expect(r.public_name).toBe(r.slug);
    expect(r.public_name).not.toContain('@');
  });
  test('business address: street + house number, city, state, zipcode', async () => {
    const r = await show({ type: 'business', street: 'Hauptstraße', house_number: '5', city: 'Berlin', state: 'Berlin', zipcode: '10117' });
    expect(r.address).toBe('Hauptstraße 5, Berlin, Berlin, 10117');
  });
  test('business address drops empty parts', async () => {
    const r = await show({ type: 'business', street: 'Hauptstraße', house_number: null, city: 'Leipzig', state: '', zipcode: '04109' });
    expect(r.address).toBe('Hauptstraße, Leipzig, 04109');
  });
  test('other profiles show only the city', async () => {
    expect((await show({ type: 'other', street: 'Hauptstraße', house_number: '5', city: 'Köln', zipcode: '50667' })).address).toBe('Köln');
    expect((await show({ type: 'other', city: null })).address).toBe('');
  });
});

describe('visible users (spec §6)', () => {
  test('list and count contain only authenticated = 1 and profile_visibility = 1 (minus suspended)', async () => {
    const hidden = await db.user({ visible: false, name: 'Hanna Hidden' });
    const unconfirmed = await db.user({ confirmed: false, name: 'Ulf Unconfirmed' });
    const listed = await db.as(anon, `select id from public.visible_profiles where id = any($1::uuid[])`, [[hidden.id, unconfirmed.id, free.id]]);
    expect(listed.rows.map((r) => r.id)).toEqual([free.id]);
    const direct = (viewer: string | null) => val<string>(`select count(*) from public.profiles p where authenticated = 1 and profile_visibility = 1
      and not exists (select 1 from public.account_suspensions s where s.user_id = p.id)
      and not exists (select 1 from public.user_blocks b where (b.blocker_id = p.id and b.blocked_id = $1::uuid) or (b.blocked_id = p.id and b.blocker_id = $1::uuid))`, [viewer]);
    const counted = async (as: Actor) => String((await db.as(as, `select public.visible_profiles_count() as n`)).rows[0]!.n);
    expect(await counted(anon)).toBe(String(await direct(null)));
    // the counter follows visibility, confirmation, suspension, deletion and blocks
    const a = await db.user({ name: 'Zara Zaehler' });
    const b = await db.user({ confirmed: false, name: 'Yann Zaehler' });
    await db.sql(`update public.profiles set profile_visibility = 0 where id = $1`, [free.id]);
    await db.sql(`update public.profiles set authenticated = 1 where id = $1`, [b.id]);
    await db.sql(`insert into public.account_suspensions (user_id) values ($1)`, [a.id]);
    await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [premium.id, basic.id]);
    expect(await counted(anon)).toBe(String(await direct(null)));
    expect(await counted(premium)).toBe(String(await direct(premium.id)));
    await db.sql(`delete from auth.users where id = $1`, [a.id]);
    await db.sql(`delete from public.account_suspensions where user_id = $1`, [b.id]);
    await db.sql(`update public.profiles set profile_visibility = 1 where id = $1`, [free.id]);
    await db.sql(`delete from public.user_blocks where blocker_id = $1`, [premium.id]);
    expect(await counted(anon)).toBe(String(await direct(null)));
    expect(await counted(premium)).toBe(String(await direct(premium.id)));
  });
});

describe('slugs and function privileges', () => {
  test('profile slugs come from the name (German transliteration) and stay unique', async () => {
    const a = await db.user({ name: 'Jürgen Groß', slugFromName: true });
    const b = await db.user({ name: 'Jürgen Groß', slugFromName: true });
    const slugs = (await db.sql<{ slug: string }>(`select slug from public.profiles where id = any($1::uuid[]) order by created_at, slug`, [[a.id, b.id]])).map((r) => r.slug);
    expect(slugs).toContain('juergen-gross');
    expect(new Set(slugs).size).toBe(2);
    expect(slugs.every((x) => x.startsWith('juergen-gross'))).toBe(true);
  });
  test('reserved slugs (issue 31): every top-level path of the SPA; a name never yields one; nobody sets one', async () => {
    const flatten = (value: unknown): string[] =>
      typeof value === 'string' ? [value]
        : typeof value === 'function' ? [(value as (...args: string[]) => string)('1', '1')]
          : Object.values(value as Record<string, unknown>).flatMap(flatten);
    // first path segments; /{id}-{slug} (projects) starts with a digit and is no slug
    const segments = new Set(flatten(paths).map((p) => p.split(/[/?#]/)[1] ?? '').filter((segment) => /^[a-z]/.test(segment)));
    expect(segments.size).toBeGreaterThan(20);
    const free = await db.sql<{ segment: string }>(`select s as segment from unnest($1::text[]) s where not private.is_reserved_slug(s)`, [[...segments]]);
    expect(free, 'top-level paths missing from private.is_reserved_slug').toEqual([]);
    const named = await db.user({ name: 'Admin', slugFromName: true });
    const slug = await val<string>(`select slug from public.profiles where id = $1`, [named.id]);
    expect(slug).toMatch(/^admin-[0-9a-f]{6}$/);
    const taken = await db.as(named, `update public.profiles set slug = 'login' where id = $1`, [named.id]);
    expect([taken.ok, taken.code]).toEqual([false, '23514']);
    const own = await db.as(named, `update public.profiles set slug = 'admin-of-my-garden' where id = $1`, [named.id]);
    expect(own.rowCount).toBe(1);
  });
  test.each(['claim_email_batch', 'complete_email', 'fail_email', 'confirm_user_email', 'sync_subscription', 'record_stripe_event', 'finish_stripe_event'])(
    'service-role RPC %s is not executable by anon or authenticated', async (fn) => {
      const rows = await db.sql<{ anon: boolean; auth: boolean; service: boolean }>(
        `select bool_or(has_function_privilege('anon', p.oid, 'execute')) as anon, bool_or(has_function_privilege('authenticated', p.oid, 'execute')) as auth,
                bool_and(has_function_privilege('service_role', p.oid, 'execute')) as service
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = $1`, [fn]);
      expect(rows[0]).toEqual({ anon: false, auth: false, service: true });
    });
});

describe('protected profile columns', () => {
  test.each([
    ['user_role', `'premium'`], ['authenticated', '0'], ['stripe_customer_id', `'cus_evil'`], ['email', `'x@example.com'`],
  ])('a user cannot change own %s', async (column, value) => {
    const r = await db.as(free, `update public.profiles set ${column} = ${value} where id = $1`, [free.id]);
    expect(r.ok).toBe(false);
    expect(r.code).toBe('42501');
  });
  test('a user can change own headline', async () => {
    const r = await db.as(free, `update public.profiles set headline = 'Gründerin aus Köln' where id = $1`, [free.id]);
    expect(r.rowCount).toBe(1);
  });
  test('not even an admin writes role or confirmation through PostgREST: update-user does, audited (issue 12 finding 6)', async () => {
    for (const column of ['user_role', 'authenticated']) {
      const r = await db.as(admin, `update public.profiles set ${column} = ${column} where id = $1`, [free.id]);
      expect(r.code, column).toBe('42501');
      expect(r.message).toMatch(/permission denied/);
    }
    const r = await db.as(admin, `update public.profiles set headline = 'Von der Redaktion geprüft' where id = $1`, [free.id]);
    expect(r.rowCount).toBe(1);
  });
});

describe('plan limit (spec §5: Basic 3 projects; drafts do not count, issue 33 §5)', () => {
  const create = (u: User, title: string) =>
    db.keep(u, `insert into public.projects (owner_id, title, category, status) values ($1, $2, 'technology', 'published')`, [u.id, title]);
  test('basic: three published projects, the fourth is refused with plan_limit_reached', async () => {
    for (const n of [1, 2, 3]) expect((await create(basic, `Basic Projekt ${n}`)).ok).toBe(true);
    const fourth = await create(basic, 'Basic Projekt 4');
    expect(fourth.ok).toBe(false);
    expect(fourth.code).toBe('P0001');
    expect(fourth.message).toBe('plan_limit_reached');
  });
  test('free: no projects', async () => {
    const r = await create(free, 'Freies Projekt');
    expect(r.code).toBe('P0001');
  });
  test('premium: unlimited', async () => {
    for (const n of [1, 2, 3, 4, 5]) expect((await create(premium, `Premium Projekt ${n}`)).ok).toBe(true);
  });
});

describe('event status transitions and RSVP', () => {
  let eventId: string;
  beforeAll(async () => {
    const r = await db.keep(premium, `insert into public.events (organizer_id, title, starts_at, ends_at, city, capacity)
      values ($1, 'Gründerstammtisch Test', now() + interval '3 days', now() + interval '3 days 2 hours', 'Berlin', 2) returning id`, [premium.id]);
    expect(r.ok, r.message).toBe(true);
    eventId = String(r.rows[0]!.id);
  });
  const setStatus = (s: string) => db.as(premium, `update public.events set status = $2 where id = $1`, [eventId, s]);
  test('a new event cannot start as finished', async () => {
    const r = await db.as(premium, `insert into public.events (organizer_id, title, starts_at, ends_at, city, status)
      values ($1, 'Falscher Start', now(), now() + interval '1 hour', 'Berlin', 'finished')`, [premium.id]);
    expect(r.message).toBe('invalid_event_status');
  });
  test.each([['published', true], ['cancelled', true], ['upcoming', false], ['ongoing', false], ['finished', false]])(
    'draft -> %s allowed=%s', async (to, allowed) => {
      const r = await setStatus(to as string);
      expect(r.ok).toBe(allowed);
      if (!allowed) expect(r.message).toBe('invalid_event_transition');
    });
  test('full path draft -> published -> upcoming -> ongoing -> finished, then final', async () => {
    for (const s of ['published', 'upcoming', 'ongoing', 'finished']) {
      expect((await db.as({ kind: 'postgres' }, 'select 1')).ok).toBe(true);
      const r = await db.keep(premium, `update public.events set status = $2 where id = $1`, [eventId, s]);
      expect(r.ok, `${s}: ${r.message}`).toBe(true);
    }
    expect((await setStatus('upcoming')).message).toBe('invalid_event_transition');
    const rsvp = await db.as(free, `select public.rsvp_event($1)`, [eventId]);
    expect(rsvp.message).toBe('event_not_open');
    const r = await db.keep(premium, `insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity)
      values ($1, 'Gründerstammtisch Zwei', 'published', now() + interval '4 days', now() + interval '4 days 2 hours', 'Berlin', 2) returning id`, [premium.id]);
    eventId = String(r.rows[0]!.id);
  });
  test('capacity 2: third RSVP is waitlisted and promoted when a seat frees up', async () => {
    const users = [basic, free, admin];
    for (const u of users) {
      const r = await db.keep(u, `select public.rsvp_event($1)`, [eventId]);
      expect(r.ok, r.message).toBe(true);
    }
    const status = async () => Object.fromEntries((await db.sql<{ user_id: string; status: string }>(
      `select user_id, status from public.event_attendees where event_id = $1`, [eventId])).map((r) => [r.user_id, r.status]));
    expect(await status()).toEqual({ [basic.id]: 'going', [free.id]: 'going', [admin.id]: 'waitlisted' });
    expect(await val(`select going_count || '/' || waitlist_count from public.events where id = $1`, [eventId])).toBe('2/1');
    const cheat = await db.as(admin, `update public.event_attendees set status = 'going' where event_id = $1 and user_id = $2`, [eventId, admin.id]);
    expect(cheat.code).toBe('42501');
    expect((await db.keep(basic, `select public.cancel_rsvp($1)`, [eventId])).ok).toBe(true);
    expect(await status()).toEqual({ [basic.id]: 'cancelled', [free.id]: 'going', [admin.id]: 'going' });
    expect(await val(`select going_count || '/' || waitlist_count from public.events where id = $1`, [eventId])).toBe('2/0');
  });
});

describe('time-driven event statuses (pg_cron job)', () => {
  test('published -> upcoming (7 days ahead), -> ongoing at start, -> finished at end', async () => {
    const mk = async (title: string, status: string, start: string, end: string) => String((await db.sql(
      `insert into public.events (organizer_id, title, status, starts_at, ends_at, city) values ($1, $2, $3, now() + $4::interval, now() + $5::interval, 'Kiel') returning id`,
      [premium.id, title, status, start, end]))[0]!.id);
    const soon = await mk('Bald', 'published', '3 days', '3 days 2 hours');
    const later = await mk('Später', 'published', '30 days', '30 days 2 hours');
    const running = await mk('Läuft', 'upcoming', '-1 hour', '1 hour');
    const over = await mk('Vorbei', 'published', '-3 hours', '-1 hour');
    await db.sql(`select * from private.advance_event_statuses()`);
    const status = Object.fromEntries((await db.sql<{ id: string; status: string }>(
      `select id::text, status from public.events where id = any($1::bigint[])`, [[soon, later, running, over]])).map((r) => [r.id, r.status]));
    expect(status).toEqual({ [soon]: 'upcoming', [later]: 'published', [running]: 'ongoing', [over]: 'finished' });
    const job = await db.sql(`select schedule from cron.job where jobname = 'advance-event-statuses'`);
    expect(job).toEqual([{ schedule: '*/5 * * * *' }]);
  });
});

describe('favourites and blocking (spec §5)', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = String((await db.sql(`insert into public.projects (owner_id, title, category, status) values ($1, 'Blockiertes Projekt', 'art', 'published') returning id`, [premium.id]))[0]!.id);
    await db.sql(`insert into public.favourite_jobs (user_id, job_id) select $1, id from public.jobs limit 1`, [free.id]);
  });
  test('adding a favourite twice never duplicates', async () => {
    expect((await db.keep(free, `insert into public.favourite_projects (user_id, project_id) values ($1, $2)`, [free.id, projectId])).ok).toBe(true);
    const again = await db.as(free, `insert into public.favourite_projects (user_id, project_id) values ($1, $2)`, [free.id, projectId]);
    expect(again.code).toBe('23505');
    const job = await db.as(free, `insert into public.favourite_jobs (user_id, job_id) select $1, job_id from public.favourite_jobs where user_id = $1`, [free.id]);
    expect(job.code).toBe('23505');
  });
  test('favourite project id 0 is rejected', async () => {
    expect((await db.as(free, `insert into public.favourite_projects (user_id, project_id) values ($1, 0)`, [free.id])).ok).toBe(false);
    // the table itself refuses it too, whoever writes (check constraint project_id > 0)
    expect((await db.as({ kind: 'postgres' }, `insert into public.favourite_projects (user_id, project_id) values ($1, 0)`, [free.id])).code).toBe('23514');
  });
  test('nobody can block themselves', async () => {
    expect((await db.as(free, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $1)`, [free.id])).code).toBe('23514');
  });
  test('after a block neither side sees the other: profile, project, contact request, chat', async () => {
    await db.sql(`insert into public.contacts (requester_id, addressee_id, status) values ($1, $2, 'accepted')`, [premium.id, blocker.id]);
    const conv = await db.keep(premium, `select public.start_direct_conversation($1) as id`, [blocker.id]);
    expect(conv.ok, conv.message).toBe(true);
    expect((await db.keep(blocker, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [blocker.id, premium.id])).ok).toBe(true);
    for (const [viewer, target] of [[blocker, premium], [premium, blocker]] as const) {
      expect((await db.as(viewer, `select 1 from public.profiles where id = $1`, [target.id])).rowCount).toBe(0);
    }
    expect((await db.as(blocker, `select 1 from public.projects where id = $1`, [projectId])).rowCount).toBe(0);
    expect((await db.as(free, `select 1 from public.projects where id = $1`, [projectId])).rowCount).toBe(1);
    expect((await db.as(premium, `select 1 from public.contacts where requester_id = $1 and addressee_id = $2`, [premium.id, blocker.id])).rowCount).toBe(0);
    expect((await db.as(premium, `select public.send_contact_request($1)`, [blocker.id])).message).toBe('blocked');
    const msg = await db.as(premium, `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Hallo?')`, [conv.rows[0]!.id, premium.id]);
    expect(msg.ok).toBe(false);
    const again = await db.as(premium, `select public.start_direct_conversation($1)`, [blocker.id]);
    expect(again.message).toBe('blocked');
    expect((await db.as(blocker, `select public.search('Blockiertes Projekt') -> 'results' as r`)).rows[0]!.r).toEqual([]);
  });
});

describe('confirmation -> welcome mail (spec §7)', () => {
  test('confirming sets authenticated = 1 and queues one welcome_email in the user\'s language', async () => {
    const u = await db.user({ confirmed: false, lang: 'en', name: 'Emma English' });
    expect(await val(`select authenticated from public.profiles where id = $1`, [u.id])).toBe(0);
    const denied = await db.as(u, `select public.confirm_user_email($1)`, [u.id]);
    expect(denied.code).toBe('42501');
    const r = await db.keep(serviceRole, `select public.confirm_user_email($1) as first, public.confirm_user_email($1) as second`, [u.id]);
    expect(r.rows[0]).toEqual({ first: true, second: false });
    expect(await val(`select authenticated from public.profiles where id = $1`, [u.id])).toBe(1);
    const mails = await db.sql(`select email_type, lang, user_metadata from public.email_queue where user_id = $1`, [u.id]);
    expect(mails).toEqual([{ email_type: 'welcome_email', lang: 'en', user_metadata: { firstname: 'Emma', lastname: 'English' } }]);
  });
  test('a legacy old_user who sets a new password becomes free (spec §4)', async () => {
    const u = await db.user({ role: 'old_user' });
    await db.sql(`update auth.users set encrypted_password = 'new-hash' where id = $1`, [u.id]);
    expect(await val(`select user_role from public.profiles where id = $1`, [u.id])).toBe('free');
  });
});

describe('sync_subscription (issue 7)', () => {
  const sync = (status: string, at: string, price = 'premium') => db.keep(serviceRole,
    `select (public.sync_subscription(p_user_id => $1, p_stripe_customer_id => 'cus_sync', p_stripe_subscription_id => 'sub_sync_1',
       p_status => $2::public.subscription_status, p_plan_id => $4, p_current_period_end => now() + interval '30 days',
       p_synced_at => $3::timestamptz)).status`, [free.id, status, at, price]);
  const role = () => val<string>(`select user_role from public.profiles where id = $1`, [free.id]);
  test('only service_role may call it', async () => {
    const r = await db.as(free, `select public.sync_subscription($1, 'cus', 'sub', 'active', null, 'premium')`, [free.id]);
    expect(r.code).toBe('42501');
  });
  test('older state never overwrites newer; role follows the active plan and returns to free', async () => {
    expect((await sync('active', '2026-11-21T10:00:00Z')).rows[0]!.status).toBe('active');
    expect(await role()).toBe('premium');
    expect((await sync('canceled', '2026-11-21T09:00:00Z')).rows[0]!.status).toBe('active');
    expect(await role()).toBe('premium');
    expect((await sync('canceled', '2026-11-21T11:00:00Z')).rows[0]!.status).toBe('canceled');
    expect(await role()).toBe('free');
    expect(await val(`select stripe_customer_id from public.profiles where id = $1`, [free.id])).toBe('cus_sync');
  });
  test('unknown price is an error', async () => {
    const r = await db.as(serviceRole, `select public.sync_subscription($1, 'cus', 'sub_x', 'active', 'price_unknown', null)`, [free.id]);
    expect(r.message).toBe('unknown_price');
  });
  test('stripe event ledger drops duplicates', async () => {
    const r = await db.keep(serviceRole, `select public.record_stripe_event('evt_rules_1', 'invoice.paid') as a`);
    expect(r.rows[0]!.a).toBe(true);
    await db.keep(serviceRole, `select public.finish_stripe_event('evt_rules_1')`);
    expect((await db.keep(serviceRole, `select public.record_stripe_event('evt_rules_1', 'invoice.paid') as a`)).rows[0]!.a).toBe(false);
  });
});

describe('email queue backoff', () => {
  test('fail_email backs off exponentially and ends in failed; complete_email marks sent', async () => {
    const id = await val<string>(`insert into public.email_queue (email, email_type) values ('backoff@tests.teamwerk.test', 'welcome_email') returning id`);
    await db.sql(`update public.email_queue set next_attempt_at = now() - interval '1 hour' where id = $1`, [id]);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await db.sql(`update public.email_queue set status = 'processing', attempts = $2 where id = $1`, [id, attempt]);
      const r = await db.keep(serviceRole, `select public.fail_email($1, 'Resend 503', 3) as s`, [id]);
      delays.push(Math.round(await val<number>(`select extract(epoch from next_attempt_at - now()) from public.email_queue where id = $1`, [id])));
      expect(r.rows[0]!.s).toBe(attempt < 3 ? 'pending' : 'failed');
    }
    expect(delays.slice(0, 2)).toEqual([30, 60]);
    expect(await val(`select last_error from public.email_queue where id = $1`, [id])).toBe('Resend 503');
    await db.sql(`update public.email_queue set status = 'processing' where id = $1`, [id]);
    expect((await db.keep(serviceRole, `select public.complete_email($1, 'msg_1') as ok`, [id])).rows[0]!.ok).toBe(true);
    expect((await db.keep(serviceRole, `select public.complete_email($1, 'msg_1') as ok`, [id])).rows[0]!.ok).toBe(false);
  });
  test('claim_email_batch validates its arguments and is service-role only', async () => {
    expect((await db.as(serviceRole, `select * from public.claim_email_batch(0, 60)`)).message).toBe('invalid_batch_size');
    expect((await db.as(admin, `select * from public.claim_email_batch(10, 60)`)).code).toBe('42501');
  });
});

describe('newsletter double opt-in', () => {
  test('subscribe -> pending + confirm mail; confirm -> confirmed + welcome; table hidden from users', async () => {
    expect((await db.keep(anon, `select public.newsletter_subscribe('Neu@Example.com', 'en', 'footer')`)).ok).toBe(true);
    const row = (await db.sql<{ status: string; token: string }>(`select status, token from public.newsletter_subscribers where email = 'neu@example.com'`))[0]!;
    expect(row.status).toBe('pending');
    expect(await val(`select count(*)::int from public.email_queue where email = 'neu@example.com' and email_type = 'newsletter_confirm' and lang = 'en'`)).toBe(1);
    expect((await db.as(anon, `select public.newsletter_subscribe('kein-at-zeichen', 'de')`)).message).toBe('invalid_email');
    expect((await db.keep(anon, `select public.newsletter_confirm($1) as ok`, [row.token])).rows[0]!.ok).toBe(true);
    expect(await val(`select status from public.newsletter_subscribers where email = 'neu@example.com'`)).toBe('confirmed');
    expect(await val(`select count(*)::int from public.email_queue where email = 'neu@example.com' and email_type = 'newsletter_welcome'`)).toBe(1);
    expect((await db.as(anon, `select * from public.newsletter_subscribers`)).ok).toBe(false);
  });
  test('a contact message with topic cancellation gets the plain receipt, not a cancellation confirmation (issue 12 §8)', async () => {
    const r = await db.keep(anon, `insert into public.contact_messages (name, email, topic, plan_id, subject, message)
      values ('Karl Kündig', 'karl@example.com', 'cancellation', 'premium', 'Kündigung', 'Hiermit kündige ich meinen Vertrag.')`);
    expect(r.ok, r.message).toBe(true);
    const mails = await db.sql(`select email_type, user_metadata, payload from public.email_queue where email = 'karl@example.com'`);
    expect(mails).toEqual([{ email_type: 'contact_confirmation', user_metadata: {}, payload: {} }]);
  });
});

describe('data export (DSGVO Art. 20)', () => {
  test('a user exports their own data, without search vectors or tokens; anon cannot', async () => {
    const r = await db.as(premium, `select public.export_my_data() as d`);
    expect(r.ok, r.message).toBe(true);
    const d = r.rows[0]!.d as Record<string, unknown> & { profile: Record<string, unknown>; projects: Record<string, unknown>[] };
    expect(d.profile.id).toBe(premium.id);
    expect(d.profile).not.toHaveProperty('search_de');
    expect(d.projects.length).toBeGreaterThan(0);
    expect(d.projects.every((p) => p.owner_id === premium.id)).toBe(true);
    expect((await db.as(anon, `select public.export_my_data()`)).code).toBe('42501');
  });
});

describe('chat, realtime topics, storage folders', () => {
  test('start_direct_conversation reuses the conversation; topics are authorised for members only', async () => {
    await db.sql(`insert into public.contacts (requester_id, addressee_id, status) values ($1, $2, 'accepted') on conflict do nothing`, [basic.id, admin.id]);
    const a = await db.keep(basic, `select public.start_direct_conversation($1) as id`, [admin.id]);
    const b = await db.keep(admin, `select public.start_direct_conversation($1) as id`, [basic.id]);
    expect(a.rows[0]!.id).toBe(b.rows[0]!.id);
    const topic = `conversation:${a.rows[0]!.id}`;
    const send = (u: Actor) => db.as(u, `select set_config('realtime.topic', $1, true);
      insert into realtime.messages (topic, extension, payload, event, private) values ($1, 'broadcast', '{}', 'typing', true)`.replace(/\$1/g, `'${topic}'`));
    expect((await send(basic)).ok).toBe(true);
    expect((await send(free)).ok).toBe(false);
    expect((await send(anon)).ok).toBe(false);
  });
  test('storage: uploads only into the own folder and only with the upload function\'s grant; private portfolio files only for allowed readers', async () => {
    const upload = (u: User, folder: string) => db.as(u, `insert into storage.objects (bucket_id, name, owner_id) values ('avatars', $1, $2)`, [`${folder}/avatar.png`, u.id]);
    const grant = (u: User, folder: string) => db.sql(`select public.grant_upload($1, 'avatars', $2)`, [u.id, `${folder}/avatar.png`]);
    expect((await upload(free, free.id)).ok).toBe(false);
    await grant(free, free.id);
    expect((await upload(free, free.id)).ok).toBe(true);
    await grant(free, basic.id);
    expect((await upload(free, basic.id)).ok).toBe(false);
    const pf = await val<string>(`insert into public.portfolios (owner_id, title, status, file_access) values ($1, 'Geheime Mappe', 'published', 'private') returning id`, [premium.id]);
    const path = `${premium.id}/${pf}/vertrag.pdf`;
    await db.sql(`insert into public.portfolio_files (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes) values ($1, $2, $3, 'vertrag.pdf', 'application/pdf', 100)`, [pf, premium.id, path]);
    await db.sql(`insert into storage.objects (bucket_id, name, owner_id) values ('portfolio-files', $1, $2)`, [path, premium.id]);
    const read = (u: Actor) => db.as(u, `select 1 from storage.objects where bucket_id = 'portfolio-files' and name = $1`, [path]);
    expect((await read(premium)).rowCount).toBe(1);
    expect((await read(free)).rowCount).toBe(0);
    await db.sql(`update public.portfolios set file_access = 'public' where id = $1`, [pf]);
    expect((await read(anon)).rowCount).toBe(1);
  });
});
