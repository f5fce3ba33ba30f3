/**
 * Benchmark (not part of `npm test`): the matching RPCs of issue 19 through PostgREST with the
 * large data set (scripts/bench/large-data.ts: 50 000 profiles, 100 000 projects) plus a matching
 * profile for every bench profile and 1–2 open roles for every project (deterministic, no
 * random()). Calls, as signed-in users (JWT), match_people (Premium, Basic, free, and Premium with
 * filters), match_projects and project_role_candidates `RUNS` times after a warm-up, prints
 * p50/p95 in ms and the plans (EXPLAIN ANALYZE of the statements inside the RPC through
 * auto_explain, as the same role and claims, after PL/pgSQL switched to its cached plan).
 * Target (issue 19): match_people p95 <= 50 ms on 2 cores.
 *
 * Every latency is printed with its ratio to a trivial PostgREST request of the same run.
 *
 * Usage: `npx tsx scripts/bench/matching.ts [--keep] [--reuse] [--no-plans] [--projects N] [--smoke]`
 * Uses TEAMWERK_STACK_OFFSET (default 6100), RESETS that stack first (fresh data folder) unless
 * --reuse, and stops it at the end unless --keep. --smoke (npm test): the running stack as it
 * is, a data set of 200 projects, 3 runs per call, no plans.
 */
process.env.TEAMWERK_STACK_OFFSET ??= '6100';
const { stopStack } = await import('../local-stack/cli.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { default: pg } = await import('pg');
const { default: os } = await import('node:os');
const { startWithLargeDataSet } = await import('./large-data.ts');
const { percentile, SMOKE, measureBaseline, withRatio } = await import('./support.ts');
const { benchProjects } = await import('./large-data.ts');

const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 60);
const keep = SMOKE || process.argv.includes('--keep');
const reuse = SMOKE || process.argv.includes('--reuse');
const plans = !SMOKE && !process.argv.includes('--no-plans');

/** Matching profiles for every bench profile and open roles for every project (idempotent). */
const MATCH_SQL = `
set statement_timeout = 0;
insert into public.match_profiles (user_id, kind, kinds_sought, roles_offered, roles_sought, skills, skills_sought, industries,
  idea_stage, stages_sought, commitment, available_from, remote_ok, radius_km, languages, must_have)
select b.id,
  (enum_range(null::public.match_kind))[1 + b.g % 6],
  case when b.g % 3 = 0 then array[(enum_range(null::public.match_kind))[1 + (b.g / 7) % 6]] else '{}' end,
  array_remove(array[(enum_range(null::public.match_role))[1 + b.g % 10],
                     case when b.g % 2 = 0 then (enum_range(null::public.match_role))[1 + (b.g / 10) % 10] end], null),
  array_remove(array[(enum_range(null::public.match_role))[1 + (b.g / 3) % 10],
                     case when b.g % 4 = 0 then (enum_range(null::public.match_role))[1 + (b.g / 11) % 10] end], null),
  array(select s.key from public.skills s where s.id in (1 + b.g % 65, 1 + (b.g / 5) % 65, 1 + (b.g / 17) % 65, 1 + (b.g / 29) % 65)),
  array(select s.key from public.skills s where s.id in (1 + (b.g / 2) % 65, 1 + (b.g / 13) % 65)),
  array_remove(array[(enum_range(null::public.project_category))[1 + b.g % 10],
                     case when b.g % 3 = 0 then (enum_range(null::public.project_category))[1 + (b.g / 9) % 10] end], null),
  case when b.g % 2 = 0 then (enum_range(null::public.project_stage))[1 + b.g % 6] end,
  case when b.g % 5 = 0 then array[(enum_range(null::public.project_stage))[1 + (b.g / 5) % 6]] else '{}' end,
  (array['full_time', 'part_time', 'side_project', 'full_time', 'part_time'])[1 + b.g % 5]::public.match_commitment, null,
  b.g % 5 = 0, (array[25, 50, 100, 200])[1 + b.g % 4],
  case b.g % 4 when 1 then array['de', 'en'] when 2 then array['en'] else array['de'] end,
  case when b.g % 11 = 0 then array['languages'] when b.g % 13 = 0 then array['commitment'] else '{}' end
from (select id, ('x' || right(id::text, 12))::bit(48)::bigint as g from auth.users where email like 'bench%') b
on conflict do nothing;

insert into public.project_open_roles (project_id, role, skills, commitment)
select p.id, (enum_range(null::public.match_role))[1 + (p.id + k) % 10],
  array(select s.key from public.skills s where s.id in (1 + (p.id * 7 + k) % 65, 1 + (p.id / 3 + k) % 65)),
  (array['full_time', 'part_time', 'side_project'])[1 + (p.id + k) % 3]::public.match_commitment
from public.projects p cross join generate_series(0, 1) k
where (k = 0 or p.id % 2 = 0) and not exists (select 1 from public.project_open_roles r where r.project_id = p.id);
analyze public.match_profiles;
analyze public.project_open_roles;
`;

interface Call {
  name: string;
  rpc: string;
  body: Record<string, unknown>;
  as: { id: string; email: string; jwt: string };
  /** The same call in SQL, for the plan. */
  sql: string;
}

async function main(): Promise<void> {
  const started = await startWithLargeDataSet(reuse, SMOKE ? 200 : benchProjects());
  const config = started.config;
  const admin = started.admin;
  const planPool = new pg.Pool({ connectionString: config.dbUrl, max: 1 });
  try {
    const t0 = Date.now();
    await admin.query(MATCH_SQL);
    const counts = (await admin.query(`select (select count(*) from public.profiles) profiles, (select count(*) from public.projects) projects,
      (select count(*) from public.match_profiles) match_profiles, (select count(*) from public.project_open_roles) open_roles`)).rows[0];
    console.log(`large data set loaded in ${started.seconds.toFixed(1)} s, matching data in ${((Date.now() - t0) / 1000).toFixed(1)} s:`, counts);

    // callers: a bench profile per plan (premium/basic/free from the data set) with a fresh subscription for the paid ones
    const pickUser = async (role: string, offset: number) => (await admin.query<{ id: string; email: string }>(
      `select p.id, p.email from public.profiles p join public.match_profiles m on m.user_id = p.id and m.is_primary
       where p.email like 'bench%' and p.user_role = $1 and cardinality(m.roles_sought) > 0 order by p.id limit 1 offset $2`, [role, offset])).rows[0]!;
    const premium = await pickUser('premium', SMOKE ? 1 : 10);
    const basic = await pickUser('basic', SMOKE ? 1 : 10);
    const free = await pickUser('free', SMOKE ? 1 : 10);
    for (const [u, plan] of [[premium, 'premium'], [basic, 'basic']] as const) {
      await admin.query(
        `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id,
           stripe_subscription_id, last_synced_at)
         values ($1, $2, 'active', now() - interval '1 day', now() + interval '29 days', 'cus_bm_' || $3, 'sub_bm_' || $3, now())
         on conflict (stripe_subscription_id) do nothing`, [u.id, plan, String(u.id)]);
    }
    const owner = (await admin.query<{ id: string; email: string; project: number; role: number }>(
      `select p.id, p.email, pr.id as project, r.id as role from public.projects pr join public.profiles p on p.id = pr.owner_id
       join public.project_open_roles r on r.project_id = pr.id
       where pr.status = 'published' and p.email like 'bench%' order by pr.id limit 1 offset ${SMOKE ? 5 : 500}`)).rows[0]!;
    const jwt = async (u: { id: string; email: string }) => ({ ...u, jwt: await signJwt({ sub: u.id, role: 'authenticated', aud: 'authenticated', email: u.email }, config.jwtSecret, 3600) });
    const [P, B, F, O] = await Promise.all([jwt(premium), jwt(basic), jwt(free), jwt(owner)]);
    // Basic: make the week's quota free again before each run is not possible through the API; the seen people come back without counting
    await admin.query(`delete from public.match_impressions where user_id = $1`, [basic.id]);
    const candidates = (await admin.query(
      `select count(*) as n from public.match_profiles m, public.match_profiles me
       where me.user_id = $1 and me.is_primary and m.is_primary and m.active and m.roles_offered && me.roles_sought`, [premium.id])).rows[0].n;
    console.log(`premium caller ${premium.id}: ${candidates} profiles offer a role it seeks`);

    const calls: Call[] = [
      { name: 'match_people (Premium, page 1)', rpc: 'match_people', body: { p_limit: 20 }, as: P, sql: `select public.match_people(p_limit => 20)` },
      { name: 'match_people (Premium, filters)', rpc: 'match_people', body: { p_limit: 20, p_filters: { city: 'Berlin', radius_km: 100, min_score: 40 } }, as: P,
        sql: `select public.match_people(p_filters => '{"city":"Berlin","radius_km":100,"min_score":40}', p_limit => 20)` },
      { name: 'match_people (Basic, 10 per week)', rpc: 'match_people', body: { p_limit: 10 }, as: B, sql: `select public.match_people(p_limit => 10)` },
      { name: 'match_people (free, count only)', rpc: 'match_people', body: {}, as: F, sql: `select public.match_people()` },
      { name: 'match_projects (Premium)', rpc: 'match_projects', body: { p_limit: 20 }, as: P, sql: `select public.match_projects(p_limit => 20)` },
      { name: 'project_role_candidates (team gaps)', rpc: 'project_role_candidates', body: { p_project_id: owner.project }, as: O,
        sql: `select public.project_role_candidates(${owner.project})` },
      { name: 'project_role_candidates (one role)', rpc: 'project_role_candidates', body: { p_project_id: owner.project, p_role_id: owner.role, p_limit: 20 }, as: O,
        sql: `select public.project_role_candidates(${owner.project}, ${owner.role}, 20)` },
    ];
    const base = await measureBaseline(config.apiUrl, config.anonKey, Math.max(RUNS, 20));
    const rows: string[] = [`${'trivial request (cities, 1 row, anon)'.padEnd(40)} ${withRatio(base.p50, base.p95, base)}`];
    let worstPeople = 0;
    for (const c of calls) {
      const run = async () => {
        const t = performance.now();
        const res = await fetch(`${config.apiUrl}/rest/v1/rpc/${c.rpc}`, {
          method: 'POST',
          headers: { apikey: config.anonKey, Authorization: `Bearer ${c.as.jwt}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(c.body),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${c.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
        return { ms: performance.now() - t, text };
      };
      let sample = '';
      for (let i = 0; i < (SMOKE ? 1 : 5); i++) sample = (await run()).text;
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await run()).ms);
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      const p95 = percentile(times, 95);
      if (c.rpc === 'match_people') worstPeople = Math.max(worstPeople, p95);
      const body = JSON.parse(sample) as { count?: number; items?: unknown[]; roles?: { count: number }[] };
      const size = body.items ? `${body.items.length} items of ${body.count}` : body.roles ? `${body.roles.length} roles, ${body.roles.map((r) => r.count).join('/')} people` : '';
      rows.push(`${c.name.padEnd(40)} ${withRatio(p50, p95, base)}   (${size})`);
      if (plans) await explain(planPool, c);
    }
    console.log(`\n=== PostgREST latency through the gateway (${RUNS} runs each, sequential; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores) ===`);
    console.log(rows.join('\n'));
    console.log(`\nworst match_people p95: ${worstPeople.toFixed(1)} ms (target <= 50 ms) -> ${worstPeople <= 50 ? 'OK' : 'OVER TARGET'}`);
  } finally {
    await admin.end();
    await planPool.end();
    if (!keep) await stopStack(config);
  }
}

/**
 * Prints the plans of the statements an RPC runs (auto_explain of nested statements, ANALYZE,
 * as the caller's role and claims) after six warm-up calls, rolled back. Only statements that
 * read the matching tables are shown.
 */
async function explain(planPool: InstanceType<typeof pg.Pool>, c: Call): Promise<void> {
  const client = await planPool.connect();
  const notices: string[] = [];
  const onNotice = (n: { message?: string }) => { if (n.message) notices.push(n.message); };
  client.on('notice', onNotice);
  try {
    await client.query(`load 'auto_explain'`);
    await client.query('begin');
    const asCaller = () => client.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)`,
      [JSON.stringify({ sub: c.as.id, role: 'authenticated', email: c.as.email }), c.as.id]);
    await asCaller();
    for (let i = 0; i < 6; i++) await client.query(c.sql);
    await client.query(`select set_config('role', 'postgres', true)`);
    for (const setting of ['auto_explain.log_analyze = on', 'auto_explain.log_buffers = on', 'auto_explain.log_timing = on',
      'auto_explain.log_nested_statements = on', 'auto_explain.log_level = notice', 'auto_explain.log_min_duration = 0', 'client_min_messages = notice']) {
      await client.query(`set local ${setting}`);
    }
    await asCaller();
    notices.length = 0;
    await client.query(c.sql);
    const shown = notices.filter((n) => /limit (p_cap|2000|3000)/.test(n))
      .map((n) => {
        const lines = n.split('\n');
        const start = lines.findIndex((l) => l.includes('(actual'));
        return `${lines[0]}\n${lines.slice(start < 0 ? 1 : start).join('\n')}`;
      });
    console.log(`\n--- ${c.name} (statements inside the RPC that read the matching tables; timings include auto_explain's overhead)\n${shown.join('\n') || notices.slice(-2).join('\n')}`);
  } finally {
    client.off('notice', onNotice);
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

await main();
