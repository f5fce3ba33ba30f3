/**
 * How many member e-mail addresses can an anonymous visitor or a signed-in stranger collect
 * (issue 12 "The tests that keep it closed")? Through every exposed path: every table and view
 * of the API (all readable columns, all pages), every function they may execute (search with
 * broad and targeted queries over all pages), the public Edge Function answers (sitemaps) and the
 * storage listings. The answer must be 0 (the stranger's own address excepted).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { config, createFixtures, pool, rest, type Fixtures } from './exposure-support.ts';

let db: pg.Client;
let fx: Fixtures;
let memberEmails: Set<string>;

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  fx = await createFixtures();
  // a member without a name: the spec §3 display name would fall back to the e-mail
  await db.query(`update public.profiles set firstname = '', lastname = '' where id = $1`, [fx.owner.id]);
  const { rows } = await db.query<{ email: string }>(`select lower(email) as email from auth.users where email is not null and email <> ''`);
  memberEmails = new Set(rows.map((r) => r.email));
});
afterAll(async () => {
  await fx?.close();
  await db?.end();
});

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/gi;

/**
 * Every text an actor can read through the API, as one list of JSON/XML strings. Relations,
 * columns and callable functions come from the live catalogue (not from supabase/exposure.ts), so
 * the crawl finds whatever is exposed: a relation is read with `select=*`, or column by column
 * when that is refused.
 */
async function crawl(headers: Record<string, string>, role: 'anon' | 'authenticated'): Promise<string[]> {
  const texts: string[] = [];
  const page = 1000;
  const { rows: rels } = await db.query<{ name: string; columns: string[] }>(
    `select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p') group by c.relname`);
  for (const { name, columns } of rels) {
    let select = '*';
    const probe = await rest(`${name}?select=*&limit=1`, headers);
    if (probe.status !== 200) {
      const readable = await pool(columns.map((col) => async () => ((await rest(`${name}?select=${col}&limit=1`, headers)).status === 200 ? col : null)), 8);
      select = readable.filter((c): c is string => c !== null).join(',');
      if (!select) continue;
    }
    for (let offset = 0; offset < 20 * page; offset += page) {
      const a = await rest(`${name}?select=${select}&limit=${page}&offset=${offset}`, headers);
      texts.push(JSON.stringify(a.body));
      if (!Array.isArray(a.body) || a.body.length < page) break;
    }
  }
  const { rows: fns } = await db.query<{ name: string }>(
    `select distinct p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and has_function_privilege($1, p.oid, 'EXECUTE')`, [role]);
  const callable = fns.map((f) => f.name);
  for (const name of callable.filter((n) => n !== 'search' && n !== 'delete_my_account')) {
    texts.push(JSON.stringify((await rest(`rpc/${name}`, headers, sampleFor(name))).body));
  }
  if (callable.includes('search')) {
    const queries = ['', 'a', 'e', 'n', '@', 'teamwerk', 'test', 'exposure', 'gmail', 'mail', 'de', 'com', fx.owner.email, fx.owner.email.split('@')[0]!];
    const tasks = queries.flatMap((q) => [1, 2, 3, 4, 5].flatMap((p) => [undefined, ['profile']].map((types) => () =>
      rest('rpc/search', headers, { q, types, page: p, page_size: 50 }))));
    for (const a of await pool(tasks, 6)) texts.push(JSON.stringify(a.body));
  }
  for (const file of ['sitemap.xml', 'index-sitemap.xml', 'en-sitemap.xml', 'de-sitemap.xml']) {
    const res = await fetch(`${config.apiUrl}/functions/v1/sitemap/${file}`, { headers });
    texts.push(await res.text());
  }
  for (const bucket of ['avatars', 'portfolio-files']) {
    const res = await fetch(`${config.apiUrl}/storage/v1/object/list/${bucket}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prefix: '', limit: 1000 }),
    });
    texts.push(await res.text());
  }
  return texts;
}

function sampleFor(name: string): Record<string, unknown> {
  const samples: Record<string, Record<string, unknown>> = {
    admin_list_users: { p_search: '@', p_limit: 100 },
    event_join_link: { p_event_id: 1 },
    event_waitlist_position: { p_event_id: 1 },
    my_blocked_users: { p_slug: null },
    newsletter_confirm: { p_token: randomUUID() },
    newsletter_unsubscribe: { p_token: randomUUID() },
    newsletter_subscribe: { p_email: 'not-an-address', p_lang: 'de', p_source: 'harvest-test' },
    start_direct_conversation: { p_other_user_id: fx.owner.id },
    admin_delete_user: { p_user_id: randomUUID() },
  };
  return samples[name] ?? {};
}

function harvested(texts: string[], except: string[] = []): string[] {
  const found = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(EMAIL)) {
    const e = m[0].toLowerCase();
    if (memberEmails.has(e) && !except.includes(e)) found.add(e);
  }
  return [...found].sort();
}

test('an anonymous visitor collects 0 member e-mail addresses', async () => {
  const texts = await crawl(fx.headers('anon'), 'anon');
  expect(texts.join('').length).toBeGreaterThan(10_000); // the crawl did read the public content
  expect(harvested(texts)).toEqual([]);
}, 180_000);

test('a signed-in stranger collects 0 member e-mail addresses (their own aside)', async () => {
  const texts = await crawl(fx.headers('stranger'), 'authenticated');
  expect(texts.join('').length).toBeGreaterThan(10_000);
  expect(harvested(texts, [fx.stranger.email.toLowerCase()])).toEqual([]);
}, 180_000);
