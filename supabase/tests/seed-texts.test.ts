/**
 * The demo data's texts as a visitor reads them (issue 33 §16), scanned in the seeded database:
 * no description that starts by repeating the summary shown above it, German job titles in the
 * form of the person's first name ("Markus Hoffmann – Sozialarbeiterin" read wrong), and English
 * indefinite articles that fit the sound ("I am a electrical engineer" read wrong).
 * Only the rows of scripts/seed/generate.ts are read (their fixed ids and address domains), not
 * what other tests add.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ACCOUNTS } from '../../scripts/seed/generate.ts';
import { FIRST_NAMES_F, FIRST_NAMES_M } from '../../scripts/seed/texts.ts';
import { TestDb } from './support.ts';

let db: TestDb;

beforeAll(async () => {
  db = await TestDb.open();
});
afterAll(async () => {
  await db.close();
});

/** Seeded people: the demo accounts and the generated people (example.com/.org/.net). */
const SEEDED_PEOPLE = `(p.email like '%@teamwerk.test' and p.email = any ($1::text[])) or p.email ~ '@example\\.(com|org|net)$'`;
const demoEmails = DEMO_ACCOUNTS.map((d) => d.email);
const female = new Set<string>([...FIRST_NAMES_F, ...DEMO_ACCOUNTS.filter((d) => d.female).map((d) => d.firstname)]);
const male = new Set<string>([...FIRST_NAMES_M, ...DEMO_ACCOUNTS.filter((d) => !d.female).map((d) => d.firstname)]);
/** German titles that are the same for everyone. */
const NEUTRAL = new Set(['Data Scientist', 'Vertriebsprofi', 'Pflegefachkraft', 'Business Angel']);
/** A German job title in the feminine form: a word ending in "-in" ("Sozialarbeiterin", "Studentin der BWL"). */
const feminine = (title: string) => /in(?:\s|$)/.test(title);

/**
 * What is wrong with a German job title for a person of this first name, or null.
 * @param title e.g. "Sozialarbeiterin"; firstname e.g. "Markus"
 */
function genderMismatch(firstname: string, title: string): string | null {
  if (NEUTRAL.has(title)) return null;
  if (male.has(firstname) && feminine(title)) return `${firstname}: ${title}`;
  if (female.has(firstname) && !feminine(title)) return `${firstname}: ${title}`;
  return null;
}

/** English "a" before a vowel sound or "an" before a consonant sound (the nouns the seed uses). */
const ARTICLE_MISMATCH = /\b(?:a (?:[aeio]|u(?!x|s|ni))|an (?![aeio]|u(?!x|s|ni))[a-z])/i;

describe('seeded texts a visitor reads (issue 33 §16)', () => {
  test('no project or event description starts with its summary', async () => {
    const rows = await db.sql<{ kind: string; id: string }>(
      `select 'project' as kind, id::text from public.projects
        where (id <= 600 or organization_id = 'b0000000-0000-4000-8000-000000000001')
          and summary <> '' and btrim(description) like btrim(summary) || '%'
       union all
       select 'event', id::text from public.events
        where id <= 120 and summary <> '' and btrim(description) like btrim(summary) || '%'`,
    );
    const [{ n }] = (await db.sql<{ n: string }>(`select count(*) as n from public.projects where id <= 600`)) as [{ n: string }];
    expect(Number(n), 'the seed is loaded').toBeGreaterThan(500);
    expect(rows).toEqual([]);
  });

  test('German job titles in headlines, bios and portfolios match the first name', async () => {
    const people = await db.sql<{ firstname: string; headline: string | null; bio: string | null }>(
      `select p.firstname, p.headline, p.bio from public.profiles p where ${SEEDED_PEOPLE}`,
      [demoEmails],
    );
    expect(people.length, 'the seed is loaded').toBeGreaterThan(300);
    const portfolios = await db.sql<{ firstname: string; description_de: string | null }>(
      `select p.firstname, f.description_de from public.portfolios f join public.profiles p on p.id = f.owner_id where ${SEEDED_PEOPLE}`,
      [demoEmails],
    );
    const wrong: string[] = [];
    let checked = 0;
    for (const p of people) {
      const titles = [p.headline?.match(/^(.+) aus /)?.[1], p.bio?.match(/^Ich bin (.+?) und lebe in /)?.[1]];
      for (const title of titles.filter((t): t is string => !!t)) {
        checked++;
        const mismatch = genderMismatch(p.firstname, title);
        if (mismatch) wrong.push(mismatch);
      }
    }
    for (const f of portfolios) {
      const title = f.description_de?.match(/ als (.+?) mitgearbeitet/)?.[1];
      if (!title) continue;
      checked++;
      const mismatch = genderMismatch(f.firstname, title);
      if (mismatch) wrong.push(mismatch);
    }
    expect(checked, 'German headlines and bios were found').toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  test('English texts use "a" and "an" by sound', async () => {
    const texts = await db.sql<{ source: string; text: string }>(
      `select 'bio ' || p.email as source, p.bio as text from public.profiles p
        where (${SEEDED_PEOPLE}) and p.bio like 'I am %'
       union all
       select 'portfolio ' || f.id, f.description_en from public.portfolios f where f.id <= 220
       union all
       select 'job ' || j.id, j.description from public.jobs j where j.language = 'en' and j.apply_url like 'https://karriere.example.com/%'
       union all
       select 'project ' || x.id, x.summary || ' ' || x.description from public.projects x
        where x.id <= 600 and x.description like '%Who we are looking for%'
       union all
       select 'event ' || e.id, e.summary || ' ' || e.description from public.events e
        where e.id <= 120 and e.description like '%What to expect%'`,
      [demoEmails],
    );
    expect(texts.length, 'English seed texts were found').toBeGreaterThan(100);
    const wrong = texts.filter((t) => ARTICLE_MISMATCH.test(t.text)).map((t) => `${t.source}: …${t.text.match(ARTICLE_MISMATCH)![0]}…`);
    expect(wrong).toEqual([]);
  });
});
