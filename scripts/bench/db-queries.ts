/**
 * Benchmark (not part of `npm test`): the product's list and filter queries on a large data set,
 * through PostgREST (the gateway at config.apiUrl, anon key or a user JWT), with their plans.
 *
 * Loads (generate_series, as postgres) 50k profiles (auth.users + the signup trigger), 100k
 * projects, 30k portfolios and 10k events on top of the demo seed, then runs every query
 * `RUNS` times after a warm-up and prints p50/p95 in ms, plus `EXPLAIN (ANALYZE)` of the same
 * query run as the same role with the same claims (so RLS is part of the plan).
 * Target (issue 4): p95 <= 20 ms on 2 cores.
 *
 * Every figure is printed beside a trivial PostgREST request of the same run (ratio p50 / p95).
 *
 * Usage: `npx tsx scripts/bench/db-queries.ts [--keep] [--reuse] [--no-plans] [--only <text>] [--projects N] [--smoke]`
 * Uses TEAMWERK_STACK_OFFSET (default 6100), RESETS that stack first (fresh data folder), and
 * stops it at the end unless --keep is given. --reuse skips reset and load when that stack
 * already runs with the data set (from an earlier --keep run). --projects sets the size of the
 * data set (default 100,000). --smoke (npm test): the running stack as it is, a data set of 200
 * projects, 3 runs per query, plans included, the stack left running.
 */
process.env.TEAMWERK_STACK_OFFSET ??= '6100';
const { stackConfig } = await import('../local-stack/config.ts');
const { stopStack } = await import('../local-stack/cli.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { default: pg } = await import('pg');
const { default: os } = await import('node:os');
const { startWithLargeDataSet, benchProjects } = await import('./large-data.ts');
const { SMOKE, measureBaseline, rpcGetQuery, withRatio } = await import('./support.ts');

let config = stackConfig();
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 60);
const keep = SMOKE || process.argv.includes('--keep');
const reuse = SMOKE || process.argv.includes('--reuse');
const plans = !process.argv.includes('--no-plans');
/** `--only <text>`: only the queries whose name contains it (e.g. `--only search`). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] ?? '' : '';
/** One connection for the EXPLAIN runs, ended before the stack stops. */
const planPool = new pg.Pool({ connectionString: config.dbUrl, max: 1 });

interface BenchQuery {
  name: string;
  /** Path under /rest/v1. */
  path: string;
  /** GET (the default) sends `body` as the query string, as supabase-js `rpc(…, { get: true })` does. */
  method?: 'GET' | 'POST';
  body?: unknown;
  as: 'anon' | 'user';
  /** The same query in SQL, for EXPLAIN (run as the same role and claims). */
  sql: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Prints the plans of the statements search() runs for one benchmark query (EXPLAIN ANALYZE
 * of the nested statements through auto_explain, as the same role and claims), after six
 * warm-up calls so the plan is the one PostgREST's long-lived connections reuse (PL/pgSQL
 * switches to a cached generic plan after five calls when it is not costlier). Only
 * statements that read the search tables are shown; their query text is left out.
 */
async function explainSearch(q: BenchQuery, user: { id: string; email: string }): Promise<void> {
  const body = (q.body ?? {}) as { q?: string; types?: string[]; city?: string; page?: number; page_size?: number };
  const client = await planPool.connect();
  const notices: string[] = [];
  const onNotice = (n: { message?: string }) => { if (n.message) notices.push(n.message); };
  client.on('notice', onNotice);
  try {
    await client.query(`load 'auto_explain'`);
    await client.query('begin');
    const role = q.as === 'user' ? 'authenticated' : 'anon';
    const claims = q.as === 'user' ? { sub: user.id, role, email: user.email } : { role };
    const asCaller = () => client.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.jwt.claim.sub', $3, true)`,
      [role, JSON.stringify(claims), q.as === 'user' ? user.id : '']);
    const call = `select public.search(q => $1, types => $2::text[], city => $3, page_size => coalesce($4, 20), page => coalesce($5, 1)) is not null`;
    const args = [body.q ?? '', body.types ?? null, body.city ?? null, body.page_size ?? null, body.page ?? null];
    await asCaller();
    for (let i = 0; i < 6; i++) await client.query(call, args);
    await client.query(`select set_config('role', 'postgres', true)`);
    for (const setting of ['auto_explain.log_analyze = on', 'auto_explain.log_buffers = on', 'auto_explain.log_timing = off',
      'auto_explain.log_nested_statements = on', 'auto_explain.log_level = notice', 'auto_explain.log_min_duration = 0', 'client_min_messages = notice']) {
      await client.query(`set local ${setting}`);
    }
    await asCaller();
    notices.length = 0;
    await client.query(call, args);
    await client.query('rollback');
    const shown = notices.filter((n) => /search_items|search_words/.test(n)).map((n) => {
      const lines = n.split('\n');
      const start = lines.findIndex((l) => /^\S.*\(actual /.test(l));
      return `${lines[0]}\n${lines.slice(start < 0 ? 1 : start).join('\n')}`;
    });
    // auto_explain also instruments and logs every nested statement, e.g. one per row for a SQL
    // function called per row (private.unaccent in the title-similarity recheck): such durations
    // are far above the uninstrumented latency measured above.
    console.log(`\n--- ${q.name} (statements inside search() that read the search tables; durations include auto_explain's overhead)\n${shown.join('\n')}`);
  } finally {
    client.off('notice', onNotice);
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

async function main(): Promise<void> {
  const started = await startWithLargeDataSet(reuse, SMOKE ? 200 : benchProjects());
  config = started.config;
  const admin = started.admin;
  try {
    const counts = (await admin.query(`select (select count(*) from public.profiles) profiles, (select count(*) from public.projects) projects,
      (select count(*) from public.portfolios) portfolios, (select count(*) from public.events) events`)).rows[0];
    console.log(`loaded in ${started.seconds.toFixed(1)} s:`, counts);

    const bench = `id::text like 'b0000000-0000-4000-8000-%'`;
    const user = (await admin.query(`select id, email from public.profiles where user_role = 'premium' and ${bench} order by id limit 1`)).rows[0] as { id: string; email: string };
    const userJwt = await signJwt({ sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email }, config.jwtSecret, 3600);
    const now = new Date().toISOString();
    const slug = (await admin.query(`select slug from public.profiles where ${bench} and profile_visibility = 1 order by id limit 1 offset ${SMOKE ? 7 : 777}`)).rows[0].slug as string;
    const projectId = (await admin.query(`select id from public.projects where status = 'published' order by id limit 1 offset ${SMOKE ? 50 : 5000}`)).rows[0].id as number;

    const cols = 'id,title,slug,summary,category,private_category,city,published_at,owner_id';
    const queries: BenchQuery[] = [
      { name: 'projects: newest published', as: 'anon', path: `/projects?select=${cols}&status=eq.published&order=published_at.desc&limit=20`,
        sql: `select ${cols} from public.projects where status = 'published' order by published_at desc limit 20` },
      { name: 'projects: by category', as: 'anon', path: `/projects?select=${cols}&status=eq.published&category=eq.technology&order=published_at.desc&limit=20`,
        sql: `select ${cols} from public.projects where status = 'published' and category = 'technology' order by published_at desc limit 20` },
      { name: 'projects: by private category', as: 'anon', path: `/projects?select=${cols}&status=eq.published&private_category=eq.volunteer&order=published_at.desc&limit=20`,
        sql: `select ${cols} from public.projects where status = 'published' and private_category = 'volunteer' order by published_at desc limit 20` },
      { name: 'projects: by city', as: 'anon', path: `/projects?select=${cols}&status=eq.published&city=eq.Leipzig&order=published_at.desc&limit=20`,
        sql: `select ${cols} from public.projects where status = 'published' and city = 'Leipzig' order by published_at desc limit 20` },
      { name: 'projects: page 50 (offset 1000)', as: 'anon', path: `/projects?select=${cols}&status=eq.published&order=published_at.desc&limit=20&offset=1000`,
        sql: `select ${cols} from public.projects where status = 'published' order by published_at desc limit 20 offset 1000` },
      { name: 'projects: detail by id', as: 'anon', path: `/projects?select=${cols},description,roles_sought,stage,images,status,owner:profiles!projects_owner_id_fkey(slug,firstname,lastname,profile_img)&id=eq.${projectId}`,
        sql: `select ${cols.split(',').map((c) => `p.${c}`).join(',')}, p.description, p.roles_sought, p.stage, p.images, p.status, (select row(o.slug, o.firstname, o.lastname) from public.profiles o where o.id = p.owner_id) from public.projects p where id = ${projectId}` },
      { name: 'projects: my projects (user)', as: 'user', path: `/projects?select=${cols},status&owner_id=eq.${user.id}&order=created_at.desc`,
        sql: `select ${cols}, status from public.projects where owner_id = '${user.id}' order by created_at desc` },
      { name: 'projects: newest published (user, RLS with blocks)', as: 'user', path: `/projects?select=${cols}&status=eq.published&order=published_at.desc&limit=20`,
        sql: `select ${cols} from public.projects where status = 'published' order by published_at desc limit 20` },
      { name: 'portfolios: newest published', as: 'anon', path: `/portfolios?select=id,title,slug,category,city,published_at,owner_id&status=eq.published&order=published_at.desc&limit=20`,
        sql: `select id,title,slug,category,city,published_at,owner_id from public.portfolios where status = 'published' order by published_at desc limit 20` },
      { name: 'portfolios: by category', as: 'anon', path: `/portfolios?select=id,title,slug,category,city,published_at&status=eq.published&category=eq.art&order=published_at.desc&limit=20`,
        sql: `select id,title,slug,category,city,published_at from public.portfolios where status = 'published' and category = 'art' order by published_at desc limit 20` },
      { name: 'events: upcoming', as: 'anon', path: `/events?select=id,title,slug,starts_at,city,is_paid,going_count,capacity&status=in.(published,upcoming,ongoing)&starts_at=gte.${now}&order=starts_at.asc&limit=20`,
        sql: `select id,title,slug,starts_at,city,is_paid,going_count,capacity from public.events where status in ('published','upcoming','ongoing') and starts_at >= '${now}' order by starts_at limit 20` },
      { name: 'events: upcoming in a city', as: 'anon', path: `/events?select=id,title,slug,starts_at,city&status=in.(published,upcoming,ongoing)&city=eq.Köln&starts_at=gte.${now}&order=starts_at.asc&limit=20`,
        sql: `select id,title,slug,starts_at,city from public.events where status in ('published','upcoming','ongoing') and city = 'Köln' and starts_at >= '${now}' order by starts_at limit 20` },
      { name: 'events: by category', as: 'anon', path: `/events?select=id,title,slug,starts_at&status=in.(published,upcoming,ongoing)&category=eq.science&starts_at=gte.${now}&order=starts_at.asc&limit=20`,
        sql: `select id,title,slug,starts_at from public.events where status in ('published','upcoming','ongoing') and category = 'science' and starts_at >= '${now}' order by starts_at limit 20` },
      { name: 'jobs: remote', as: 'anon', path: `/jobs?select=id,title,company,city,employment_type,posted_at&remote=is.true&order=posted_at.desc&limit=20`,
        sql: `select id,title,company,city,employment_type,posted_at from public.jobs where remote is true order by posted_at desc limit 20` },
      { name: 'jobs: by city', as: 'anon', path: `/jobs?select=id,title,company,city,posted_at&city=eq.Berlin&order=posted_at.desc&limit=20`,
        sql: `select id,title,company,city,posted_at from public.jobs where city = 'Berlin' order by posted_at desc limit 20` },
      { name: 'visible users: newest', as: 'anon', path: `/visible_profiles?select=id,slug,display_name,headline,city&order=created_at.desc&limit=20`,
        sql: `select id,slug,display_name,headline,city from public.visible_profiles order by created_at desc limit 20` },
      { name: 'visible users: by city', as: 'user', path: `/visible_profiles?select=id,slug,display_name,city&city=eq.Leipzig&order=created_at.desc&limit=20`,
        sql: `select id,slug,display_name,city from public.visible_profiles where city = 'Leipzig' order by created_at desc limit 20` },
      { name: 'profile by slug', as: 'anon', path: `/public_profiles?select=id,slug,firstname,lastname,headline,bio,city,display_name,display_address&slug=eq.${encodeURIComponent(slug)}`,
        sql: `select id,slug,firstname,lastname,headline,bio,city,display_name,display_address from public.public_profiles where slug = '${slug}'` },
      { name: 'favourites (user)', as: 'user', path: `/favourite_projects?select=project_id,created_at,projects(id,title,slug)&user_id=eq.${user.id}&order=created_at.desc`,
        sql: `select f.project_id, f.created_at from public.favourite_projects f where user_id = '${user.id}' order by created_at desc` },
      { name: 'rpc visible_profiles_count', as: 'anon', path: `/rpc/visible_profiles_count`, method: 'POST', body: {},
        // the RPC itself (anon may not read those profile columns directly since the column grants)
        sql: `select public.visible_profiles_count()` },
      // search() is issue 8's benchmark (target 30 ms); shown here for information, with the plans of the statements inside it.
      { name: 'rpc search: broad word "Projekt" (all projects)', as: 'anon', path: `/rpc/search`, body: { q: 'Projekt', page_size: 20 }, sql: '' },
      { name: 'rpc search: broad word, page 3', as: 'anon', path: `/rpc/search`, body: { q: 'Projekt', page: 3, page_size: 20 }, sql: '' },
      { name: 'rpc search: browse, projects in Berlin', as: 'anon', path: `/rpc/search`, body: { q: '', types: ['project'], city: 'Berlin' }, sql: '' },
      { name: 'rpc search: typo, three words (corrected, last resort)', as: 'anon', path: `/rpc/search`, body: { q: 'Podcst Musik Senioren', page_size: 20 }, sql: '' },
      { name: 'rpc search: broad word (6k hits)', as: 'anon', path: `/rpc/search`, body: { q: 'Nachbarschaftshilfe', page_size: 20 }, sql: '' },
      { name: 'rpc search: two words (AND)', as: 'anon', path: `/rpc/search`, body: { q: 'Radverkehr Leipzig', page_size: 20 }, sql: '' },
      { name: 'rpc search: typo (trigram fallback)', as: 'anon', path: `/rpc/search`, body: { q: 'Nachbarschafshilfe', page_size: 20 }, sql: '' },
      { name: 'rpc search: typo, two words (corrected)', as: 'anon', path: `/rpc/search`, body: { q: 'Radverkehr Leipzg', page_size: 20 }, sql: '' },
      { name: 'rpc search: typo (Gesundhet, 6k hits)', as: 'anon', path: `/rpc/search`, body: { q: 'Gesundhet', page_size: 20 }, sql: '' },
      { name: 'rpc search: title-similarity last resort', as: 'anon', path: `/rpc/search`, body: { q: 'Podcast Musik Senioren', page_size: 20 }, sql: '' },
      { name: 'rpc search: browse, no words', as: 'anon', path: `/rpc/search`, body: { q: '' }, sql: '' },
      { name: 'rpc search: filtered (events in Köln)', as: 'user', path: `/rpc/search`, body: { q: 'Meetup', types: ['event'], city: 'Köln' }, sql: '' },
    ];

    const headers = (as: 'anon' | 'user') => ({
      apikey: config.anonKey,
      Authorization: `Bearer ${as === 'user' ? userJwt : config.anonKey}`,
      'Content-Type': 'application/json',
    });
    const base = await measureBaseline(config.apiUrl, config.anonKey, Math.max(RUNS, 20));
    const rows: string[] = [`${'trivial request (cities, 1 row, anon)'.padEnd(56)} ${withRatio(base.p50, base.p95, base)}`];
    let worst = 0;
    for (const q of queries.filter((x) => x.name.includes(only))) {
      const url = `${config.apiUrl}/rest/v1${q.path}`;
      // a refused call (e.g. the anon statement timeout of 3 s) counts with its time and as an
      // error; in smoke mode it ends the benchmark
      let errors = 0;
      const run = async () => {
        const t = performance.now();
        // a GET call with arguments sends them in the query string, as the SPA does (read replicas serve GET only)
        const get = (q.method ?? 'GET') === 'GET';
        const target = get && q.body ? `${url}?${rpcGetQuery(q.body as Record<string, unknown>)}` : url;
        const res = await fetch(target, { method: q.method ?? 'GET', headers: headers(q.as), body: q.body && !get ? JSON.stringify(q.body) : undefined });
        const text = await res.text();
        if (!res.ok) {
          if (SMOKE) throw new Error(`${q.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
          errors++;
          if (errors === 1) console.log(`${q.name}: HTTP ${res.status} ${text.slice(0, 200)}`);
        }
        return performance.now() - t;
      };
      for (let i = 0; i < (SMOKE ? 1 : 5); i++) await run();
      errors = 0;
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await run());
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      if (!q.name.startsWith('rpc search')) worst = Math.max(worst, p95);
      rows.push(`${q.name.padEnd(56)} ${withRatio(p50, p95, base)}${errors ? `   ${errors} of ${RUNS} failed` : ''}`);
      if (plans && !q.sql && q.path === '/rpc/search') await explainSearch(q, user);
      if (plans && q.sql) {
        const client = await planPool.connect();
        try {
          await client.query('begin');
          const role = q.as === 'user' ? 'authenticated' : 'anon';
          const claims = q.as === 'user' ? { sub: user.id, role, email: user.email } : { role };
          await client.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.jwt.claim.sub', $3, true)`,
            [role, JSON.stringify(claims), q.as === 'user' ? user.id : '']);
          const plan = await client.query(`explain (analyze, costs off, timing off, summary off) ${q.sql}`);
          console.log(`\n--- ${q.name}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
          await client.query('rollback');
        } finally {
          client.release();
        }
      }
    }
    console.log(`\n=== PostgREST latency through the gateway (${RUNS} runs each, sequential; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores) ===`);
    console.log(rows.join('\n'));
    console.log(`\nworst p95 of the list/filter queries: ${worst.toFixed(1)} ms (target <= 20 ms) -> ${worst <= 20 ? 'OK' : 'OVER TARGET'}`);
  } finally {
    await admin.end();
    await planPool.end();
    if (!keep) await stopStack(config);
  }
}

await main();
