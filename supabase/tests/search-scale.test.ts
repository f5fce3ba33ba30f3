/**
 * search() on huge result sets (issue 34; supabase/schemas/15_search.sql): the cost of a query
 * grows with the page, not with the number of hits. When a full-text query has more hits than
 * search() ranks (the newest 1,000 for the first pages), the page is ranked among those, facets
 * count those ("total_capped") and the total is an estimate ("total_estimated", at least 1,001);
 * up to 1,000 hits everything stays exact. The city filter compares the normalised city (no
 * accents, any case). Fixtures live in a rolled-back transaction and use invented words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

interface Hit { type: string; id: string; title: string; score: number; city: string | null }
interface Result {
  total: number;
  total_capped?: boolean;
  total_estimated?: boolean;
  page: number;
  facets: { types: Record<string, number>; categories: Record<string, number>; cities: { city: string; count: number }[] };
  results: Hit[];
}

let db: TestDb;
let titleHit = '';

const search = async (as: Actor, args: Record<string, unknown>): Promise<Result> => {
  const names = Object.keys(args);
  const sql = `select public.search(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) as r`;
  const out = await db.as(as, sql, Object.values(args));
  if (!out.ok) throw new Error(`${out.code} ${out.message}`);
  return out.rows[0]!.r as Result;
};

beforeAll(async () => {
  db = await TestDb.open();
  const owner = await db.user({ role: 'premium', name: 'Maxi Menge' });
  // 1,200 projects mention 'Wimmelkram' in their summary (published an hour ago and earlier);
  // 600 of them in Görlitz; 900 mention 'Brummelzeug' (exact path: at most 1,000 hits)
  await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status, published_at)
    select $1, 'Sammelprojekt ' || g, 'Viel Wimmelkram hier' || case when g <= 900 then ' und Brummelzeug' else '' end,
           'Beschreibung', 'community', case when g % 2 = 0 then 'Görlitz' else 'Bautzen' end, 'published',
           now() - interval '1 hour' - (g || ' minutes')::interval
    from generate_series(1, 1200) g`, [owner.id]);
  // the newest hit has the word in its title: it ranks first
  titleHit = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status, published_at)
    values ($1, 'Wimmelkram Zentrale', 'Alles rund um Wimmelkram', 'Beschreibung', 'art', 'Görlitz', 'published', now()) returning id`, [owner.id]))[0]!.id);
});
afterAll(async () => db?.close());

describe('search() on huge result sets', () => {
  test('more hits than ranked: the page is ranked among the newest 1,000, counts over them, the total an estimate', async () => {
    const r = await search(anon, { q: 'Wimmelkram', types: ['project'] });
    expect(r.total_estimated).toBe(true);
    expect(r.total_capped).toBe(true);
    expect(r.total).toBeGreaterThanOrEqual(1001);
    expect(r.results).toHaveLength(20);
    expect(r.results[0]!.id).toBe(titleHit);
    const scores = r.results.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(r.facets.types.project).toBe(1000);
    expect(r.facets.categories).toEqual({ community: 999, art: 1 });
    // page 60 (rows 1,181..1,200) lies past the first thousand: it is ranked among the newest 2,000
    const deep = await search(anon, { q: 'Wimmelkram', types: ['project'], page: 60 });
    expect(deep.total_estimated).toBe(false);
    expect(deep.total).toBe(1201);
    expect(deep.results).toHaveLength(20);
  });

  test('up to 1,000 hits everything is exact', async () => {
    const r = await search(anon, { q: 'Brummelzeug', types: ['project'] });
    expect(r.total_estimated).toBe(false);
    expect(r.total).toBe(900);
    expect(r.facets.types.project).toBe(900);
  });

  test('the city filter compares the normalised city (case and accents), in browse and in full-text mode', async () => {
    const words = await search(anon, { q: 'Wimmelkram', types: ['project'], city: 'GORLITZ' });
    expect(words.total_estimated).toBe(false);
    expect(words.total).toBe(601);
    expect(new Set(words.results.map((h) => h.city))).toEqual(new Set(['Görlitz']));
    const browse = await search(anon, { q: '', types: ['project'], city: 'görlitz' });
    expect(browse.results[0]!.id).toBe(titleHit);
    expect(browse.facets.cities).toEqual([{ city: 'Görlitz', count: browse.total }]);
  });
});
