/**
 * search() for what people type (issue 33 §2; supabase/schemas/15_search.sql):
 * - German transliteration: "Zoerbelfeld" finds "Zörbelfeld" (and highlights it), "Zörbelheim"
 *   finds content written "Zoerbelheim";
 * - English words and category names find German content: the category name in either language
 *   finds the category's items (private.category_words), an English word finds its German
 *   synonym (private.search_synonyms);
 * - a misspelt English word is corrected through the synonyms in the dictionary ("tecnology"),
 *   and a query without hits answers "suggestion" (did you mean) when a close word exists.
 * Fixtures live in a rolled-back transaction; the searched places are invented, so the demo data
 * cannot interfere (the city filter confines the English words to them).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb } from './support.ts';

interface Hit { type: string; id: string; title: string; title_highlight: string }
interface Result { total: number; results: Hit[]; suggestion?: string }

let db: TestDb;
const ids: Record<string, string> = {};

const search = async (args: Record<string, unknown>): Promise<Result> => {
  const names = Object.keys(args);
  const sql = `select public.search(${names.map((n, i) => `${n} => $${i + 1}`).join(', ')}) as r`;
  const out = await db.as(anon, sql, Object.values(args));
  if (!out.ok) throw new Error(`${out.code} ${out.message}`);
  return out.rows[0]!.r as Result;
};
const found = (r: Result) => r.results.map((h) => h.id).sort();

beforeAll(async () => {
  db = await TestDb.open();
  const owner = await db.user({ role: 'premium', name: 'Fenja Falt' });
  const project = async (key: string, title: string, summary: string, city: string, category: string) => {
    ids[key] = String((await db.sql(`insert into public.projects (owner_id, title, summary, description, category, city, status)
      values ($1, $2, $3, $3, $4, $5, 'published') returning id`, [owner.id, title, summary, category, city]))[0]!.id);
  };
  await project('umlaut', 'Repair-Treff Zörbelfeld', 'Wir reparieren gemeinsam.', 'Zörbelfeld', 'community');
  await project('digraph', 'Lesekreis Zoerbelheim', 'Bücher lesen in Zoerbelheim.', 'Zoerbelheim', 'education');
  await project('tech', 'Lötkurs für Platinen', 'Schaltungen selbst bauen.', 'Zörbelfeld', 'technology');
  await project('green', 'Nachhaltigkeit im Verein', 'Weniger Müll beim Sportfest.', 'Zörbelfeld', 'other');
});
afterAll(async () => db?.close());

describe('search() folds what German users type for umlauts', () => {
  test('"Zoerbelfeld" finds "Zörbelfeld" and highlights the original spelling', async () => {
    const r = await search({ q: 'Zoerbelfeld', types: ['project'] });
    expect(found(r)).toEqual([ids.umlaut, ids.tech, ids.green].sort());
    expect(r.results.find((h) => h.id === ids.umlaut)!.title_highlight).toContain('<mark>Zörbelfeld</mark>');
    expect(r.suggestion).toBeUndefined();
  });

  test('"Zörbelheim" and "Zorbelheim" find content written "Zoerbelheim"', async () => {
    expect(found(await search({ q: 'Zörbelheim', types: ['project'] }))).toEqual([ids.digraph]);
    expect(found(await search({ q: 'Lesekreis Zoerbelheim', types: ['project'] }))).toEqual([ids.digraph]);
  });
});

describe('search() finds German content for English words and category names', () => {
  test('the category name in English or German finds the category whatever the texts say', async () => {
    for (const q of ['technology', 'Technologie', 'Technology']) {
      expect(found(await search({ q, city: 'Zörbelfeld' })), q).toEqual([ids.tech]);
    }
  });

  test('an English word finds its German synonym', async () => {
    const r = await search({ q: 'sustainability', city: 'Zörbelfeld' });
    expect(found(r)).toEqual([ids.green]);
    expect(r.results[0]!.title_highlight).toContain('<mark>Nachhaltigkeit</mark>');
  });
});

describe('search() corrects what it can and says so', () => {
  test('"tecnology" finds the technology items and suggests "technology"', async () => {
    const r = await search({ q: 'tecnology', city: 'Zörbelfeld' });
    expect(found(r)).toEqual([ids.tech]);
    expect(r.suggestion).toBe('technology');
  });

  test('a query without hits offers the close word ("did you mean")', async () => {
    const r = await search({ q: 'sustainabilty', city: 'Zörbelfeld' });
    expect(r.suggestion).toBe('sustainability');
    // a correct word gets no suggestion, even without hits under a filter
    const none = await search({ q: 'sustainability', city: 'Zoerbelheim' });
    expect(none.total).toBe(0);
    expect(none.suggestion).toBeUndefined();
  });
});
