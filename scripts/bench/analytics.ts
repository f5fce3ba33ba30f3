/**
 * Benchmark (not part of `npm test`): the analytics query of issue 15 with a year of data for
 * 1 000 items. A bench owner (Premium) gets 1 000 items (1 profile, 600 projects, 200 jobs,
 * 199 events) and 365 days of deterministic daily counts (views every day, external-link clicks
 * every 2nd day, Connect/Apply clicks every 3rd, contact requests every 7th: about 850 000 rows of
 * private.analytics_daily). Then, through PostgREST as the owner (JWT), `RUNS` times after a
 * warm-up: analytics_report for all 1 000 items (the /user/analytics overview; the same shape as
 * an organisation's page), analytics_report for one item, and analytics_csv for one item.
 * Prints p50 (median) and p95 in ms and the plan of the per-item read (an index-only scan of the
 * primary key, which includes the count).
 *
 * Every latency is printed with its ratio to a trivial PostgREST request of the same run. The
 * first overview call builds the owner's roll-up (issue 34); the warm-up absorbs it.
 *
 * Usage: `npx tsx scripts/bench/analytics.ts [--keep-data] [--stop] [--smoke]`
 * --smoke (npm test): 20 items with 30 days of counts, 3 runs per call.
 * Uses TEAMWERK_STACK_OFFSET (default 6150) and starts that stack when it is not running. The
 * bench owner and its data are deleted at the end unless --keep-data; with --stop the stack is
 * stopped afterwards.
 */
process.env.TEAMWERK_STACK_OFFSET ??= '6150';
const { startStack, stopStack } = await import('../local-stack/cli.ts');
const { stackConfig } = await import('../local-stack/config.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { default: pg } = await import('pg');
const { default: os } = await import('node:os');
const { percentile, SMOKE, measureBaseline, withRatio } = await import('./support.ts');

const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 40);
const keepData = process.argv.includes('--keep-data');
const stop = process.argv.includes('--stop');
const OWNER_ID = 'b5000000-0000-4000-8000-0000000000a1';
const OWNER_EMAIL = 'bench-analytics@bench.teamwerk.test';

/** The bench owner with its 1 000 items and a year of counts (idempotent; triggers off for the bulk load). */
const FULL_LOAD_SQL = `
set statement_timeout = 0;
set session_replication_role = replica;
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
  created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
values ('00000000-0000-0000-0000-000000000000', '${OWNER_ID}', 'authenticated', 'authenticated', '${OWNER_EMAIL}', '', now(),
  '{"provider":"email","providers":["email"]}', '{"firstname":"Bench","lastname":"Analytics"}', now(), now(), '', '', '', '')
on conflict (id) do nothing;
insert into public.profiles (id, email, firstname, lastname, slug, user_role)
values ('${OWNER_ID}', '${OWNER_EMAIL}', 'Bench', 'Analytics', 'bench-analytics', 'premium') on conflict (id) do nothing;
insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id, stripe_subscription_id, last_synced_at)
values ('${OWNER_ID}', 'premium', 'active', now() - interval '1 day', now() + interval '29 days', 'cus_bench_analytics', 'sub_bench_analytics', now())
on conflict (stripe_subscription_id) do nothing;
insert into public.projects (owner_id, title, slug, category, status, published_at)
select '${OWNER_ID}', 'Bench-Projekt ' || g, 'bench-projekt-' || g, 'other', 'published', now()
from generate_series(1, 600) g
where not exists (select 1 from public.projects where owner_id = '${OWNER_ID}');
insert into public.jobs (id, title, company, city, remote, employment_type, category, description, apply_url, posted_by)
select 'bench-analytics-job-' || g, 'Bench-Job ' || g, 'Bench GmbH', 'Berlin', false, (enum_range(null::public.employment_type))[1], 'other',
  'Beschreibung', 'https://example.com/apply', '${OWNER_ID}'
from generate_series(1, 200) g
on conflict (id) do nothing;
insert into public.events (organizer_id, title, slug, status, starts_at, ends_at, city)
select '${OWNER_ID}', 'Bench-Treffen ' || g, 'bench-analytics-treffen-' || g, 'published', now() + interval '30 days', now() + interval '30 days 2 hours', 'Köln'
from generate_series(1, 199) g
where not exists (select 1 from public.events where organizer_id = '${OWNER_ID}');
set session_replication_role = origin;

insert into private.analytics_daily (item_type, item_id, day, metric, count)
select i.item_type, i.item_id, private.analytics_today() - d, m.metric, 1 + (i.n * 7 + d * 13) % m.spread
from (select o.item_type, o.item_id, row_number() over (order by o.item_type, o.item_id) as n from private.analytics_items_of('${OWNER_ID}') o) i
cross join generate_series(0, 364) d
cross join (values ('view', 1, 40), ('external_link_click', 2, 6), ('connect_click', 3, 4), ('apply_click', 3, 4), ('contact_request_received', 7, 2)) m(metric, every, spread)
where (d + i.n) % m.every = 0
on conflict do nothing;
`;

/** The load for the run: smoke mode has 20 items (10 projects, 5 jobs, 4 events) and 30 days. */
const LOAD_SQL = SMOKE
  ? FULL_LOAD_SQL.replace('generate_series(1, 600)', 'generate_series(1, 10)').replace('generate_series(1, 200)', 'generate_series(1, 5)')
      .replace('generate_series(1, 199)', 'generate_series(1, 4)').replace('generate_series(0, 364)', 'generate_series(0, 29)')
  : FULL_LOAD_SQL;

/** Deletes the bench owner, its items and (through the triggers) their counts. */
const CLEAN_SQL = `
set statement_timeout = 0;
delete from public.jobs where posted_by = '${OWNER_ID}';
delete from auth.users where id = '${OWNER_ID}';
`;

interface Call {
  name: string;
  rpc: string;
  body: Record<string, unknown>;
}

async function main(): Promise<void> {
  const config = stackConfig();
  console.log(`stack at offset ${config.offset} ...`);
  await startStack(config);
  const admin = new pg.Client({ connectionString: config.dbUrl });
  await admin.connect();
  try {
    const t0 = Date.now();
    await admin.query(LOAD_SQL);
    // past days' rows are all-visible after a vacuum, as autovacuum keeps them: index-only reads
    await admin.query('vacuum analyze private.analytics_daily');
    const counts = (await admin.query(`select (select count(*) from private.analytics_items_of('${OWNER_ID}')) as items,
      (select count(*) from private.analytics_daily) as daily_rows,
      (select count(distinct day) from private.analytics_daily where item_type = 'project') as days,
      pg_size_pretty(pg_total_relation_size('private.analytics_daily')) as size`)).rows[0];
    console.log(`loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s:`, counts);
    const project = (await admin.query<{ id: string }>(`select id::text from public.projects where owner_id = $1 order by id limit 1 offset ${SMOKE ? 3 : 300}`, [OWNER_ID])).rows[0]!.id;
    const jwt = await signJwt({ sub: OWNER_ID, role: 'authenticated', aud: 'authenticated', email: OWNER_EMAIL }, config.jwtSecret, 3600);

    const calls: Call[] = [
      { name: `analytics_report (all ${SMOKE ? 20 : '1 000'} items)`, rpc: 'analytics_report', body: {} },
      { name: 'analytics_report (one project)', rpc: 'analytics_report', body: { p_item_type: 'project', p_item_id: project } },
      { name: 'analytics_csv (one project)', rpc: 'analytics_csv', body: { p_item_type: 'project', p_item_id: project } },
    ];
    const base = await measureBaseline(config.apiUrl, config.anonKey, Math.max(RUNS, 20));
    const rows: string[] = [`${'trivial request (cities, 1 row, anon)'.padEnd(38)} ${withRatio(base.p50, base.p95, base)}`];
    for (const c of calls) {
      const run = async () => {
        const t = performance.now();
        const res = await fetch(`${config.apiUrl}/rest/v1/rpc/${c.rpc}`, {
          method: 'POST',
          headers: { apikey: config.anonKey, Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(c.body),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${c.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
        return { ms: performance.now() - t, text };
      };
      let sample = '';
      for (let i = 0; i < 3; i++) sample = (await run()).text;
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await run()).ms);
      times.sort((a, b) => a - b);
      const body = JSON.parse(sample) as { items?: unknown[]; series?: unknown[] } | string;
      const size = typeof body === 'string' ? `${body.split('\r\n').length - 2} CSV lines` : `${body.items?.length} items, ${body.series?.length} days, ${(sample.length / 1024).toFixed(0)} KiB`;
      rows.push(`${c.name.padEnd(38)} ${withRatio(percentile(times, 50), percentile(times, 95), base)}   (${size})`);
    }
    const plan = await admin.query(
      `explain (analyze, buffers, costs off) select * from private.analytics_daily a
       where a.item_type = 'project' and a.item_id = $1 and a.day between private.analytics_today() - 179 and private.analytics_today()`, [project]);
    console.log(`\n--- plan of the per-item range read\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    console.log(`\n=== PostgREST latency through the gateway (${RUNS} runs each, sequential; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores) ===`);
    console.log(rows.join('\n'));
  } finally {
    if (!keepData) await admin.query(CLEAN_SQL);
    await admin.end();
    if (stop) await stopStack(config);
  }
}

await main();
