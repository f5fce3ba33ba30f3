/**
 * search() typo paths and counts (issue 8; supabase/schemas/15_search.sql):
 * spelling correction by nearest trigram neighbour must pick what a brute-force scan of the
 * dictionary picks (highest similarity >= 0.45, ties by word); a misspelt query must return
 * exactly what the correctly spelt one returns (same hits, scores and order); the title
 * similarity fallback still answers when correction cannot help; total and facets follow the
 * type filter; repeated calls (plan cache: custom, then generic plans) return the same result.
 * Fixtures live in a rolled-back transaction and use invented words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

interface Hit { type: string; id: string; title: string; title_highlight: string; premium: boolean; score: number }
interface Result {
  total: number;
  facets: { types: Record<string, number>; categories: Record<string, number>; cities: { city: string; count: number }[] };
  results: Hit[];
}

let db: TestDb;
const ids: Record<string, string> = {};

const search = async (as: Actor, args: Record<string, unknown>): Promise<Result> => {
  const names = Object.keys(args);
  const sql = `select public.search(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) as r`;
  const out = await db.as(as, sql, Object.values(args));
  if (!out.ok) throw new Error(`${out.code} ${out.message}`);
  return out.rows[0]!.r as Result;
};

/** Reference for the spelling rule: score every dictionary word, best similarity >= 0.45, ties by word. */
const bruteForceCorrection = async (token: string): Promise<string> => {
  const rows = await db.sql<{ word: string }>(
    `select w.word from private.search_words w
     where extensions.similarity(w.word, $1) >= 0.45
     order by extensions.similarity(w.word, $1) desc, w.word limit 1`, [token]);
  return rows[0]?.word ?? token;
};

beforeAll(async () => {
  db = await TestDb.open();
  const premium = await db.user({ role: 'premium', name: 'Quirin Premium' });
  const basic = await db.user({ role: 'basic', name: 'Quarta Basic' });
  const project = async (key: string, owner: string, title: string, summary: string, city: string, category: string) => {
    ids[key] = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status)
      values ($1, $2, $3, $3, $4, $5, 'published') returning id`, [owner, title, summary, category, city]))[0]!.id);
  };
  await project('p1', premium.id, 'Quendelwiese Nordhang', 'Wildblumen auf der Quendelwiese.', 'Quarzburg', 'environment');
  await project('p2', basic.id, 'Quendelwiese am Bach', 'Eine Quendelwiese für alle.', 'Quarzburg', 'environment');
  await project('p3', basic.id, 'Kräuter der Quendelwiese', 'Quendelwiese und Kräutergarten.', 'Quellstadt', 'art');
  ids.event = String((await db.sql(`insert into public.events (organizer_id, title, summary, status, starts_at, ends_at, city, category)
    values ($1, 'Quendelwiese Führung', 'Rundgang über die Quendelwiese', 'upcoming', now() + interval '3 days',
            now() + interval '3 days 2 hours', 'Quellstadt', 'art') returning id`, [premium.id]))[0]!.id);
  // two dictionary words at the same similarity to 'zaltor' (tie) and one far away
  await project('tie', basic.id, 'Zaltorb Zaltora', 'Gleichstand im Wörterbuch.', 'Quarzburg', 'other');
  // issue 34: found only by title similarity (the three words never occur together)
  await project('lastResort', premium.id, 'Plauderfunk für Klangwerk', 'Gespräche über Klänge.', 'Quarzburg', 'art');
});
afterAll(async () => db?.close());

describe('search() typo paths (nearest-neighbour spelling correction)', () => {
  test('the correction equals a brute-force scan of the dictionary (best similarity, ties by word, threshold)', async () => {
    const tokens = ['quendelwiesse', 'quendlwiese', 'zaltor', 'nordhnag', 'qqxxzzqq', 'kraeuter'];
    for (const token of tokens) {
      const [row] = await db.sql<{ c: string }>(`select private.correct_spelling($1) as c`, [token]);
      expect(row!.c, token).toBe(await bruteForceCorrection(token));
    }
    // the tie is decided by the word, and a word without a close neighbour stays as it is
    expect((await db.sql<{ c: string }>(`select private.correct_spelling('Zaltor QQXXZZQQ') as c`))[0]!.c).toBe('zaltora qqxxzzqq');
  });

  test('a misspelt query returns exactly the hits, scores and order of the correct one', async () => {
    const right = await search(anon, { q: 'Quendelwiese' });
    const typo = await search(anon, { q: 'Quendelwiesse' });
    expect(right.results.map((h) => h.id).sort()).toEqual([ids.p1, ids.p2, ids.p3, ids.event].sort());
    expect(typo.results.map((h) => [h.type, h.id, h.score])).toEqual(right.results.map((h) => [h.type, h.id, h.score]));
    expect(typo.total).toBe(right.total);
    expect(typo.facets).toEqual(right.facets);
    // the corrected word is what gets highlighted
    expect(typo.results[0]!.title_highlight).toContain('<mark>Quendelwiese</mark>');
    // results come best score first
    const scores = right.results.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  test('when correction cannot help, trigram similarity on titles still finds the title', async () => {
    // 'suedhang' has no dictionary word within similarity 0.45 and the words never occur together
    const r = await search(anon, { q: 'Quendelwiese Suedhang', types: ['project'] });
    expect(r.results.map((h) => h.id)).toContain(ids.p1);
    expect(r.total).toBe(r.results.length);
  });

  test('the title-similarity last resort compares the corrected words: a misspelt query finds what the correct one finds (issue 34)', async () => {
    // no text holds all three words, so full-text search finds nothing either way and only the
    // title similarity answers; spelt wrong, 'plauderfnk' alone would stay below its threshold
    const right = await search(anon, { q: 'Plauderfunk Klangwerk Zuhoerer' });
    expect(right.results.map((h) => h.id)).toContain(ids.lastResort);
    const typo = await search(anon, { q: 'Plauderfnk Klangwerk Zuhoerer' });
    expect(typo.results.map((h) => [h.type, h.id, h.score])).toEqual(right.results.map((h) => [h.type, h.id, h.score]));
    expect(typo.total).toBe(right.total);
  });

  test('total and facets follow the type filter: types over all, categories/cities/total over the requested types', async () => {
    const all = await search(anon, { q: 'Quendelwiese' });
    expect(all.facets.types).toEqual({ project: 3, event: 1 });
    expect(all.total).toBe(4);
    expect(all.facets.categories).toEqual({ environment: 2, art: 2 });
    expect(all.facets.cities).toEqual([{ city: 'Quarzburg', count: 2 }, { city: 'Quellstadt', count: 2 }]);
    const events = await search(anon, { q: 'Quendelwiese', types: ['event'] });
    expect(events.facets.types).toEqual({ project: 3, event: 1 });
    expect(events.total).toBe(1);
    expect(events.facets.categories).toEqual({ art: 1 });
    expect(events.facets.cities).toEqual([{ city: 'Quellstadt', count: 1 }]);
    expect(events.results.map((h) => h.id)).toEqual([ids.event]);
    const nothing = await search(anon, { q: 'Quendelwiese', types: ['job'] });
    expect(nothing.total).toBe(0);
    expect(nothing.facets.categories).toEqual({});
    expect(nothing.facets.cities).toEqual([]);
  });

  test('repeated calls give the same result (the plan cache switches to a generic plan after five)', async () => {
    const first = await search(anon, { q: 'Quendlwiese', types: ['project', 'event'], city: 'quellstadt' });
    expect(first.results.map((h) => h.id).sort()).toEqual([ids.p3, ids.event].sort());
    for (let i = 0; i < 7; i++) expect(await search(anon, { q: 'Quendlwiese', types: ['project', 'event'], city: 'quellstadt' })).toEqual(first);
  });
});
