/**
 * Issue 12 ("Also: profile links accept javascript: URLs"): every user-supplied URL column
 * accepts only http(s) URLs with a host; image columns also accept storage object paths
 * ("<user id>/<file>"), never another scheme. Table-driven over every URL-like column of the
 * public tables: script and data URLs and host-less or credential-carrying URLs are refused by
 * a check constraint (23514, which PostgREST answers 400), good values are stored. A new
 * URL-like column without a case here fails the completeness test.
 * Everything runs in one transaction that is rolled back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isHttpUrl, safeHref } from '../functions/_shared/site/url.ts';
import { TestDb, postgresOwner } from './support.ts';

let db: TestDb;
const ids: Record<string, string> = {};

/** How a single URL is written into a column: the SQL expression around `$1` and the row. */
interface ColumnCase {
  column: string;
  /** SQL expression that turns the text parameter $1 into the column's value. */
  value: string;
  /** Key of the fixture row in `ids` ($2). */
  row: string;
  /** Whether a storage object path is a valid value (image columns). */
  path?: boolean;
  /** Extra schemes the column accepts on purpose (jobs.apply_url: mailto). */
  allowMailto?: boolean;
  /** Only https (events.online_url: join links). */
  httpsOnly?: boolean;
}

const CASES: ColumnCase[] = [
  { column: 'profiles.social_links', value: `jsonb_build_object('linkedin', $1::text)`, row: 'profile' },
  { column: 'profiles.profile_img', value: `$1::text`, row: 'profile', path: true },
  { column: 'profiles.logo', value: `$1::text`, row: 'profile', path: true },
  { column: 'profiles.gallery', value: `array[$1::text]`, row: 'profile', path: true },
  { column: 'projects.images', value: `array[$1::text]`, row: 'project', path: true },
  { column: 'portfolios.links', value: `jsonb_build_array(jsonb_build_object('label', 'Website', 'url', $1::text))`, row: 'portfolio' },
  { column: 'portfolios.images', value: `array[$1::text]`, row: 'portfolio', path: true },
  { column: 'events.online_url', value: `$1::text`, row: 'event', httpsOnly: true },
  { column: 'events.image', value: `$1::text`, row: 'event', path: true },
  { column: 'jobs.apply_url', value: `$1::text`, row: 'job', allowMailto: true },
  { column: 'jobs.company_logo', value: `$1::text`, row: 'job', path: true },
  { column: 'feedback.page_url', value: `$1::text`, row: 'feedback' },
  { column: 'organizations.website', value: `$1::text`, row: 'organization' },
  { column: 'organizations.logo_path', value: `$1::text`, row: 'organization', path: true },
];

const BAD = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\nscript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.com/x',
  'https://',
  'https:///path-only',
  'http://user:pass@evil.example/login',
  'https://www.example.com@evil.example/',
  '//evil.example/x',
  'https://exa mple.com/',
  'https://example.com/a b',
  'https://example.com\\@evil.example/',
  'https://-bad-.example/',
  '',
];

const GOOD = ['https://www.linkedin.com/in/erika-mustermann', 'http://example.com', 'https://karriere.example.com:8443/jobs?id=1#apply', 'HTTPS://Example.COM/Pfad'];

const table = (c: ColumnCase) => c.column.split('.')[0]!;
const col = (c: ColumnCase) => c.column.split('.')[1]!;
const write = (c: ColumnCase, value: string) =>
  db.as(postgresOwner, `update public.${table(c)} set ${col(c)} = ${c.value} where id::text = $2`, [value, ids[c.row]]);

beforeAll(async () => {
  db = await TestDb.open();
  const user = await db.user({ role: 'premium', name: 'Ulla Url' });
  ids.profile = user.id;
  const one = async (sql: string) => String(Object.values((await db.sql(sql))[0]!)[0]);
  ids.project = await one(`select id from public.projects order by id limit 1`);
  ids.portfolio = await one(`select id from public.portfolios order by id limit 1`);
  ids.event = await one(`select id from public.events where is_online order by id limit 1`);
  ids.job = await one(`select id from public.jobs order by id limit 1`);
  ids.organization = String((await db.sql<{ id: string }>(
    `insert into public.organizations (name, slug, created_by) values ('Url GmbH', $1, $2) returning id`, [`url-${Date.now().toString(36)}`, user.id]))[0]!.id);
  ids.feedback = String((await db.sql<{ id: string }>(
    `insert into public.feedback (user_id, message) values ($1, 'Die Seite ist toll.') returning id`, [user.id]))[0]!.id);
});
afterAll(async () => db?.close());

test('the cases cover every URL-like column of the public tables', async () => {
  const rows = await db.sql<{ name: string }>(
    `select c.table_name || '.' || c.column_name as name
     from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
       and c.column_name ~* '(url|link|href|image|img|logo|gallery|avatar|photo|website|homepage)'
     order by 1`);
  expect(rows.map((r) => r.name)).toEqual(CASES.map((c) => c.column).sort());
});

describe.each(CASES)('$column', (c) => {
  test.each(BAD)('refuses %j', async (bad) => {
    const outcome = await write(c, bad);
    expect(outcome.ok, `${c.column} accepted ${JSON.stringify(bad)}`).toBe(false);
    expect(outcome.code).toBe('23514');
  });

  test('stores http(s) URLs with a host', async () => {
    for (const good of GOOD) {
      const outcome = await write(c, good);
      const expected = !(c.httpsOnly && /^http:/i.test(good));
      expect(outcome.ok, `${c.column} ${expected ? 'refused' : 'accepted'} ${good}: ${outcome.message}`).toBe(expected);
    }
  });

  test(c.path ? 'stores a storage object path' : 'refuses a bare path', async () => {
    const outcome = await write(c, `${ids.profile}/avatar-1700000000000.webp`);
    expect(outcome.ok, outcome.message).toBe(c.path === true);
    if (!c.path) expect(outcome.code).toBe('23514');
  });

  test(c.allowMailto ? 'stores a plain mailto: address' : 'refuses mailto:', async () => {
    const outcome = await write(c, 'mailto:jobs@example.com');
    expect(outcome.ok, outcome.message).toBe(c.allowMailto === true);
    const withBody = await write(c, 'mailto:jobs@example.com?body=%3Cscript%3E');
    expect(withBody.ok).toBe(false);
  });
});

test("the SPA's mirror (frontend/src/lib/safe-url.ts) agrees with the database on every sample", async () => {
  const samples = [...BAD, ...GOOD, 'https://[2001:db8::1]:8443/x', 'https://example.com.', 'https://ex_ample.com/', 'https://example.com:123456/',
    'https://example.com/ä?q=ü#frag', 'https://example.com/\u0007', 'mailto:jobs@example.com', 'https://a.b.c.d.example/path;param'];
  for (const sample of samples) {
    const [row] = await db.sql<{ http: boolean; apply: boolean }>(`select private.is_http_url($1) as http, private.is_apply_url($1) as apply`, [sample]);
    expect(isHttpUrl(sample), JSON.stringify(sample)).toBe(row!.http);
    expect(safeHref(sample, { mailto: true }) !== undefined, JSON.stringify(sample)).toBe(row!.apply);
  }
});
