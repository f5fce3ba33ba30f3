/**
 * search() RPC (issue 8): umlaut/accent folding, typo tolerance, highlighting, facets and
 * filters, visibility and blocking rules, premium preference. Fixtures live in a rolled-back
 * transaction; the searched words are invented so the demo data cannot interfere.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

interface Hit { type: string; id: string; title: string; title_highlight: string; snippet: string; premium: boolean; score: number; owner_id: string }
interface Result { total: number; page: number; page_size: number; facets: { types: Record<string, number>; categories: Record<string, number>; cities: { city: string; count: number }[] }; results: Hit[] }

let db: TestDb;
const ids: Record<string, string> = {};
let viewer: Actor & { kind: 'user' };
let blockedViewer: Actor & { kind: 'user' };

const search = async (as: Actor, args: Record<string, unknown>): Promise<Result> => {
  const names = Object.keys(args);
  const sql = `select public.search(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) as r`;
  const out = await db.as(as, sql, Object.values(args));
  if (!out.ok) throw new Error(`${out.code} ${out.message}`);
  return out.rows[0]!.r as Result;
};

beforeAll(async () => {
  db = await TestDb.open();
  const premium = await db.user({ role: 'premium', name: 'Petra Premium' });
  const basic = await db.user({ role: 'basic', name: 'Bodo Basic' });
  const hidden = await db.user({ role: 'premium', visible: false, name: 'Hella Hidden' });
  const unconfirmed = await db.user({ role: 'premium', confirmed: false, name: 'Udo Unconfirmed' });
  const suspended = await db.user({ role: 'premium', name: 'Susi Suspended' });
  viewer = await db.user({ name: 'Vera Viewer' });
  blockedViewer = await db.user({ name: 'Bert Blocked' });
  await db.sql(`insert into public.account_suspensions (user_id) values ($1)`, [suspended.id]);
  await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [blockedViewer.id, premium.id]);
  const project = async (key: string, owner: string, title: string, summary: string, city = 'Köln', category = 'community') => {
    ids[key] = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status)
      values ($1, $2, $3, $3, $4, $5, 'published') returning id`, [owner, title, summary, category, city]))[0]!.id);
  };
  await project('premium', premium.id, 'Mitgründer für Zeltverleih gesucht', 'Wir vermieten Zelte für Festivals und suchen einen Mitgründer.');
  await project('basic', basic.id, 'Mitgründer für Zeltverleih gesucht', 'Wir vermieten Zelte für Festivals und suchen einen Mitgründer.');
  await project('hidden', hidden.id, 'Zeltverleih verborgen', 'Zeltverleih eines unsichtbaren Profils.');
  await project('unconfirmed', unconfirmed.id, 'Zeltverleih unbestätigt', 'Zeltverleih ohne bestätigte E-Mail.');
  await project('suspended', suspended.id, 'Zeltverleih gesperrt', 'Zeltverleih eines gesperrten Kontos.');
  await project('science', basic.id, 'Zeltverleih Forschung', 'Messdaten zum Zeltverleih.', 'Münster', 'science');
  ids.event = String((await db.sql(`insert into public.events (organizer_id, title, summary, status, starts_at, ends_at, city, category)
    values ($1, 'Zeltverleih-Stammtisch', 'Austausch für Gründer', 'upcoming', now() + interval '10 days', now() + interval '10 days 2 hours', 'Köln', 'business') returning id`, [basic.id]))[0]!.id);
  await db.sql(`insert into public.projects (owner_id, title, summary, category, status) values ($1, 'Zeltverleih Entwurf', 'Entwurf', 'art', 'draft')`, [premium.id]);
});
afterAll(async () => db?.close());

describe('search()', () => {
  test('umlauts and accents fold: "Mitgrunder" finds "Mitgründer" and highlights it', async () => {
    const r = await search(anon, { q: 'Mitgrunder Zeltverleih', types: ['project'] });
    expect(r.results.map((h) => h.id).sort()).toEqual([ids.basic, ids.premium].sort());
    expect(r.results[0]!.title_highlight).toContain('<mark>Mitgründer</mark>');
  });

  test('typos are tolerated on titles (trigram)', async () => {
    const r = await search(anon, { q: 'Zeltverlei', types: ['project'] });
    expect(r.results.map((h) => h.id)).toEqual(expect.arrayContaining([ids.premium, ids.basic, ids.science]));
    // the spelling is corrected against the dictionary, so the real word is highlighted
    expect(r.results[0]!.title_highlight).toContain('<mark>Zeltverleih</mark>');
    const twoTypos = await search(anon, { q: 'Mitgrnder Zeltverleh', types: ['project'] });
    expect(twoTypos.results.map((h) => h.id).sort()).toEqual([ids.basic, ids.premium].sort());
  });

  test('the typo fallback is used only when full-text search finds nothing', async () => {
    const exact = await search(anon, { q: 'Zeltverleih Forschung', types: ['project'] });
    expect(exact.results.map((h) => h.id)).toEqual([ids.science]);
  });

  test('only visible, confirmed, non-suspended owners and published content are found', async () => {
    const r = await search(anon, { q: 'Zeltverleih', page_size: 50 });
    const found = r.results.map((h) => h.id);
    for (const key of ['hidden', 'unconfirmed', 'suspended']) expect(found).not.toContain(ids[key]);
    expect(r.results.some((h) => h.title === 'Zeltverleih Entwurf')).toBe(false);
    expect(found).toEqual(expect.arrayContaining([ids.premium, ids.basic, ids.science, ids.event]));
  });

  test('an owner who later hides the profile, or is suspended, drops out of search (and comes back)', async () => {
    const owner = (await db.sql<{ owner_id: string }>(`select owner_id from public.projects where id = $1`, [ids.basic]))[0]!.owner_id;
    const found = async () => (await search(anon, { q: 'Zeltverleih', types: ['project'], page_size: 50 })).results.map((h) => h.id);
    await db.sql(`update public.profiles set profile_visibility = 0 where id = $1`, [owner]);
    expect(await found()).not.toContain(ids.basic);
    await db.sql(`update public.profiles set profile_visibility = 1 where id = $1`, [owner]);
    expect(await found()).toContain(ids.basic);
    await db.sql(`insert into public.account_suspensions (user_id) values ($1)`, [owner]);
    expect(await found()).not.toContain(ids.basic);
    await db.sql(`delete from public.account_suspensions where user_id = $1`, [owner]);
    expect(await found()).toContain(ids.basic);
  });

  test('blocked users do not find each other', async () => {
    const asViewer = await search(viewer, { q: 'Zeltverleih', types: ['project'] });
    const asBlocked = await search(blockedViewer, { q: 'Zeltverleih', types: ['project'] });
    expect(asViewer.results.map((h) => h.id)).toContain(ids.premium);
    expect(asBlocked.results.map((h) => h.id)).not.toContain(ids.premium);
  });

  test('premium content ranks first at equal relevance', async () => {
    const r = await search(anon, { q: 'Mitgründer Zeltverleih', types: ['project'] });
    expect(r.results[0]!.id).toBe(ids.premium);
    expect(r.results[0]!.premium).toBe(true);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
  });

  test('facets, type/category/city/date filters and pagination', async () => {
    const all = await search(anon, { q: 'Zeltverleih' });
    expect(all.facets.types).toMatchObject({ project: 3, event: 1 });
    const events = await search(anon, { q: 'Zeltverleih', types: ['event'] });
    expect(events.results.map((h) => h.type)).toEqual(['event']);
    expect(events.facets.types.project).toBe(3);
    const science = await search(anon, { q: 'Zeltverleih', category: 'science' });
    expect(science.results.map((h) => h.id)).toEqual([ids.science]);
    const city = await search(anon, { q: 'Zeltverleih', city: 'munster' });
    expect(city.results.map((h) => h.id)).toEqual([ids.science]);
    expect(all.facets.cities).toEqual(expect.arrayContaining([{ city: 'Köln', count: 3 }]));
    const soon = await search(anon, { q: 'Zeltverleih', types: ['event'], date_from: new Date(Date.now() + 5 * 864e5).toISOString().slice(0, 10) });
    expect(soon.total).toBe(1);
    const later = await search(anon, { q: 'Zeltverleih', types: ['event'], date_from: new Date(Date.now() + 20 * 864e5).toISOString().slice(0, 10) });
    expect(later.total).toBe(0);
    const page2 = await search(anon, { q: 'Zeltverleih', page: 2, page_size: 2 });
    expect(page2.page).toBe(2);
    expect(page2.results).toHaveLength(2);
    expect(page2.total).toBe(4);
  });

  test('snippets are HTML-escaped apart from <mark>', async () => {
    await db.sql(`update public.projects set summary = '<script>alert(1)</script> Zeltverleih' , description = '<b>Zeltverleih</b>' where id = $1`, [ids.science]);
    const r = await search(anon, { q: 'Zeltverleih', category: 'science' });
    const html = r.results[0]!.snippet;
    expect(html).toContain('<mark>Zeltverleih</mark>');
    expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  test('jobs are searchable on request (types: job), expired ones are not', async () => {
    await db.sql(`insert into public.jobs (id, title, company, remote, employment_type, description, apply_url, expires_at) values
      ('zeltverleih-aktiv', 'Zeltverleih Logistik (m/w/d)', 'Zeltwerk GmbH', true, 'full_time', 'Aufbau von Festivalzelten.', 'https://jobs.example.com/z1', now() + interval '30 days'),
      ('zeltverleih-alt', 'Zeltverleih Aushilfe', 'Zeltwerk GmbH', true, 'mini_job', 'Abgelaufen.', 'https://jobs.example.com/z2', null)`);
    await db.sql(`update public.jobs set posted_at = now() - interval '90 days', expires_at = now() - interval '1 day' where id = 'zeltverleih-alt'`);
    const r = await search(anon, { q: 'Zeltverleih', types: ['job'] });
    expect(r.results.map((h) => h.id)).toEqual(['zeltverleih-aktiv']);
    expect((await search(anon, { q: 'Zeltverleih' })).results.some((h) => h.type === 'job')).toBe(false);
  });

  test('API tables carry no search vectors (they live in private.search_items)', async () => {
    const cols = await db.sql(`select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'tsvector'`);
    expect(cols).toEqual([]);
  });

  test('browse mode (no words): filters apply, newest first, counts flagged when capped', async () => {
    const r = await search(anon, { q: '', types: ['event'], city: 'köln', date_from: new Date().toISOString().slice(0, 10) }) as Result & { total_capped: boolean };
    expect(r.results.map((h) => h.id)).toContain(ids.event);
    const dates = r.results.map((h) => (h as unknown as { date: string }).date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(r.total_capped).toBe(false);
    const all = await search(anon, { q: '' }) as Result & { total_capped: boolean };
    expect(all.total).toBeLessThanOrEqual(2000);
    expect(all.results).toHaveLength(20);
  });

  test('bad input is refused with 22023', async () => {
    await expect(search(anon, { q: 'x', types: ['users'] })).rejects.toThrow(/22023 invalid_type/);
    await expect(search(anon, { q: 'x'.repeat(201) })).rejects.toThrow(/query_too_long/);
  });
});

describe('search() ranking', () => {
  const rank: Record<string, string> = {};
  beforeAll(async () => {
    // Premium: four projects are above the Basic plan's limit; the premium factor is the same for all
    const owner = await db.user({ role: 'premium', name: 'Rita Rang' });
    const add = async (key: string, title: string, text: string) => {
      rank[key] = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status)
        values ($1, $2, $3, $3, 'community', 'Kassel', 'published') returning id`, [owner.id, title, text]))[0]!.id);
    };
    const filler = 'Wir treffen uns jeden Donnerstag im Stadtteilzentrum und freuen uns über neue Gesichter aus der Nachbarschaft';
    // one word (ts_rank, issue 34): the word in the title outranks the same word three times in the text
    await add('oneTitle', 'Kakaoröster sucht Mitstreiter', filler);
    await add('oneBody', 'Mitstreiter gesucht', `Kakaoröster, Kakaoröster und nochmals Kakaoröster. ${filler}`);
    // several words (ts_rank_cd): words standing together outrank the same words far apart
    await add('twoNear', 'Offene Werkstatt', `Unsere Quittenpresse Sammelstelle steht bereit. ${filler}`);
    await add('twoFar', 'Offene Werkstatt', `Unsere Quittenpresse steht bereit. ${filler}. ${filler}. Sammelstelle`);
  });

  test('one word: a hit in the title ranks above the same word repeated in the text', async () => {
    const r = await search(anon, { q: 'Kakaoröster', types: ['project'] });
    expect(r.results.map((h) => h.id)).toEqual([rank.oneTitle, rank.oneBody]);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
  });

  test('several words: words standing together rank above the same words far apart', async () => {
    const r = await search(anon, { q: 'Quittenpresse Sammelstelle', types: ['project'] });
    expect(r.results.map((h) => h.id)).toEqual([rank.twoNear, rank.twoFar]);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
  });
});
