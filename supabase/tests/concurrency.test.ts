/**
 * Database rules under concurrency: two sessions racing must not break the Basic plan limit
 * (spec §5) or overbook an event (capacity + waitlist). Fixtures are committed (the racing
 * sessions must see them) and deleted afterwards.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';

const config = stackConfig();
const admin = new pg.Client({ connectionString: config.dbUrl });
const users: string[] = [];
let basicUser = '';
let eventId = '';

async function createUser(role: string): Promise<string> {
  const { rows } = await admin.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
       'race-' || gen_random_uuid() || '@tests.teamwerk.test', '', now(), '{"provider":"email"}', '{"firstname":"Race"}',
       now(), now(), '', '', '', '') returning id`);
  const id = rows[0].id as string;
  await admin.query(`update public.profiles set user_role = $2::public.user_role where id = $1`, [id, role]);
  users.push(id);
  return id;
}

/** A session acting as `userId` (authenticated) inside an open transaction. */
async function session(userId: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: config.dbUrl });
  await c.connect();
  await c.query('begin');
  await c.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true),
                        set_config('request.jwt.claim.sub', $2, true)`, [JSON.stringify({ sub: userId, role: 'authenticated' }), userId]);
  return c;
}

beforeAll(async () => {
  await admin.connect();
  basicUser = await createUser('basic');
  await admin.query(`insert into public.projects (owner_id, title, category, status) values ($1, 'Rennen Eins', 'business', 'published'), ($1, 'Rennen Zwei', 'business', 'published')`, [basicUser]);
  const organizer = await createUser('premium');
  const { rows } = await admin.query(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity)
    values ($1, 'Letzter Platz', 'published', now() + interval '5 days', now() + interval '5 days 1 hour', 'Jena', 1) returning id`, [organizer]);
  eventId = String(rows[0].id);
});

afterAll(async () => {
  if (users.length) await admin.query(`delete from auth.users where id = any($1::uuid[])`, [users]);
  await admin.end();
});

test('two concurrent inserts for a Basic user with 2 projects: exactly one succeeds', async () => {
  const [a, b] = await Promise.all([session(basicUser), session(basicUser)]);
  try {
    await a.query(`insert into public.projects (owner_id, title, category, status) values ($1, 'Rennen A', 'art', 'published')`, [basicUser]);
    const second = b.query(`insert into public.projects (owner_id, title, category, status) values ($1, 'Rennen B', 'art', 'published')`, [basicUser])
      .then(() => 'inserted', (e: { message: string }) => e.message);
    await new Promise((r) => setTimeout(r, 200)); // b is now waiting for a's lock on the profile
    await a.query('commit');
    expect(await second).toBe('plan_limit_reached');
  } finally {
    await b.query('rollback').catch(() => undefined);
    await a.end();
    await b.end();
  }
  const { rows } = await admin.query(`select count(*)::int as n from public.projects where owner_id = $1`, [basicUser]);
  expect(rows[0].n).toBe(3);
});

test('two concurrent RSVPs for the last seat: one going, one waitlisted', async () => {
  const [u1, u2] = [await createUser('free'), await createUser('free')];
  const [a, b] = await Promise.all([session(u1), session(u2)]);
  try {
    await a.query(`select public.rsvp_event($1)`, [eventId]);
    const second = b.query(`select public.rsvp_event($1)`, [eventId]);
    await new Promise((r) => setTimeout(r, 200));
    await a.query('commit');
    await second;
    await b.query('commit');
  } finally {
    await a.end();
    await b.end();
  }
  const { rows } = await admin.query(`select user_id, status from public.event_attendees where event_id = $1 order by created_at`, [eventId]);
  expect(rows.map((r) => [r.user_id, r.status])).toEqual([[u1, 'going'], [u2, 'waitlisted']]);
  const counts = await admin.query(`select going_count, waitlist_count from public.events where id = $1`, [eventId]);
  expect(counts.rows[0]).toEqual({ going_count: 1, waitlist_count: 1 });
});

/**
 * The listed-users counter (row plus deltas) and the real count of listed, unsuspended profiles,
 * read in one statement (one snapshot): other files may add users meanwhile.
 */
async function listedCounterAndRealCount(): Promise<{ counter: number; real: number }> {
  const { rows } = await admin.query(`
    select private.counter_value('listed_profiles')::int as counter,
           (select count(*) from public.profiles p where p.authenticated = 1 and p.profile_visibility = 1
              and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))::int as real`);
  return rows[0] as { counter: number; real: number };
}

/** Waits until the backend `pid` is blocked on a lock (pg_stat_activity), at most `ms` milliseconds. */
async function waitForLockWait(pid: number, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const { rows } = await admin.query(`select wait_event_type from pg_stat_activity where pid = $1`, [pid]);
    if (rows[0]?.wait_event_type === 'Lock') return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

test('two concurrent account deletions keep the listed-users counter equal to the real count', async () => {
  const [u1, u2] = [await createUser('free'), await createUser('free')];
  const listed = await admin.query(`select count(*)::int as n from public.profiles where id = any($1::uuid[]) and authenticated = 1 and profile_visibility = 1`, [[u1, u2]]);
  expect(listed.rows[0].n).toBe(2);
  const [a, b] = [new pg.Client({ connectionString: config.dbUrl }), new pg.Client({ connectionString: config.dbUrl })];
  await Promise.all([a.connect(), b.connect()]);
  try {
    await a.query('begin');
    await b.query('begin');
    await a.query(`delete from auth.users where id = $1`, [u1]);
    const bPid = (await b.query(`select pg_backend_pid() as pid`)).rows[0].pid as number;
    // b's deletion starts while a (holding the counter row) has not committed yet
    const second = b.query(`delete from auth.users where id = $1`, [u2]);
    await waitForLockWait(bPid);
    await a.query('commit');
    await second;
    await b.query('commit');
  } finally {
    await a.end();
    await b.end();
  }
  const { counter, real } = await listedCounterAndRealCount();
  expect(counter).toBe(real);
});

test('sign-ups in two open transactions do not wait for each other (the listed-users counter takes no row lock)', async () => {
  const [a, b] = [new pg.Client({ connectionString: config.dbUrl }), new pg.Client({ connectionString: config.dbUrl })];
  await Promise.all([a.connect(), b.connect()]);
  const signUp = (c: pg.Client) =>
    c.query(`insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
       'race-' || gen_random_uuid() || '@tests.teamwerk.test', '', now(), '{"provider":"email"}', '{"firstname":"Race"}',
       now(), now(), '', '', '', '') returning id`);
  try {
    await a.query('begin');
    await b.query('begin');
    await signUp(a);
    // a keeps its transaction open; before, b waited here for a's lock on the counter row
    await b.query(`set local lock_timeout = '3s'`);
    const second = await signUp(b).then(
      () => 'signed up',
      (e: { message: string }) => e.message,
    );
    expect(second).toBe('signed up');
  } finally {
    await a.query('rollback').catch(() => undefined);
    await b.query('rollback').catch(() => undefined);
    await a.end();
    await b.end();
  }
  // both rolled back: the counter still equals the real count
  const { counter, real } = await listedCounterAndRealCount();
  expect(counter).toBe(real);
});

/**
 * Runs `fn` while this session holds the advisory lock the compaction function `name` takes
 * (session level, reentrant for this session's own calls): the pg_cron job's run waits, so it can
 * neither fold the deltas the test has just made nor commit a fold after the test's snapshot (a
 * repeatable-read delete of rows it deleted fails with a serialization error).
 */
async function withCronCompactionHeld<T>(name: string, fn: () => Promise<T>): Promise<T> {
  await admin.query(`select pg_advisory_lock(hashtext($1))`, [name]);
  try {
    return await fn();
  } finally {
    await admin.query(`select pg_advisory_unlock(hashtext($1))`, [name]);
  }
}

test('compacting folds the deltas into the counter row without changing the value', () => withCronCompactionHeld('private.compact_counters', async () => {
  await createUser('free'); // at least one delta to fold
  expect((await admin.query(`select count(*)::int as n from private.counter_deltas where name = 'listed_profiles'`)).rows[0].n).toBeGreaterThan(0);
  // one snapshot for the compaction and the reading: other files may add users meanwhile
  await admin.query('begin isolation level repeatable read');
  try {
    await admin.query(`select private.compact_counters()`);
    const { rows } = await admin.query(`
      select private.counter_value('listed_profiles')::int as counter,
             (select count(*) from private.counter_deltas where name = 'listed_profiles')::int as deltas,
             (select count(*) from public.profiles p where p.authenticated = 1 and p.profile_visibility = 1
                and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))::int as real`);
    expect(rows[0]).toEqual({ counter: rows[0].real, deltas: 0, real: rows[0].real });
  } finally {
    await admin.query('commit');
  }
}));

test('people entering the same map cells from two open transactions do not wait for each other (the map cells take no row lock)', async () => {
  // issue 34: each listed person with a position is counted in the grid cells of every level; the
  // coarse cells hold all of Germany, so a roll-up updated in place made every such write wait
  const [u1, u2] = [await createUser('premium'), await createUser('premium')];
  const [a, b] = [new pg.Client({ connectionString: config.dbUrl }), new pg.Client({ connectionString: config.dbUrl })];
  await Promise.all([a.connect(), b.connect()]);
  const move = (c: pg.Client, id: string) =>
    c.query(`update public.profiles set city = 'Berlin' where id = $1 returning listed, latitude is not null as placed`, [id]);
  try {
    await a.query('begin');
    await b.query('begin');
    expect((await move(a, u1)).rows[0]).toEqual({ listed: true, placed: true });
    // a keeps its transaction open; b's person lands in the same cells at every level
    await b.query(`set local lock_timeout = '3s'`);
    const second = await move(b, u2).then(
      () => 'moved',
      (e: { message: string }) => e.message,
    );
    expect(second).toBe('moved');
  } finally {
    await a.query('rollback').catch(() => undefined);
    await b.query('rollback').catch(() => undefined);
    await a.end();
    await b.end();
  }
});

test('compacting the map cells folds their deltas in without changing any cell', () => withCronCompactionHeld('private.compact_map_cells', async () => {
  const id = await createUser('premium');
  await admin.query(`update public.profiles set city = 'Hamburg' where id = $1`, [id]);
  const cells = `
    select layer, category, level, cx, cy, sum(n)::int as n, sum(sum_lon) as lon, sum(sum_lat) as lat
    from (select layer, category, level, cx, cy, n, sum_lon, sum_lat from private.map_cells
          union all
          select layer, category, level, cx, cy, n, sum_lon, sum_lat from private.map_cell_deltas) x
    group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5`;
  // one snapshot for the compaction and the readings: other files may write meanwhile
  await admin.query('begin isolation level repeatable read');
  try {
    expect((await admin.query(`select count(*)::int as n from private.map_cell_deltas`)).rows[0].n).toBeGreaterThan(0);
    const before = (await admin.query(cells)).rows as { n: number; lon: number; lat: number }[];
    await admin.query(`select private.compact_map_cells()`);
    const after = (await admin.query(cells)).rows as { n: number; lon: number; lat: number }[];
    expect((await admin.query(`select count(*)::int as n from private.map_cell_deltas`)).rows[0].n).toBe(0);
    expect((await admin.query(`select count(*)::int as n from private.map_cells where n <= 0`)).rows[0].n).toBe(0);
    expect(after.map(({ lon: _lon, lat: _lat, ...key }) => key)).toEqual(before.map(({ lon: _lon, lat: _lat, ...key }) => key));
    after.forEach((c, i) => {
      expect(c.lon).toBeCloseTo(before[i]!.lon, 6);
      expect(c.lat).toBeCloseTo(before[i]!.lat, 6);
    });
  } finally {
    await admin.query('commit');
  }
}));

test('a cell that loses more items than it gains between two compactions folds in (no CHECK failure on the proposed row)', async () => {
  // a place outside the gazetteer: the stored position is the written one rounded to 0.1°, and its
  // level-16 cell (about 600 m) holds nobody else, so the second run sees exactly one -1 for it
  const lon = 5.7;
  const lat = 47.3;
  const id = await createUser('basic');
  await admin.query(`update public.profiles set city = 'Kleinsiel-Test', longitude = $2, latitude = $3 where id = $1`, [id, lon, lat]);
  const cell = {
    text: `select n from private.map_cells where layer = 1 and category = '' and level = 16
             and cx = floor(($1::float8 + 180) * 65536 / 360)::int and cy = floor(($2::float8 + 90) * 65536 / 360)::int`,
    values: [lon, lat],
  };
  await admin.query(`select private.compact_map_cells()`);
  expect((await admin.query(cell)).rows).toEqual([{ n: 1 }]);
  await admin.query(`update public.profiles set profile_visibility = 0 where id = $1`, [id]);
  // before the fix: new row for relation "map_cells" violates check constraint "map_cells_n_check"
  await admin.query(`select private.compact_map_cells()`);
  expect((await admin.query(cell)).rows).toEqual([]);
  expect((await admin.query(`select count(*)::int as n from private.map_cells where n < 0`)).rows[0].n).toBe(0);
});
