/**
 * The map (issue 14): public.map_items (bounds, layers, filters, row cap, visibility), people at
 * city level only, coordinates from the city gazetteer. Fixtures live in a rolled-back
 * transaction in three small gazetteer cities the demo data does not use, with bounds drawn
 * tightly around them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

interface Item {
  layer: string; id: string; slug?: string | null; title: string; subtitle: string | null; category: string | null;
  city: string | null; lat: number; lon: number; starts_at?: string; ends_at?: string; remote?: boolean;
}
const LAYERS = ['people', 'projects', 'events', 'jobs'] as const;
/** A grid cell of a wide view (issue 34). */
interface Cell { count: number; lat: number; lon: number; bbox: [number, number, number, number] }
interface Answer { items: Record<(typeof LAYERS)[number], Omit<Item, 'layer'>[]>; cells: Record<(typeof LAYERS)[number], Cell[]>; capped: boolean; capped_layers: string[]; cities: { name: string; lat: number; lon: number; count: number }[] }
/** The answer with the per-layer lists flattened into one list of items carrying their layer. */
interface MapResult extends Omit<Answer, 'items'> { items: Item[]; raw: Answer }
interface City { name: string; latitude: number; longitude: number }

let db: TestDb;
let a: City; // the main fixture city
let b: City; // a second city, outside a's bounds
let c: City; // a third city for the row cap
const ids: Record<string, string> = {};
const users: Record<string, Actor & { kind: 'user' }> = {};

/** Bounds of ±0.05° around a city (west, south, east, north). */
const around = (city: City, d = 0.05) => ({ west: city.longitude - d, south: city.latitude - d, east: city.longitude + d, north: city.latitude + d });

const call = async (as: Actor, args: Record<string, unknown>) => {
  const names = Object.keys(args);
  return db.as(as, `select public.map_items(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) as r`, Object.values(args));
};
const map = async (as: Actor, args: Record<string, unknown>): Promise<MapResult> => {
  const out = await call(as, args);
  if (!out.ok) throw new Error(`${out.code} ${out.message}`);
  const raw = out.rows[0]!.r as Answer;
  return { ...raw, raw, items: LAYERS.flatMap((layer) => raw.items[layer].map((i) => ({ ...i, layer }))) };
};
const idsOf = (r: MapResult, layer: string) => r.items.filter((i) => i.layer === layer).map((i) => i.id).sort();

beforeAll(async () => {
  db = await TestDb.open();
  // three small gazetteer cities far from each other and from the demo data's 90 largest cities
  const small = await db.sql<City>(`select name, latitude, longitude from public.cities c
    where population between 10000 and 12000
      and not exists (select 1 from public.profiles p where lower(p.city) = lower(c.name))
      and not exists (select 1 from public.projects p where lower(p.city) = lower(c.name))
      and not exists (select 1 from public.events e where lower(e.city) = lower(c.name))
      and not exists (select 1 from public.jobs j where lower(j.city) = lower(c.name))
    order by population, name`);
  const apart = (x: City, y: City) => Math.abs(x.latitude - y.latitude) > 0.3 || Math.abs(x.longitude - y.longitude) > 0.3;
  a = small[0]!;
  b = small.find((x) => apart(x, a))!;
  c = small.find((x) => apart(x, a) && apart(x, b))!;

  for (const [key, opts] of Object.entries({
    owner: { name: 'Olaf Owner' }, person: { name: 'Paula Person' }, hidden: { name: 'Hanna Hidden', visible: false },
    unconfirmed: { name: 'Udo Unconfirmed', confirmed: false }, suspended: { name: 'Susi Suspended' },
    blocker: { name: 'Bea Blocker' }, blocked: { name: 'Bert Blocked' }, viewer: { name: 'Vera Viewer' },
    business: { name: 'Bernd Business' }, elsewhere: { name: 'Erik Elsewhere' },
  } as Record<string, Parameters<TestDb['user']>[0]>)) users[key] = await db.user({ role: 'premium', ...opts });

  for (const key of ['owner', 'person', 'hidden', 'unconfirmed', 'suspended', 'blocker', 'blocked', 'viewer', 'business']) {
    await db.sql(`update public.profiles set city = $2, categories = '{science}' where id = $1`, [users[key]!.id, a.name]);
  }
  await db.sql(`update public.profiles set city = $2 where id = $1`, [users.elsewhere!.id, b.name]);
  await db.sql(`insert into public.account_suspensions (user_id) values ($1)`, [users.suspended!.id]);
  await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [users.blocker!.id, users.viewer!.id]);
  await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [users.viewer!.id, users.blocked!.id]);

  const project = async (key: string, owner: string, city: string, category = 'technology', status = 'published') => {
    ids[key] = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status)
      values ($1, $2, 'Kartenprojekt', 'Kartenprojekt', $3, $4, $5) returning id`, [owner, `Kartenprojekt ${key}`, category, city, status]))[0]!.id);
  };
  await project('project', users.owner!.id, a.name);
  await project('science', users.owner!.id, a.name, 'science');
  await project('draft', users.owner!.id, a.name, 'technology', 'draft');
  await project('hiddenOwner', users.hidden!.id, a.name);
  await project('suspendedOwner', users.suspended!.id, a.name);
  await project('blockerOwner', users.blocker!.id, a.name);
  await project('elsewhere', users.elsewhere!.id, b.name);

  const event = async (key: string, startsInDays: number, category = 'business', status = 'upcoming') => {
    ids[key] = String((await db.sql(`insert into public.events (organizer_id, title, summary, status, starts_at, ends_at, city, category)
      values ($1, $2, 'Kartentreffen', $5, now() + make_interval(days => $3), now() + make_interval(days => $3, hours => 2), $4, $6) returning id`,
      [users.owner!.id, `Kartentreffen ${key}`, startsInDays, a.name, status, category]))[0]!.id);
  };
  await event('soon', 3);
  await event('later', 40, 'science');
  await event('eventDraft', 5, 'business', 'draft');

  const job = async (key: string, remote: boolean, city: string | null, expired = false) => {
    await db.sql(`insert into public.jobs (id, title, company, city, remote, employment_type, category, description, apply_url, posted_at, expires_at)
      values ($1, $2, 'Kartenfirma GmbH', $3, $4, 'full_time', 'technology', 'Stelle', 'https://example.org/job', now() - interval '2 days',
              case when $5 then now() - interval '1 day' else now() + interval '30 days' end)`,
      [`map-test-${key.toLowerCase()}`, `Kartenstelle ${key}`, city, remote, expired]);
    ids[key] = `map-test-${key.toLowerCase()}`;
  };
  await job('onsite', false, a.name);
  await job('remoteCity', true, a.name);
  await job('remoteOnly', true, null);
  await job('expired', false, a.name, true);
});
afterAll(async () => db?.close());

describe('coordinates from the city gazetteer', () => {
  test('content without coordinates gets its city\'s; written coordinates stay; a new city moves it; an unknown city has none', async () => {
    const [row] = await db.sql<{ latitude: number; longitude: number }>(`select latitude, longitude from public.projects where id = $1`, [ids.project]);
    expect(row).toEqual({ latitude: a.latitude, longitude: a.longitude });

    const venue = await db.as(users.owner!, `update public.events set latitude = $2, longitude = $3 where id = $1 returning latitude, longitude`,
      [ids.soon, a.latitude + 0.00123, a.longitude + 0.00456]);
    expect(venue.rows[0]).toEqual({ latitude: a.latitude + 0.00123, longitude: a.longitude + 0.00456 });

    const moved = await db.as(users.owner!, `update public.projects set city = $2 where id = $1 returning latitude, longitude`, [ids.project, b.name]);
    expect(moved.rows[0]).toEqual({ latitude: b.latitude, longitude: b.longitude });

    const unknown = await db.as(users.owner!, `update public.projects set city = 'Nirgendwo am See' where id = $1 returning latitude, longitude`, [ids.project]);
    expect(unknown.rows[0]).toEqual({ latitude: null, longitude: null });
  });

  test('every writer gets coordinates on a fresh connection (no plan cached by the owner)', async () => {
    const fresh = await TestDb.open();
    try {
      const out = await fresh.as({ kind: 'service_role' }, `insert into public.jobs (id, title, company, city, remote, employment_type, category, description, apply_url)
        values ('map-test-fresh', 'Frische Verbindung', 'Kartenfirma GmbH', $1, false, 'full_time', 'art', 'x', 'https://example.org/job')
        returning latitude, longitude`, [a.name]);
      expect(out).toMatchObject({ ok: true, rows: [{ latitude: a.latitude, longitude: a.longitude }] });
    } finally {
      await fresh.close();
    }
  });

  test('a person is always at their city\'s coordinates, whatever they write', async () => {
    const exact = await db.as(users.person!, `update public.profiles set latitude = $2, longitude = $3 where id = $1 returning latitude, longitude`,
      [users.person!.id, a.latitude + 0.01234, a.longitude - 0.00987]);
    expect(exact.ok).toBe(true);
    expect(exact.rows[0]).toEqual({ latitude: a.latitude, longitude: a.longitude });

    const village = await db.as(users.person!, `update public.profiles set city = 'Kleinstweiler', latitude = 50.123456, longitude = 8.987654
      where id = $1 returning latitude, longitude`, [users.person!.id]);
    expect(village.rows[0]).toEqual({ latitude: 50.1, longitude: 9 });

    const noCity = await db.as(users.person!, `update public.profiles set city = null, latitude = 50.1234, longitude = null where id = $1 returning latitude, longitude`, [users.person!.id]);
    expect(noCity.rows[0]).toEqual({ latitude: null, longitude: null });

    // the opt-in is for business profiles only
    const optIn = await db.as(users.person!, `update public.profiles set show_exact_location = true, latitude = $2, longitude = $3
      where id = $1 returning latitude, longitude`, [users.person!.id, a.latitude + 0.01234, a.longitude]);
    expect(optIn.rows[0]).toEqual({ latitude: a.latitude, longitude: a.longitude });
  });

  test('a business profile that opts in keeps its exact coordinates, and the map shows them', async () => {
    const lat = a.latitude + 0.00321;
    const lon = a.longitude + 0.00654;
    await db.keep(users.business!, `update public.profiles set type = 'business', show_exact_location = true, latitude = $2, longitude = $3 where id = $1`,
      [users.business!.id, lat, lon]);
    const r = await map(anon, { ...around(a), layers: ['people'] });
    expect(r.items.find((i) => i.id === users.business!.id)).toMatchObject({ lat, lon });
    await db.keep(users.business!, `update public.profiles set show_exact_location = false where id = $1`, [users.business!.id]);
    const after = await map(anon, { ...around(a), layers: ['people'] });
    expect(after.items.find((i) => i.id === users.business!.id)).toMatchObject({ lat: a.latitude, lon: a.longitude });
  });
});

describe('map_items()', () => {
  test('bounds: what lies inside, and nothing outside', async () => {
    const r = await map(anon, around(a));
    expect(idsOf(r, 'projects')).toEqual([ids.project, ids.science, ids.blockerOwner].sort());
    expect(idsOf(r, 'projects')).not.toContain(ids.elsewhere);
    expect(r.items.every((i) => Math.abs(i.lat - a.latitude) <= 0.05 && Math.abs(i.lon - a.longitude) <= 0.05)).toBe(true);
    const other = await map(anon, around(b));
    expect(idsOf(other, 'projects')).toEqual([ids.elsewhere]);
    expect(idsOf(other, 'people')).toEqual([users.elsewhere!.id]);
    expect(r.cities.find((x) => x.name === a.name)).toMatchObject({ lat: a.latitude, lon: a.longitude });
    expect(r.cities.find((x) => x.name === a.name)!.count).toBe(r.items.filter((i) => i.city === a.name).length);
  });

  test('people: listed only; hidden, unconfirmed, suspended and blocked (either way) never appear', async () => {
    const listed = [users.owner, users.person, users.blocker, users.blocked, users.viewer, users.business].map((u) => u!.id).sort();
    expect(idsOf(await map(anon, { ...around(a), layers: ['people'] }), 'people')).toEqual(listed);
    const seenByViewer = idsOf(await map(users.viewer!, { ...around(a), layers: ['people'] }), 'people');
    expect(seenByViewer).not.toContain(users.blocker!.id);
    expect(seenByViewer).not.toContain(users.blocked!.id);
    expect(seenByViewer).toContain(users.viewer!.id);
    for (const u of [users.hidden, users.unconfirmed, users.suspended]) expect(seenByViewer).not.toContain(u!.id);
  });

  test('people are at city level, and items carry map fields only', async () => {
    const r = await map(anon, { ...around(a), layers: ['people'] });
    const people = r.items.filter((i) => i.id !== users.business!.id);
    expect(people.length).toBeGreaterThan(3);
    for (const p of people) expect({ lat: p.lat, lon: p.lon }).toEqual({ lat: a.latitude, lon: a.longitude });
    const fields = ['id', 'slug', 'title', 'subtitle', 'category', 'city', 'lat', 'lon'];
    const all = (await map(anon, around(a))).raw;
    expect(Object.keys(all.items).sort()).toEqual([...LAYERS].sort());
    for (const p of [...all.items.people, ...all.items.projects]) expect(Object.keys(p).sort()).toEqual([...fields].sort());
    for (const e of all.items.events) expect(Object.keys(e).sort()).toEqual([...fields, 'starts_at', 'ends_at'].sort());
    for (const j of all.items.jobs) expect(Object.keys(j).sort()).toEqual([...fields.filter((f) => f !== 'slug'), 'remote'].sort());
    expect(JSON.stringify(r)).not.toMatch(/@tests\.teamwerk\.test/);
  });

  test('content of hidden, suspended and blocking owners and drafts never appear', async () => {
    const forViewer = idsOf(await map(users.viewer!, { ...around(a), layers: ['projects'] }), 'projects');
    for (const key of ['draft', 'hiddenOwner', 'suspendedOwner', 'blockerOwner']) expect(forViewer).not.toContain(ids[key]);
    // the block hides the blocker's project from the blocked viewer only
    expect(idsOf(await map(anon, { ...around(a), layers: ['projects'] }), 'projects')).toContain(ids.blockerOwner);
    expect(idsOf(await map(users.owner!, { ...around(a), layers: ['events'] }), 'events')).not.toContain(ids.eventDraft);
  });

  test('every item is one the caller may read through the table (RLS)', async () => {
    for (const who of [anon, users.viewer!, users.owner!]) {
      const r = await map(who, around(a));
      for (const item of r.items) {
        const table = { people: 'profiles', projects: 'projects', events: 'events', jobs: 'jobs' }[item.layer]!;
        const out = await db.as(who, `select 1 from public.${table} where id::text = $1`, [item.id]);
        expect(out.rowCount, `${item.layer} ${item.id}`).toBe(1);
      }
    }
  });

  test('layers and filters: category, event dates, remote jobs', async () => {
    const events = await map(anon, { ...around(a), layers: ['events'] });
    expect(events.items.every((i) => i.layer === 'events')).toBe(true);
    expect(idsOf(events, 'events')).toEqual([ids.soon, ids.later].sort());

    const science = await map(anon, { ...around(a), category: 'science' });
    expect(idsOf(science, 'projects')).toEqual([ids.science]);
    expect(idsOf(science, 'events')).toEqual([ids.later]);
    expect(idsOf(science, 'jobs')).toEqual([]);
    expect(idsOf(science, 'people').length).toBeGreaterThan(3);

    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    expect(idsOf(await map(anon, { ...around(a), layers: ['events'], date_from: day(1), date_to: day(10) }), 'events')).toEqual([ids.soon]);
    expect(idsOf(await map(anon, { ...around(a), layers: ['events'], date_from: day(30) }), 'events')).toEqual([ids.later]);

    expect(idsOf(await map(anon, { ...around(a), layers: ['jobs'] }), 'jobs')).toEqual([ids.onsite, ids.remoteCity].sort());
    expect(idsOf(await map(anon, { ...around(a), layers: ['jobs'], include_remote: false }), 'jobs')).toEqual([ids.onsite]);
  });

  test('the row cap of views narrower than grid level 16: each cell of a 4 × 4 grid gets its share, nearest its centre, with a "zoom in" signal', async () => {
    // bounds of ±0.02° around c: cells of 0.01°; three projects in the cell north-east of c, one in the cell south-west
    const box = { west: c.longitude - 0.02, south: c.latitude - 0.02, east: c.longitude + 0.02, north: c.latitude + 0.02 };
    const at = [[0.001, 0.001], [0.005, 0.005], [0.009, 0.009], [-0.005, -0.005]] as const;
    for (const [i, [dx, dy]] of at.entries()) {
      await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, latitude, longitude, status)
        values ($1, $2, 'x', 'x', 'art', $3, $4, $5, 'published')`, [users.owner!.id, `Kappung ${i}`, c.name, c.latitude + dy, c.longitude + dx]);
    }
    // 16 rows = one per cell: the crowded cell gives the project nearest its centre, the other cell its only one
    const capped = await map(anon, { ...box, layers: ['projects'], max_rows: 16 });
    expect(capped.items.map((i) => i.title).sort()).toEqual(['Kappung 1', 'Kappung 3']);
    expect(capped).toMatchObject({ capped: true, capped_layers: ['projects'] });
    const all = await map(anon, { ...box, layers: ['projects'], max_rows: 48 });
    expect(all).toMatchObject({ capped: false, capped_layers: [] });
    expect(all.items.map((i) => i.title).sort()).toEqual(['Kappung 0', 'Kappung 1', 'Kappung 2', 'Kappung 3']);
    // a wider view (issue 34: counted per grid cell first) shows a layer that fits max_rows whole, uncapped
    const wider = await map(anon, { west: c.longitude - 0.04, south: c.latitude - 0.04, east: c.longitude + 0.04, north: c.latitude + 0.04, layers: ['projects'], max_rows: 4 });
    expect(wider).toMatchObject({ capped: false, capped_layers: [] });
    expect(wider.items.map((i) => i.title).sort()).toEqual(['Kappung 0', 'Kappung 1', 'Kappung 2', 'Kappung 3']);
    // a point on a cell border belongs to one cell only
    await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, latitude, longitude, status)
      values ($1, 'Kappung Rand', 'x', 'x', 'art', $2, $3, $4, 'published')`, [users.owner!.id, c.name, c.latitude, c.longitude]);
    expect((await map(anon, { ...box, layers: ['projects'], max_rows: 1000 })).items.filter((i) => i.title === 'Kappung Rand')).toHaveLength(1);
  });

  test('bad input: 22023 with a reason, nothing else', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ west: 10, south: 50, east: 9, north: 51 }, 'invalid_bounds'],
      [{ west: 9, south: 51, east: 10, north: 50 }, 'invalid_bounds'],
      [{ west: -190, south: 50, east: 10, north: 51 }, 'invalid_bounds'],
      [{ west: 9, south: 50, east: 10, north: 95 }, 'invalid_bounds'],
      [{ west: 'NaN', south: 50, east: 10, north: 51 }, 'invalid_bounds'],
      [{ west: 9, south: null, east: 10, north: 51 }, 'invalid_bounds'],
      [{ ...around(a), zoom: 30 }, 'invalid_zoom'],
      [{ ...around(a), layers: ['people', 'secrets'] }, 'invalid_layer'],
      [{ ...around(a), layers: [] }, 'invalid_layer'],
      [{ ...around(a), category: 'weapons' }, 'invalid_category'],
      [{ ...around(a), max_rows: 0 }, 'invalid_limit'],
      [{ ...around(a), max_rows: 5000 }, 'invalid_limit'],
      [{ ...around(a), date_from: '2027-02-01', date_to: '2027-01-01' }, 'invalid_date_range'],
    ];
    for (const [args, reason] of bad) {
      const out = await call(anon, args);
      expect(out, JSON.stringify(args)).toMatchObject({ ok: false, code: '22023', message: reason });
    }
  });
});

describe('wide views: counts per grid cell (issue 34)', () => {
  const sum = (cells: Cell[]) => cells.reduce((n, x) => n + x.count, 0);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

  test('a layer with more items than max_rows comes as cells whose counts sum to its items in the area, for every caller and filter', async () => {
    const cases: [Actor, Record<string, unknown>][] = [
      [anon, {}],
      [users.viewer!, {}], // blocks either way: the roll-up's counts less the hidden people and their projects
      [anon, { category: 'science' }],
      [anon, { layers: ['events'], date_from: day(1), date_to: day(10) }],
      [anon, { layers: ['jobs'], include_remote: false }],
    ];
    for (const [who, args] of cases) {
      const narrow = await map(who, { ...around(a), ...args, max_rows: 1000 });
      const wide = await map(who, { ...around(a), ...args, max_rows: 1 });
      for (const layer of LAYERS) {
        const n = narrow.raw.items[layer].length;
        const label = `${JSON.stringify(args)} ${layer}`;
        if (n > 1) {
          expect(wide.raw.items[layer], label).toEqual([]);
          expect(sum(wide.raw.cells[layer]), label).toBe(n);
        } else {
          expect(wide.raw.cells[layer], label).toEqual([]);
          expect(wide.raw.items[layer].length, label).toBe(n);
        }
      }
      expect(wide.capped).toBe(false);
    }
    // the fixtures make the wide view hold cells at all
    const all = await map(anon, { ...around(a), max_rows: 1 });
    expect(sum(all.raw.cells.people)).toBeGreaterThan(3);
    expect(sum(all.raw.cells.projects)).toBeGreaterThan(1);
    expect(all.cities.find((x) => x.name === a.name)).toBeDefined();
  });

  test('Germany: the cells hold every visible person and project of their area, each bubble inside its cell', async () => {
    const r = await map(anon, { west: 5.5, south: 47.2, east: 15.5, north: 55.1, zoom: 6, max_rows: 200 });
    const visible = {
      people: `select count(*)::int as n from public.profiles p where p.listed and p.latitude is not null and p.longitude is not null
               and not exists (select 1 from public.account_suspensions s where s.user_id = p.id)`,
      projects: `select count(*)::int as n from public.projects p where p.status = 'published' and p.owner_listed
                 and p.latitude is not null and p.longitude is not null`,
    };
    for (const layer of ['people', 'projects'] as const) {
      const cells = r.raw.cells[layer];
      expect(r.raw.items[layer]).toEqual([]);
      expect(cells.length).toBeGreaterThan(10);
      const size = 360 / 2 ** 9; // level 9 for a view 10° wide
      for (const x of cells) {
        expect(x.bbox[2] - x.bbox[0]).toBeCloseTo(size, 9);
        expect(x.lon).toBeGreaterThanOrEqual(x.bbox[0] - 1e-5);
        expect(x.lon).toBeLessThanOrEqual(x.bbox[2] + 1e-5);
        expect(x.lat).toBeGreaterThanOrEqual(x.bbox[1] - 1e-5);
        expect(x.lat).toBeLessThanOrEqual(x.bbox[3] + 1e-5);
      }
      const [w, s, e, n] = [Math.min(...cells.map((x) => x.bbox[0])), Math.min(...cells.map((x) => x.bbox[1])),
        Math.max(...cells.map((x) => x.bbox[2])), Math.max(...cells.map((x) => x.bbox[3]))];
      const [expected] = await db.sql<{ n: number }>(`${visible[layer]} and p.longitude >= $1 and p.longitude < $3 and p.latitude >= $2 and p.latitude < $4`, [w, s, e, n]);
      expect(sum(cells), layer).toBe(expected!.n);
    }
  });

  test('the counts follow writes: unpublishing, publishing again, a hidden owner', async () => {
    // cells while more than one project is there, the item itself when one is left
    const count = async () => {
      const r = (await map(anon, { ...around(a), layers: ['projects'], max_rows: 1 })).raw;
      return sum(r.cells.projects) + r.items.projects.length;
    };
    const before = await count();
    expect(before).toBeGreaterThan(2);
    await db.sql(`update public.projects set status = 'draft' where id = $1`, [ids.science]);
    expect(await count()).toBe(before - 1);
    await db.sql(`update public.projects set status = 'published' where id = $1`, [ids.science]);
    expect(await count()).toBe(before);
    const [own] = await db.sql<{ n: number }>(`select count(*)::int as n from public.projects where owner_id = $1 and status = 'published' and latitude is not null
      and longitude between $2 and $3`, [users.owner!.id, a.longitude - 0.05, a.longitude + 0.05]);
    await db.sql(`update public.profiles set profile_visibility = 0 where id = $1`, [users.owner!.id]);
    expect(await count()).toBe(before - own!.n);
    await db.sql(`update public.profiles set profile_visibility = 1 where id = $1`, [users.owner!.id]);
    expect(await count()).toBe(before);
  });
});
