/**
 * Benchmark: the organisations' HTTP API of issue 15 through the whole
 * path a client takes (gateway -> functions runner -> Edge Function `api` -> key check with rate
 * limit -> PostgREST -> Postgres), on the large data set (scripts/bench/large-data.ts: 50 000
 * profiles, 100 000 projects) plus one Enterprise organisation with `ORG_ITEMS` projects and jobs
 * of its own. Calls list endpoints with an API key `RUNS` times each after a warm-up (sequential,
 * one client) and prints p50/p95 in ms; the key's rate limit is raised for the run (the limit
 * itself is tested in supabase/tests/public-api.test.ts).
 *
 * Every figure is printed beside a trivial PostgREST request of the same run (ratio p50 / p95).
 *
 * Usage: `npx tsx scripts/bench/api.ts [--keep] [--reuse] [--seed-only] [--runs N] [--projects N] [--smoke]`
 * Uses TEAMWERK_STACK_OFFSET (default 6100), RESETS that stack first (fresh data folder) unless
 * --reuse, and stops it at the end unless --keep. --seed-only skips the large data set (the demo
 * seed only; loading 50 000 profiles takes long on a busy machine): the organisation's lists read
 * by index either way. The organisation and its rows are removed at the end. --projects sets the
 * size of the large data set (default 100,000). --smoke (npm test): the running stack with a data
 * set of 200 projects, an organisation of 60 items, 3 runs per call, the stack left running.
 */
process.env.TEAMWERK_STACK_OFFSET ??= '6100';
const { stopStack } = await import('../local-stack/cli.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { default: os } = await import('node:os');
const { startWithLargeDataSet } = await import('./large-data.ts');
const { startStack } = await import('../local-stack/cli.ts');
const { stackConfig } = await import('../local-stack/config.ts');
const { default: pg } = await import('pg');
const { numberArg, percentile, SMOKE, measureBaseline, withRatio } = await import('./support.ts');
const { benchProjects } = await import('./large-data.ts');

const RUNS = SMOKE ? 3 : numberArg('runs', Number(process.env.BENCH_RUNS ?? 200));
const ORG_ITEMS = SMOKE ? 60 : 2000;
/** The page of the cursor calls in the middle of the lists. */
const MIDDLE_PAGE = SMOKE ? 2 : 50;
const keep = SMOKE || process.argv.includes('--keep');
const reuse = SMOKE || process.argv.includes('--reuse');
const seedOnly = process.argv.includes('--seed-only');

/** The stack with the demo seed only (no wipe), for --seed-only. */
async function startSeedOnly() {
  const config = stackConfig();
  console.log(`starting the stack at offset ${config.offset} (demo seed only) ...`);
  await startStack(config);
  const admin = new pg.Client({ connectionString: config.dbUrl });
  await admin.connect();
  return { config, admin, seconds: 0 };
}

async function main(): Promise<void> {
  const started = seedOnly ? await startSeedOnly() : await startWithLargeDataSet(reuse, SMOKE ? 200 : benchProjects());
  const config = started.config;
  const db = started.admin;
  const slug = `bench-api-${Date.now().toString(36)}`;
  let orgId: string | null = null;
  try {
    const counts = (await db.query(`select (select count(*) from public.profiles) profiles, (select count(*) from public.projects) projects, (select count(*) from public.jobs) jobs`)).rows[0];
    console.log(`data set ready in ${started.seconds.toFixed(1)} s:`, counts);
    // an Enterprise owner (a bench profile with a fresh subscription) creates the organisation through the RPC
    const owner = (await db.query<{ id: string; email: string }>(
      seedOnly
        ? `select id, email from public.profiles where user_role in ('free', 'basic') and email is not null order by id limit 1 offset 7`
        : `select id, email from public.profiles where id::text like 'b0000000-0000-4000-8000-%' order by id limit 1 offset ${SMOKE ? 7 : 777}`)).rows[0]!;
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id, stripe_subscription_id, last_synced_at)
       values ($1, 'enterprise', 'active', now() - interval '1 day', now() + interval '29 days', 'cus_bapi_' || $2, 'sub_bapi_' || $2, now())
       on conflict do nothing`, // a run before on this stack left the owner's subscription (still live)
      [owner.id, slug]);
    await db.query(`update public.profiles set user_role = 'enterprise' where id = $1`, [owner.id]);
    const jwt = await signJwt({ sub: owner.id, role: 'authenticated', aud: 'authenticated', email: owner.email }, config.jwtSecret, 3600);
    const rpc = async (name: string, body: Record<string, unknown>) => {
      const res = await fetch(`${config.apiUrl}/rest/v1/rpc/${name}`, {
        method: 'POST',
        headers: { apikey: config.anonKey, Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${name}: HTTP ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };
    orgId = (await rpc('create_organization', { p_name: `Bench API ${slug}`, p_slug: slug })) as string;
    const t0 = Date.now();
    await db.query(`set statement_timeout = 0`);
    await db.query(
      `insert into public.projects (owner_id, title, summary, description, category, city, status, organization_id)
       select $1, 'Bench API Projekt ' || g, 'Kurzbeschreibung ' || g, 'Beschreibung ' || g, 'technology', 'Berlin', 'published', $2
       from generate_series(1, ${ORG_ITEMS}) g`, [owner.id, orgId]);
    await db.query(
      `insert into public.jobs (id, title, company, remote, employment_type, description, apply_url, posted_by, organization_id, created_at)
       select $3 || '-' || g, 'Bench API Job ' || g, 'Bench GmbH', true, 'full_time', 'Beschreibung', 'https://jobs.example.com/' || g, $1, $2,
              now() - (g || ' seconds')::interval
       from generate_series(1, ${ORG_ITEMS}) g`, [owner.id, orgId, slug]);
    await db.query(`analyze public.projects; analyze public.jobs; analyze public.api_keys`);
    const key = (await rpc('create_api_key', { p_organization_id: orgId, p_name: 'bench', p_scopes: ['projects:read', 'jobs:read', 'events:read', 'search:read'] })) as { id: string; key: string };
    await db.query(`update public.api_keys set rate_limit_per_minute = 100000 where id = $1`, [key.id]);
    console.log(`organisation ${slug}: ${ORG_ITEMS} projects and ${ORG_ITEMS} jobs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const api = `${config.apiUrl}/functions/v1/api/v1`;
    const get = async (path: string) => {
      const t = performance.now();
      const res = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${key.key}` } });
      const body = (await res.json()) as { data?: unknown[]; next_cursor?: string | null; error?: unknown };
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, body };
    };
    // a cursor in the middle of each list (page MIDDLE_PAGE of 20)
    const middle = async (path: string) => {
      let cursor: string | null | undefined = null;
      for (let i = 0; i < MIDDLE_PAGE; i++) cursor = (await get(`${path}?limit=20${cursor ? `&cursor=${cursor}` : ''}`)).body.next_cursor;
      return cursor!;
    };
    const calls = [
      { name: 'GET /v1/projects?limit=20 (first page)', path: '/projects?limit=20' },
      { name: `GET /v1/projects?limit=20 (page ${MIDDLE_PAGE + 1}, cursor)`, path: `/projects?limit=20&cursor=${await middle('/projects')}` },
      { name: 'GET /v1/projects?limit=100', path: '/projects?limit=100' },
      { name: 'GET /v1/jobs?limit=20 (first page)', path: '/jobs?limit=20' },
      { name: `GET /v1/jobs?limit=20 (page ${MIDDLE_PAGE + 1}, cursor)`, path: `/jobs?limit=20&cursor=${await middle('/jobs')}` },
      { name: 'GET /v1/search?q=projekt&limit=20', path: '/search?q=projekt&limit=20' },
    ];
    const base = await measureBaseline(config.apiUrl, config.anonKey, Math.max(RUNS, 20));
    const rows: string[] = [`${'trivial PostgREST request (cities, 1 row)'.padEnd(44)} ${withRatio(base.p50, base.p95, base)}`];
    let listP95 = 0;
    for (const c of calls) {
      for (let i = 0; i < (SMOKE ? 1 : 10); i++) await get(c.path);
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await get(c.path);
        times.push(r.ms);
        size = r.body.data?.length ?? 0;
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      if (c.name.startsWith('GET /v1/projects?limit=20 (first')) listP95 = p95;
      rows.push(`${c.name.padEnd(44)} ${withRatio(p50, p95, base)}   (${size} items)`);
    }
    console.log(`\n=== API latency through the gateway and the Edge Function (${RUNS} runs each, sequential; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores) ===`);
    console.log(rows.join('\n'));
    console.log(`\nAPI list call p95 (GET /v1/projects?limit=20): ${listP95.toFixed(1)} ms`);
  } finally {
    if (orgId) {
      await db.query(`delete from public.jobs where organization_id = $1`, [orgId]);
      await db.query(`delete from public.projects where organization_id = $1`, [orgId]);
      await db.query(`delete from public.organizations where id = $1`, [orgId]);
    }
    await db.end();
    if (!keep) await stopStack(config);
  }
}

await main();
