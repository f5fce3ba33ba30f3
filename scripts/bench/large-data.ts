/**
 * The large data set of the benchmarks (db-queries, map, api, matching): on top of the demo seed,
 * for a size of P projects (default 100,000; `--projects N` on the benchmark's command line,
 * issue 34): P/2 profiles (auth.users + the signup trigger; a third of them in the 200 largest
 * gazetteer cities, the rest in 15 big cities), P projects (half in 15 big cities, half spread
 * over the 200 largest cities; coordinates from the city, issue 14), 0.3 P portfolios and 0.1 P
 * events. Deterministic (no random()); run as postgres. The bench users are the accounts whose id
 * starts with `b0000000-0000-4000-8000-` (other `bench…` accounts, e.g. the one stack-start.ts
 * leaves, are not part of the set).
 */
import fs from 'node:fs';
import pg from 'pg';
import { stopStack, startStack } from '../local-stack/cli.ts';
import { stackConfig, type StackConfig } from '../local-stack/config.ts';

/** Id prefix of the large data set's accounts (the row number in hex follows). */
export const BENCH_ID_PREFIX = 'b0000000-0000-4000-8000-';

/** The projects of the large data set: `--projects N` of the command line, default 100,000. */
export function benchProjects(): number {
  const i = process.argv.indexOf('--projects');
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isInteger(v) && v >= 10 ? v : 100_000;
}

/**
 * The SQL that loads the large data set for `projects` projects (profiles = projects / 2,
 * portfolios = 0.3 x, events = 0.1 x).
 */
export function loadSql(projects: number): string {
  const profiles = Math.max(10, Math.floor(projects / 2));
  const portfolios = Math.max(1, Math.floor(projects * 0.3));
  const events = Math.max(1, Math.floor(projects * 0.1));
  return LOAD_SQL.replaceAll('generate_series(1, 50000)', `generate_series(1, ${profiles})`)
    .replaceAll('generate_series(1, 100000)', `generate_series(1, ${projects})`)
    .replaceAll('generate_series(1, 30000)', `generate_series(1, ${portfolios})`)
    .replaceAll('generate_series(1, 10000)', `generate_series(1, ${events})`);
}

const LOAD_SQL = `
set statement_timeout = 0;
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
  raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
select '00000000-0000-0000-0000-000000000000',
       ('b0000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'authenticated', 'authenticated',
       'bench' || g || '@bench.teamwerk.test', '', now() - (g || ' minutes')::interval,
       '{"provider":"email","providers":["email"]}',
       jsonb_build_object('firstname', (array['Anna','Jonas','Lea','Paul','Mia','Felix','Emma','Noah','Sofia','Elias'])[1 + g % 10],
                          'lastname', (array['Müller','Schmidt','Schneider','Fischer','Weber','Meyer','Wagner','Becker','Schulz','Hoffmann','Krüger','Wolf'])[1 + (g / 10) % 12] || ' ' || g,
                          'preferred_language', case when g % 4 = 0 then 'en' else 'de' end),
       now() - (g || ' minutes')::interval, now(), '', '', '', ''
from generate_series(1, 50000) g;

update public.profiles p set
  user_role = (case when b.g % 10 < 3 then 'premium' when b.g % 10 < 5 then 'basic' else 'free' end)::public.user_role,
  profile_visibility = case when b.g % 7 = 0 then 0 else 1 end,
  city = (array['Berlin','Hamburg','München','Köln','Frankfurt am Main','Stuttgart','Düsseldorf','Leipzig','Dortmund','Essen','Bremen','Dresden','Hannover','Nürnberg','Münster'])[1 + b.g % 15],
  headline = (array['Softwareentwicklerin','UX-Designer','Gründerin','Produktmanager','Data Scientist','Marketing-Managerin'])[1 + b.g % 6] || ' aus der Region',
  created_at = now() - (b.g || ' minutes')::interval
from (select id, ('x' || right(id::text, 12))::bit(48)::bigint as g from auth.users where id::text like '${BENCH_ID_PREFIX}%') b
where p.id = b.id;

create temporary table bench_cities as
  select row_number() over (order by population desc, name) - 1 as n, name from public.cities order by population desc, name limit 200;

update public.profiles p set city = c.name
from (select id, ('x' || right(id::text, 12))::bit(48)::bigint as g from auth.users where id::text like '${BENCH_ID_PREFIX}%') b
join bench_cities c on c.n = b.g % 200
where p.id = b.id and b.g % 3 = 0;

create temporary table bench_owners as
  select row_number() over (order by id) as n, id from public.profiles where user_role = 'premium' and id::text like '${BENCH_ID_PREFIX}%';

insert into public.projects (owner_id, title, summary, description, category, is_private, private_category, city, roles_sought, stage, status, published_at, created_at)
select o.id,
       (array['App','Plattform','Netzwerk','Werkstatt','Initiative','Marktplatz','Labor','Café','Festival','Podcast'])[1 + g % 10]
         || ' für ' || (array['Nachbarschaftshilfe','nachhaltige Mode','Gründerinnen','Schulen','Senioren','Stadtbäume','Handwerk','Kunst','Gesundheit','Radverkehr','Ehrenamt','Musik'])[1 + (g / 10) % 12]
         || ' ' || g,
       'Wir suchen Mitstreiter für unser Projekt Nummer ' || g || '.',
       'Eine ausführliche Beschreibung mit Zielen, Zeitplan und Rollen. Projekt ' || g || ' sucht Unterstützung in Entwicklung, Design und Vertrieb.',
       case when g % 7 = 0 then null else (array['education','technology','business','art','community','environment','health','science','social','other'])[1 + g % 10]::public.project_category end,
       g % 7 = 0,
       case when g % 7 = 0 then (array['socializing','movement','creative','learning_exchange','cooking_eating','family_children','volunteer','testing_idea','finding_partners','gaining_visibility'])[1 + g % 10]::public.private_project_category end,
       case when g % 2 = 0 then (array['Berlin','Hamburg','München','Köln','Frankfurt am Main','Stuttgart','Düsseldorf','Leipzig','Dortmund','Essen','Bremen','Dresden','Hannover','Nürnberg','Münster'])[1 + g % 15]
            else (select c.name from bench_cities c where c.n = (g / 2) % 200) end,
       array['Entwicklung','Design'], 'idea',
       (case when g % 10 = 0 then 'draft' else 'published' end)::public.project_status,
       case when g % 10 = 0 then null else now() - (g || ' minutes')::interval end,
       now() - (g || ' minutes')::interval
from generate_series(1, 100000) g
join bench_owners o on o.n = 1 + g % (select count(*) from bench_owners);

insert into public.portfolios (owner_id, title, description_de, description_en, skills, category, city, status, published_at, created_at)
select o.id, 'Arbeitsproben ' || g, 'Ausgewählte Arbeiten aus Projekt ' || g, 'Selected work from project ' || g, array['Design','React'],
       (array['education','technology','business','art','community','environment','health','science','social','other'])[1 + g % 10]::public.project_category,
       (array['Berlin','Hamburg','München','Köln','Leipzig'])[1 + g % 5],
       (case when g % 9 = 0 then 'draft' else 'published' end)::public.content_status,
       case when g % 9 = 0 then null else now() - (g || ' minutes')::interval end, now() - (g || ' minutes')::interval
from generate_series(1, 30000) g
join bench_owners o on o.n = 1 + (g * 7) % (select count(*) from bench_owners);

insert into public.events (organizer_id, title, slug, summary, category, status, starts_at, ends_at, city, capacity, created_at)
select o.id, 'Meetup ' || g, 'bench-meetup-' || g, 'Treffen Nummer ' || g,
       (array['education','technology','business','art','community','environment','health','science','social','other'])[1 + g % 10]::public.project_category,
       (array['published','upcoming','upcoming','ongoing','finished','finished','cancelled','draft'])[1 + g % 8]::public.event_status,
       now() + ((g % 400) - 200 || ' days')::interval, now() + ((g % 400) - 200 || ' days')::interval + interval '2 hours',
       (array['Berlin','Hamburg','München','Köln','Leipzig','Dresden'])[1 + g % 6], 50, now() - (g || ' minutes')::interval
from generate_series(1, 10000) g
join bench_owners o on o.n = 1 + (g * 13) % (select count(*) from bench_owners);

analyze;
`;

/**
 * Starts the benchmark stack (TEAMWERK_STACK_OFFSET) with the large data set of `projects`
 * projects (default: benchProjects()): wipes its data folder first unless `reuse`, then loads it
 * unless it is already there.
 * @returns the stack's config (new secrets after a wipe), a connected postgres client (the caller
 *   ends it) and the seconds the load took (about 0 when it was there)
 * @throws when `reuse` finds a large data set of another size (run without --reuse to rebuild)
 */
export async function startWithLargeDataSet(reuse: boolean, projects = benchProjects()): Promise<{ config: StackConfig; admin: pg.Client; seconds: number }> {
  let config = stackConfig();
  if (!reuse && fs.existsSync(config.dataDir)) {
    await stopStack(config).catch(() => undefined);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
    config = stackConfig(); // new data folder, new secrets
  }
  console.log(`starting ${reuse ? 'the' : 'a fresh'} stack at offset ${config.offset} ...`);
  await startStack(config);
  const admin = new pg.Client({ connectionString: config.dbUrl });
  await admin.connect();
  const t0 = Date.now();
  const have = Number((await admin.query(`select count(*) as n from auth.users where id::text like '${BENCH_ID_PREFIX}%'`)).rows[0].n);
  const want = Math.max(10, Math.floor(projects / 2));
  if (have > 0 && have !== want) {
    await admin.end();
    throw new Error(`the stack holds the large data set for ${have * 2} projects, not ${projects}: run without --reuse to rebuild it`);
  }
  if (have === 0) {
    console.log(`loading the large data set (${projects} projects) ...`);
    await admin.query(loadSql(projects));
  }
  return { config, admin, seconds: (Date.now() - t0) / 1000 };
}
