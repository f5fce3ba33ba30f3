/**
 * Analytics (issue 15): privacy-by-design counting through public.analytics_track and the
 * owner-only, Premium-gated reading through analytics_report / analytics_csv.
 * Counting: once per visitor (salted hash of IP + user agent), item, metric and day; nothing for
 * calls without statistics consent, bots/headless agents or owners; bad input refused.
 * The storage carries no visitor identity (columns and contents are checked).
 * Everything but the HTTP block runs in one rolled-back transaction; the request headers that
 * PostgREST would pass are set as `request.headers`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';
import { createClient } from '@supabase/supabase-js';
import { anonClient, config, nodeClientOptions, superuserDb } from '../../scripts/test-support/clients.ts';

type User = Actor & { kind: 'user' };
let db: TestDb;
let owner: User;
let other: User;
let free: User;
let basic: User;
let project: string;
let draft: string;
let freeProject: string;
let job: string;

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const newProject = async (ownerId: string, status: 'draft' | 'published') => {
  const [row] = await db.sql<{ id: string }>(
    `insert into public.projects (owner_id, title, slug, category, status, published_at)
     values ($1, 'Analyse Testprojekt', 'analyse-testprojekt', (select (enum_range(null::public.project_category))[1]), $2::public.project_status,
             case when $2 = 'published' then now() end) returning id`,
    [ownerId, status],
  );
  return String(row!.id);
};

/** One call of analytics_track as `actor` from the given network address and user agent (kept). */
async function track(actor: Actor, ip: string, ua: string | null, type: string, id: string, metric = 'view', consent: boolean | null = true) {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (ua !== null) headers['user-agent'] = ua;
  await db.sql(`select set_config('request.headers', $1, true)`, [JSON.stringify(headers)]);
  return db.keep(actor, `select public.analytics_track($1, $2, $3, $4) as r`, [type, id, metric, consent]);
}

/** Today's count of one item and metric. */
async function count(type: string, id: string, metric = 'view'): Promise<number> {
  const rows = await db.sql<{ count: number }>(
    `select count from private.analytics_daily where item_type = $1 and item_id = $2 and metric = $3 and day = private.analytics_today()`,
    [type, id, metric],
  );
  return rows[0]?.count ?? 0;
}

/** Everything stored by analytics (counters and de-duplication keys), for "nothing stored". */
async function footprint(): Promise<string> {
  const [row] = await db.sql<{ f: string }>(
    `select (select coalesce(sum(count), 0) from private.analytics_daily)::text || '/' || (select count(*) from private.analytics_seen)::text as f`,
  );
  return row!.f;
}

beforeAll(async () => {
  db = await TestDb.open();
  owner = await db.user({ role: 'premium', name: 'Paula Premium' });
  other = await db.user({ role: 'premium', name: 'Oskar Other' });
  free = await db.user({ role: 'free', name: 'Fritz Frei' });
  basic = await db.user({ role: 'basic', name: 'Berta Basis' });
  project = await newProject(owner.id, 'published');
  draft = await newProject(owner.id, 'draft');
  freeProject = await newProject(basic.id, 'published');
  job = `analyse-job-${Date.now().toString(36)}`;
  await db.sql(
    `insert into public.jobs (id, title, company, city, remote, employment_type, category, description, apply_url, posted_by)
     values ($1, 'Analyse-Job', 'Teamwerk Test GmbH', 'Berlin', false, (select (enum_range(null::public.employment_type))[1]), 'other', 'Beschreibung', 'https://example.com/apply', $2)`,
    [job, owner.id],
  );
});
afterAll(async () => db?.close());

describe('counting (issue 15: one view per visitor, item and day)', () => {
  test('a visitor counts once a day; another address is another visitor, another user agent is not (issue 31 §6); metrics count separately', async () => {
    const before = await count('project', project);
    expect((await track(anon, '198.51.100.7', CHROME, 'project', project)).rows[0]!.r).toBe('counted');
    expect((await track(anon, '198.51.100.7', CHROME, 'project', project)).rows[0]!.r).toBe('duplicate');
    expect((await track(other, '198.51.100.7', CHROME, 'project', project)).rows[0]!.r).toBe('duplicate');
    expect(await count('project', project)).toBe(before + 1);
    // rotating the user agent does not count again
    expect((await track(anon, '198.51.100.7', FIREFOX, 'project', project)).rows[0]!.r).toBe('duplicate');
    for (let i = 0; i < 20; i++) {
      expect((await track(anon, '198.51.100.7', `Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/${100 + i}.0`, 'project', project)).rows[0]!.r).toBe('duplicate');
    }
    expect((await track(anon, '203.0.113.9', CHROME, 'project', project)).rows[0]!.r).toBe('counted');
    expect(await count('project', project)).toBe(before + 2);

    expect((await track(anon, '198.51.100.7', CHROME, 'profile', owner.id, 'connect_click')).rows[0]!.r).toBe('counted');
    expect((await track(anon, '198.51.100.7', CHROME, 'job', job, 'apply_click')).rows[0]!.r).toBe('counted');
    expect((await track(anon, '198.51.100.7', CHROME, 'job', job, 'apply_click')).rows[0]!.r).toBe('duplicate');
    expect(await count('profile', owner.id, 'connect_click')).toBe(1);
    expect(await count('job', job, 'apply_click')).toBe(1);
  });

  test('without consent to statistics cookies nothing is stored', async () => {
    const before = await footprint();
    const out = await track(anon, '192.0.2.50', CHROME, 'project', project, 'view', false);
    expect(out.rows[0]!.r).toBe('no_consent');
    expect(await footprint()).toBe(before);
    const missing = await track(anon, '192.0.2.50', CHROME, 'project', project, 'view', null);
    expect(missing.code).toBe('22023');
    expect(await footprint()).toBe(before);
  });

  test.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['headless Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'],
    ['curl', 'curl/8.5.0'],
    ['a link preview', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
    ['no user agent', null],
  ])('%s is not counted', async (_name, ua) => {
    const before = await footprint();
    const out = await track(anon, '192.0.2.77', ua, 'project', project);
    expect(out.rows[0]!.r).toBe('bot');
    expect(await footprint()).toBe(before);
  });

  test('owners viewing their own items are not counted', async () => {
    const before = await footprint();
    expect((await track(owner, '192.0.2.80', CHROME, 'project', project)).rows[0]!.r).toBe('own_item');
    expect((await track(owner, '192.0.2.80', CHROME, 'profile', owner.id)).rows[0]!.r).toBe('own_item');
    expect(await footprint()).toBe(before);
  });

  test.each([
    ['an unknown item type', 'article', '1', 'view', '22023'],
    ['an unknown metric', 'project', 'PROJECT', 'download', '22023'],
    ['contact requests (counted by the database only)', 'profile', 'OWNER', 'contact_request_received', '22023'],
    ['a malformed id', 'project', `1'; drop table x; --`, 'view', '22023'],
    ['an over-long id', 'job', 'a'.repeat(121), 'view', '22023'],
    ['a draft project', 'project', 'DRAFT', 'view', 'PT404'],
    ['a project that does not exist', 'project', '999999999999', 'view', 'PT404'],
    ['a profile id that is no uuid', 'profile', 'not-a-uuid', 'view', 'PT404'],
  ])('%s is refused and nothing is stored', async (_name, type, rawId, metric, code) => {
    const id = rawId === 'PROJECT' ? project : rawId === 'DRAFT' ? draft : rawId === 'OWNER' ? owner.id : rawId;
    const before = await footprint();
    const out = await track(anon, '192.0.2.90', CHROME, type, id, metric);
    expect(out.ok).toBe(false);
    expect(out.code).toBe(code);
    expect(await footprint()).toBe(before);
  });

  test('more than 120 calls a minute from one address get PT429', async () => {
    await db.sql(`select set_config('request.headers', $1, true)`, [JSON.stringify({ 'x-forwarded-for': '192.0.2.200', 'user-agent': CHROME })]);
    const out = await db.keep(anon, `select count(public.analytics_track('project', $1, 'view', false)) from generate_series(1, 121)`, [project]);
    expect(out.ok).toBe(false);
    expect(out.code).toBe('PT429');
  });

  test('a contact request received is counted for the addressee\'s profile', async () => {
    const before = await count('profile', owner.id, 'contact_request_received');
    await db.sql(`insert into public.contacts (requester_id, addressee_id, status, message) values ($1, $2, 'pending', 'Hallo')`, [other.id, owner.id]);
    expect(await count('profile', owner.id, 'contact_request_received')).toBe(before + 1);
  });
});

describe('privacy by design (issue 15: no visitor identity)', () => {
  test('the stored tables have only aggregate and hash columns', async () => {
    const cols = await db.sql<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns
       where table_schema = 'private' and table_name like 'analytics%' order by table_name, ordinal_position`,
    );
    const byTable = (t: string) => cols.filter((c) => c.table_name === t).map((c) => c.column_name);
    expect(byTable('analytics_daily')).toEqual(['item_type', 'item_id', 'day', 'metric', 'count']);
    expect(byTable('analytics_seen')).toEqual(['day', 'key']);
    expect(byTable('analytics_salts')).toEqual(['day', 'salt']);
    // the roll-ups of issue 34: sums per item or per report selection (an owner's or an organisation's items)
    expect(byTable('analytics_item_totals')).toEqual(['item_type', 'item_id', 'metric', 'as_of', 'cur', 'prev']);
    expect(byTable('analytics_scopes')).toEqual(['scope', 'items_hash', 'built_at', 'used_at']);
    expect(byTable('analytics_scope_items')).toEqual(['scope', 'item_type', 'item_id']);
    expect(byTable('analytics_scope_daily')).toEqual(['scope', 'day', 'metric', 'count']);
    expect(cols.map((c) => c.table_name).filter((t, i, all) => all.indexOf(t) === i).sort()).toEqual([
      'analytics_daily', 'analytics_item_totals', 'analytics_salts', 'analytics_scope_daily', 'analytics_scope_items', 'analytics_scopes', 'analytics_seen',
    ]);
  });

  test('no row contains an address, a user agent or a user id of a visitor, and the key is not a plain hash of them', async () => {
    await track(other, '198.51.100.123', CHROME, 'job', job);
    const [dump] = await db.sql<{ t: string }>(
      `select (select coalesce(string_agg(row_to_json(d)::text, ' '), '') from private.analytics_daily d)
           || (select coalesce(string_agg(row_to_json(s)::text, ' '), '') from private.analytics_seen s) as t`,
    );
    expect(dump!.t).not.toContain('198.51.100.123');
    expect(dump!.t).not.toContain('Chrome');
    expect(dump!.t).not.toContain(other.id);
    const plain = await db.sql(
      `select 1 from private.analytics_seen s
       where s.key in (sha256(convert_to('198.51.100.123', 'UTF8')), sha256(convert_to(concat_ws(E'\\n', '198.51.100.123', $1::text, 'job', $2::text, 'view'), 'UTF8')))`,
      [CHROME, job],
    );
    expect(plain).toHaveLength(0);
  });

  test('salts and keys of past days are deleted by the first call of a new day', async () => {
    await db.sql(`insert into private.analytics_salts (day, salt) values (private.analytics_today() - 1, decode(repeat('ab', 32), 'hex')) on conflict do nothing`);
    await db.sql(`insert into private.analytics_seen (day, key) values (private.analytics_today() - 1, decode(repeat('cd', 32), 'hex'))`);
    await db.sql(`delete from private.analytics_salts where day = private.analytics_today()`);
    await track(anon, '198.51.100.200', CHROME, 'project', project);
    const [left] = await db.sql<{ n: string }>(
      `select ((select count(*) from private.analytics_salts where day < private.analytics_today()) + (select count(*) from private.analytics_seen where day < private.analytics_today()))::text as n`,
    );
    expect(left!.n).toBe('0');
  });

  test('API roles cannot read the storage', async () => {
    for (const actor of [anon, owner] as Actor[]) {
      for (const table of ['analytics_daily', 'analytics_seen', 'analytics_salts']) {
        const out = await db.as(actor, `select 1 from private.${table} limit 1`);
        expect(out.ok).toBe(false);
        expect(out.code).toBe('42501');
      }
    }
  });
});

describe('reading (issue 15: owner with Premium or better)', () => {
  type Report = {
    from: string; to: string; series: Array<Record<string, number | string>>;
    totals: Record<string, number>; previous: Record<string, number>; change: Record<string, number | null>;
    items: Array<{ item_type: string; item_id: string; title: string; totals: Record<string, number>; previous: Record<string, number>; change: Record<string, number | null> }>;
  };
  const report = async (actor: Actor, type: string | null = null, id: string | null = null) =>
    db.as(actor, `select public.analytics_report($1, $2) as r`, [type, id]);

  test('the owner sees the counts of their items per day, with totals and the change against the previous 90 days', async () => {
    await db.sql(
      `insert into private.analytics_daily (item_type, item_id, day, metric, count) values
         ('project', $1, private.analytics_today() - 120, 'view', 2), ('project', $1, private.analytics_today() - 200, 'view', 50)`,
      [project],
    );
    const views = await count('project', project);
    expect(views).toBeGreaterThan(0);
    const out = await report(owner);
    expect(out.ok).toBe(true);
    const r = out.rows[0]!.r as Report;
    expect(r.series).toHaveLength(90);
    expect(r.series.at(-1)!.day).toBe(r.to);
    const item = r.items.find((i) => i.item_type === 'project' && i.item_id === project)!;
    expect(item.totals.view).toBe(views);
    expect(item.previous.view).toBe(2);
    expect(item.change.view).toBe(Math.round(((views - 2) / 2) * 1000) / 10);
    expect(r.items.map((i) => i.item_type).sort()).toEqual(['job', 'profile', 'project', 'project']);
    expect(r.series.at(-1)!.view).toBe(r.items.reduce((sum, i) => sum + i.totals.view!, 0));
    expect(r.totals.contact_request_received).toBe(1);
    expect(item.change.connect_click).toBeNull();

    const single = (await report(owner, 'project', project)).rows[0]!.r as Report;
    expect(single.items).toHaveLength(1);
    expect(single.series.at(-1)!.view).toBe(views);
  });

  test('the CSV has one line per item and day with the same counts', async () => {
    const out = await db.as(owner, `select public.analytics_csv('project', $1) as csv`, [project]);
    expect(out.ok).toBe(true);
    const lines = (out.rows[0]!.csv as string).trim().split('\r\n');
    expect(lines[0]).toBe('item_type,item_id,title,day,view,connect_click,apply_click,external_link_click,contact_request_received');
    expect(lines).toHaveLength(91);
    const [today] = await db.sql<{ d: string }>(`select private.analytics_today()::text as d`);
    const last = lines.at(-1)!.split(',');
    expect(last[3]).toBe(today!.d);
    expect(Number(last[4])).toBe(await count('project', project));
  });

  test('other users cannot read someone else\'s items', async () => {
    const out = await report(other, 'project', project);
    expect(out.ok).toBe(false);
    expect(out.code).toBe('42501');
    const csv = await db.as(other, `select public.analytics_csv('profile', $1)`, [owner.id]);
    expect(csv.code).toBe('42501');
    const own = (await report(other)).rows[0]!.r as Report;
    expect(own.items.some((i) => i.item_id === project || i.item_id === owner.id)).toBe(false);
  });

  test('free and basic users get PT402 premium_required, anon may not call it', async () => {
    for (const user of [free, basic]) {
      const all = await report(user);
      expect(all.code).toBe('PT402');
      expect(all.message).toBe('premium_required');
    }
    expect((await report(basic, 'project', freeProject)).code).toBe('PT402');
    expect((await db.as(free, `select public.analytics_csv()`)).code).toBe('PT402');
    expect((await report(anon)).code).toBe('42501');
  });

  test('an unknown organisation item is not readable', async () => {
    const out = await report(owner, 'organization', '00000000-0000-4000-8000-000000000001');
    expect(out.code).toBe('42501');
  });
});

describe('organisations (issue 15: /org/{slug}/analytics for its owners and admins)', () => {
  type OrgReport = { items: Array<{ item_type: string; item_id: string; totals: Record<string, number> }>; totals: Record<string, number> };
  let org: string;
  let orgProject: string;
  let member: User;
  let hidden: User;

  beforeAll(async () => {
    member = await db.user({ role: 'premium', name: 'Mia Mitglied' });
    hidden = await db.user({ role: 'premium', name: 'Hans Ungelistet' });
    const [row] = await db.sql<{ id: string }>(
      `insert into public.organizations (name, slug, created_by) values ('Analyse GmbH', $1, $2) returning id`,
      [`analyse-${Date.now().toString(36)}`, owner.id],
    );
    org = row!.id;
    await db.sql(
      `insert into public.organization_members (organization_id, user_id, role, listed) values ($1, $2, 'owner', true), ($1, $3, 'member', true), ($1, $4, 'member', false)`,
      [org, owner.id, member.id, hidden.id],
    );
    orgProject = await newProject(member.id, 'published');
    await db.sql(`update public.projects set organization_id = $1 where id = $2`, [org, orgProject]);
  });

  const orgReport = (actor: Actor, type: string | null = null, id: string | null = null) =>
    db.as(actor, `select public.analytics_report($1, $2, $3) as r`, [type, id, org]);
  const report = (actor: Actor, type: string, id: string) => db.as(actor, `select public.analytics_report($1, $2) as r`, [type, id]);

  test('the page, listed members and content published under the organisation are counted; members\' own visits are not', async () => {
    const before = await count('organization', org);
    expect((await track(anon, '203.0.113.71', CHROME, 'organization', org)).ok).toBe(true);
    expect(await count('organization', org)).toBe(before + 1);
    expect((await track(member, '203.0.113.72', CHROME, 'organization', org)).ok).toBe(true);
    expect((await track(member, '203.0.113.72', FIREFOX, 'project', orgProject)).ok).toBe(true);
    expect(await count('organization', org)).toBe(before + 1);
    expect(await count('project', orgProject)).toBe(0);
    expect((await track(other, '203.0.113.73', CHROME, 'project', orgProject)).ok).toBe(true);
    expect(await count('project', orgProject)).toBe(1);
  });

  test('owners and admins read the organisation\'s report: its page, listed members\' profiles and its content', async () => {
    const out = await orgReport(owner);
    expect(out.ok).toBe(true);
    const r = out.rows[0]!.r as OrgReport;
    const keys = r.items.map((i) => `${i.item_type}:${i.item_id}`).sort();
    expect(keys).toEqual([`organization:${org}`, `profile:${member.id}`, `profile:${owner.id}`, `project:${orgProject}`].sort());
    expect(r.items.find((i) => i.item_type === 'project')!.totals.view).toBe(await count('project', orgProject));
    // the owner's own (non-organisation) project is not part of it
    expect(keys.some((k) => k === `project:${project}`)).toBe(false);
    const single = (await orgReport(owner, 'project', orgProject)).rows[0]!.r as OrgReport;
    expect(single.items).toHaveLength(1);
    // the project page alone, outside the organisation scope, is readable by the organisation's owner too
    expect((await report(owner, 'project', orgProject)).ok).toBe(true);
    const csv = await db.as(owner, `select public.analytics_csv(null, null, $1) as csv`, [org]);
    expect(csv.ok).toBe(true);
    expect((csv.rows[0]!.csv as string).split('\r\n').filter((l) => l.startsWith('"organization",')).length).toBe(90);
  });

  test('members without the admin role, outsiders and anon are refused', async () => {
    const asMember = await orgReport(member);
    expect(asMember.code).toBe('42501');
    expect(asMember.message).toBe('not_organization_admin');
    expect((await orgReport(other)).code).toBe('42501');
    expect((await report(other, 'organization', org)).code).toBe('42501');
    expect((await orgReport(anon)).code).toBe('42501');
    await db.sql(`update public.organization_members set role = 'admin' where organization_id = $1 and user_id = $2`, [org, member.id]);
    expect((await orgReport(member)).ok).toBe(true);
    await db.sql(`delete from public.organization_members where organization_id = $1 and user_id = $2`, [org, member.id]);
    expect((await orgReport(member)).code).toBe('42501');
  });
});

describe('over HTTP (PostgREST maps the errors)', () => {
  test('bad input answers 400, an unknown item 404, and nothing is stored', async () => {
    const su = await superuserDb();
    try {
      const fp = async () => (await su.query(`select (select coalesce(sum(count), 0) from private.analytics_daily)::text || '/' || (select count(*) from private.analytics_seen)::text as f`)).rows[0].f as string;
      const before = await fp();
      const client = anonClient();
      const browser = createClient(config.apiUrl, config.anonKey, { ...nodeClientOptions, global: { headers: { 'User-Agent': CHROME } } });
      const bad = await browser.rpc('analytics_track', { p_item_type: 'project', p_item_id: '1', p_metric: 'download', p_statistics_consent: true });
      expect(bad.status).toBe(400);
      const badType = await browser.rpc('analytics_track', { p_item_type: 'user', p_item_id: '1', p_metric: 'view', p_statistics_consent: true });
      expect(badType.status).toBe(400);
      const unknown = await browser.rpc('analytics_track', { p_item_type: 'project', p_item_id: '999999999999', p_metric: 'view', p_statistics_consent: true });
      expect(unknown.status).toBe(404);
      // Node's fetch says "node": no browser, not counted (before the item is even looked up)
      const bot = await client.rpc('analytics_track', { p_item_type: 'project', p_item_id: '999999999999', p_metric: 'view', p_statistics_consent: true });
      expect(bot.data).toBe('bot');
      const noConsent = await client.rpc('analytics_track', { p_item_type: 'project', p_item_id: '1', p_metric: 'view', p_statistics_consent: false });
      expect(noConsent.data).toBe('no_consent');
      expect(await fp()).toBe(before);
    } finally {
      await su.end();
    }
  });
});

// last in the file: building a roll-up holds a share lock on the daily counts until the test
// transaction ends (counts written meanwhile wait for it, so none is missed)
describe('roll-ups (issue 34: a report of several items reads sums kept as counts arrive)', () => {
  type Report = {
    series: Array<Record<string, number | string>>;
    totals: Record<string, number>;
    previous: Record<string, number>;
    items: Array<{ item_type: string; item_id: string; totals: Record<string, number>; previous: Record<string, number> }>;
  };
  const report = async (): Promise<Report> => {
    const out = await db.keep(owner, `select public.analytics_report() as r`);
    expect(out.ok).toBe(true);
    return out.rows[0]!.r as Report;
  };
  /** The views of the owner's items computed directly from the daily counts: this window, the one before, today. */
  const direct = async () => {
    const [row] = await db.sql<{ cur: number; prev: number; today: number }>(
      `select coalesce(sum(a.count) filter (where a.day >= private.analytics_today() - 89), 0)::int as cur,
              coalesce(sum(a.count) filter (where a.day <= private.analytics_today() - 90), 0)::int as prev,
              coalesce(sum(a.count) filter (where a.day = private.analytics_today()), 0)::int as today
       from private.analytics_items_of($1) i
       join private.analytics_daily a on a.item_type = i.item_type and a.item_id = i.item_id and a.metric = 'view'
        and a.day between private.analytics_today() - 179 and private.analytics_today()`,
      [owner.id],
    );
    return row!;
  };
  const expectDirect = async (r: Report) => {
    const d = await direct();
    expect(r.totals.view).toBe(d.cur);
    expect(r.previous.view).toBe(d.prev);
    expect(r.series.at(-1)!.view).toBe(d.today);
    expect(r.items.reduce((sum, i) => sum + i.totals.view!, 0)).toBe(d.cur);
    expect(r.items.reduce((sum, i) => sum + i.previous.view!, 0)).toBe(d.prev);
  };
  const views = (r: Report, id: string) => r.items.find((i) => i.item_id === id)!;

  test('the report is served from the roll-ups, which follow new counts, a new day and a changed set of items', async () => {
    const first = await report();
    await expectDirect(first);
    const scope = `user:${owner.id}:*`;
    const [built] = await db.sql<{ n: number }>(`select count(*)::int as n from private.analytics_scope_daily where scope = $1`, [scope]);
    expect(built!.n).toBeGreaterThan(0);

    // new counts (today and in the previous window) reach the roll-ups as they are written
    await db.sql(
      `insert into private.analytics_daily (item_type, item_id, day, metric, count) values
         ('project', $1, private.analytics_today(), 'view', 5), ('project', $1, private.analytics_today() - 100, 'view', 3)
       on conflict (item_type, item_id, day, metric) do update set count = private.analytics_daily.count + excluded.count`,
      [project],
    );
    const second = await report();
    expect(views(second, project).totals.view).toBe(views(first, project).totals.view! + 5);
    expect(views(second, project).previous.view).toBe(views(first, project).previous.view! + 3);
    expect(second.series.at(-1)!.view).toBe((first.series.at(-1)!.view as number) + 5);
    await expectDirect(second);

    // windows of an earlier day are recomputed, not trusted
    await db.sql(`update private.analytics_item_totals set as_of = as_of - 1, cur = cur + 1000 where item_type = 'project' and item_id = $1`, [project]);
    await expectDirect(await report());

    // a new item with counts from before it joined the report, and a removed one
    const added = await newProject(owner.id, 'published');
    await db.sql(`insert into private.analytics_daily (item_type, item_id, day, metric, count) values ('project', $1, private.analytics_today() - 1, 'view', 11)`, [added]);
    const third = await report();
    expect(views(third, added).totals.view).toBe(11);
    await expectDirect(third);
    await db.sql(`delete from public.jobs where id = $1`, [job]);
    const fourth = await report();
    expect(fourth.items.some((i) => i.item_id === job)).toBe(false);
    await expectDirect(fourth);

    // the nightly roll-forward is idempotent
    await db.sql(`select private.analytics_roll_forward()`);
    await db.sql(`select private.analytics_roll_forward()`);
    await expectDirect(await report());

    // a deleted account leaves no roll-up behind (its id is part of the selection's name)
    await db.sql(`delete from auth.users where id = $1`, [owner.id]);
    const [left] = await db.sql<{ n: number }>(`select count(*)::int as n from private.analytics_scopes where scope like $1`, [`user:${owner.id}:%`]);
    expect(left!.n).toBe(0);
  });
});
