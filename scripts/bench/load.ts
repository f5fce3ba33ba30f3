/**
 * Load test (issue 17; not part of `npm test`): a realistic mix of visitors and signed-in members
 * against the local stack, with autocannon, for `--seconds` (default 60).
 *
 * Traffic (each connection is one person sending `--pace` requests per second, default 1, i.e. a
 * page every few seconds with its API calls; the people start spread over the first second so
 * requests arrive steadily, not in one burst per second):
 * - `--visitors` (default 200) anonymous visitors: search (rpc/search as /search sends it),
 *   a project page, a public profile, the events list, the jobs list, the map (rpc/map_items);
 * - `--members` (default 50) signed-in Premium members: their area (my_profile, my_inbox,
 *   unread_message_total, my_contacts), favouriting a project and removing it again, contact
 *   requests to people they have not asked yet (rpc/send_contact_request, 3/s in all, each from
 *   the next member: the product allows 25 a day each), chat messages to their contact
 *   (POST /rest/v1/messages), and password logins (POST /auth/v1/token, 5/s in all).
 * Everything goes through the gateway (port 54321 + offset) with the SPA's URLs, headers and bodies.
 *
 * Prints per kind: requests, requests/s, p50/p95/p99/max (ms), errors (status ≥ 400, socket
 * errors and timeouts, with the first status and body seen); the totals; the target verdict
 * (0 errors, p95 ≤ 150 ms for reads); and where the CPU went during the run per piece of the
 * stack (Postgres, PostgREST, the stack daemon = gateway/Auth/Realtime/Storage/cron/mailbox, the
 * Deno functions runner, the load generator itself) in cores used of the machine's cores, plus
 * the latency of the same search through the gateway and straight to PostgREST at low load (what
 * the gateway adds per request).
 *
 * Setup: bench members created in the database (confirmed, Premium subscription, one shared
 * password, contact pairs with a conversation each); visible projects, profiles, events, jobs and
 * search words sampled from the data present (the demo data, or the large data set). The members
 * and everything they caused (contacts, messages, favourites, queued mails to them) are deleted
 * at the end; mails queued for the people they asked stay in the queue like any other.
 *
 * Usage: `npx tsx scripts/bench/load.ts [--seconds 60] [--visitors 200] [--members 50]
 *         [--pace 1]`
 * Uses the stack of TEAMWERK_STACK_OFFSET; starts it when it is not running (and stops it again).
 * Exit code 1 when the target is missed (errors, or a read kind's p95 above 150 ms; --smoke, npm
 * test: 5 s, 10 visitors, 6 members, errors only).
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { stackConfig } from '../local-stack/config.ts';
import { readState, startStack, stopStack } from '../local-stack/cli.ts';
import { createMemberPairs, numberArg, percentile, processes, rpcGetQuery, SMOKE, type BenchMember } from './support.ts';

const config = stackConfig();

// --smoke (npm test): 5 s, 10 visitors and 6 members (the fewest that give every kind a connection);
// it fails on errors only, not on the latency target
const SECONDS = SMOKE ? 5 : numberArg('seconds', 60);
const VISITORS = SMOKE ? 10 : Math.round(numberArg('visitors', 200));
const MEMBERS = SMOKE ? 6 : Math.max(2, Math.floor(numberArg('members', 50) / 2) * 2);
const PACE = Math.max(1, Math.round(numberArg('pace', 1)));
const READ_P95_TARGET_MS = 150;

const base = new URL(config.apiUrl);
const anonHeaders = { apikey: config.anonKey, Authorization: `Bearer ${config.anonKey}` };
const json = { 'Content-Type': 'application/json' };

// -------------------------------------------------------------------------------------------
// Data: what visitors look at, and the members
// -------------------------------------------------------------------------------------------

interface Sample {
  projects: string[];
  slugs: string[];
  eventSlugs: string[];
  jobs: string[];
  words: string[];
  people: string[];
}

/** GET through the gateway as `token` (anon key by default); the rows as values of `column`. */
async function values(path: string, column: string, token = config.anonKey): Promise<string[]> {
  const res = await fetch(`${config.apiUrl}/rest/v1/${path}`, { headers: { apikey: config.anonKey, Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`sampling ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as Record<string, unknown>[]).map((r) => String(r[column]));
}

/** What there is to look at, sampled as the people who look at it: visitors (anon) and a member. */
async function sample(db: pg.Client, member: Member): Promise<Sample> {
  const shuffle = (list: string[]) => list.map((v) => [Math.random(), v] as const).sort((x, y) => x[0] - y[0]).map(([, v]) => v);
  const projects = shuffle(await values('projects?select=id&status=eq.published&limit=1000', 'id', member.token));
  const slugs = shuffle(await values('public_profiles?select=slug&slug=not.is.null&limit=1000', 'slug'));
  const eventSlugs = shuffle(await values('events?select=slug&status=in.(published,upcoming,ongoing)&limit=500', 'slug'));
  const jobs = shuffle(await values('jobs?select=id&limit=500', 'id'));
  const people = shuffle(await values(`public_profiles?select=id&firstname=neq.Load&limit=3000`, 'id', member.token));
  const words = (await db.query<{ v: string }>(
    `select w as v from (select distinct lower(w) as w from public.projects p, regexp_split_to_table(p.title, '\\s+') w
     where p.status = 'published' and char_length(w) between 5 and 14 and w ~ '^[[:alpha:]]+$' limit 2000) t order by random() limit 150`,
  )).rows.map((r) => r.v);
  const missing = Object.entries({ projects, slugs, eventSlugs, jobs, words, people }).filter(([, v]) => v.length === 0).map(([k]) => k);
  if (missing.length) throw new Error(`no data to browse (${missing.join(', ')}): seed the stack first (npm run stack:reset)`);
  return { projects, slugs, eventSlugs, jobs, words, people };
}

type Member = BenchMember;

const PASSWORD = randomBytes(12).toString('base64url');

async function createMembers(db: pg.Client, tag: string): Promise<Member[]> {
  const emails = Array.from({ length: MEMBERS }, (_, i) => `load-${tag}-${i}@bench.teamwerk.test`);
  const members = await createMemberPairs(db, config, emails, { passwordHash: await bcrypt.hash(PASSWORD, 10), firstname: 'Load', tokenSeconds: 3 * 3600 });
  await db.query(`update public.profiles set city = 'Köln' where id = any($1::uuid[])`, [members.map((m) => m.id)]);
  return members;
}

// -------------------------------------------------------------------------------------------
// Kinds of traffic
// -------------------------------------------------------------------------------------------

type Req = autocannon.Request;
interface Context {
  member?: Member;
  project?: string;
}

interface Kind {
  name: string;
  read: boolean;
  /** people doing this at the same time; each sends `--pace` requests per second */
  connections: number;
  requests: Req[];
}

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const counters = new Map<string, number>();
const next = (name: string) => {
  const n = (counters.get(name) ?? 0) + 1;
  counters.set(name, n);
  return n;
};

function kinds(s: Sample, members: Member[]): Kind[] {
  let memberSeq = 0;
  const member = (ctx: Context): Member => (ctx.member ??= members[memberSeq++ % members.length]!);
  const asMember = (m: Member) => ({ apikey: config.anonKey, Authorization: `Bearer ${m.token}` });
  const share = (n: number) => Math.max(1, Math.round(VISITORS * n));
  const memberShare = (n: number) => Math.max(1, Math.round(MEMBERS * n));
  // contact requests: every member walks its own slice of the people list, so no pair repeats
  const targets = s.people;
  const slice = Math.max(1, Math.floor(targets.length / members.length));

  return [
    {
      name: 'search',
      read: true,
      connections: share(0.3),
      requests: [{
        // GET, as the SPA calls it (supabase-js rpc with { get: true }: read replicas serve GET only)
        method: 'GET',
        setupRequest: (req: Req) => ({ ...req, headers: anonHeaders, path: `/rest/v1/rpc/search?${rpcGetQuery({ q: pick(s.words, next('search')), page: 1, page_size: 10 })}` }),
      }],
    },
    {
      name: 'project page',
      read: true,
      connections: share(0.2),
      requests: [{
        method: 'GET',
        setupRequest: (req: Req) => ({
          ...req,
          headers: anonHeaders,
          path: `/rest/v1/projects?select=id,owner_id,title,slug,summary,description,is_private,category,city,latitude,longitude,roles_sought,stage,images,status,published_at,created_at,updated_at,owner:profiles!projects_owner_id_fkey(slug,firstname,lastname,headline,city)&id=eq.${pick(s.projects, next('project'))}`,
        }),
      }],
    },
    {
      name: 'profile page',
      read: true,
      connections: share(0.15),
      requests: [{
        method: 'GET',
        setupRequest: (req: Req) => ({
          ...req,
          headers: anonHeaders,
          path: `/rest/v1/public_profiles?select=id,slug,firstname,lastname,display_name,display_address,headline,bio,skills,looking_for,offering,categories,city,type,profile_img,social_links,premium_profile&slug=eq.${encodeURIComponent(pick(s.slugs, next('profile')))}`,
        }),
      }],
    },
    {
      name: 'events list',
      read: true,
      connections: share(0.1),
      requests: [{
        method: 'GET',
        setupRequest: (req: Req) => {
          const page = next('events') % 3;
          return {
            ...req,
            headers: { ...anonHeaders, Prefer: 'count=exact' },
            path: `/rest/v1/events?select=id,slug,title,summary,category,status,is_paid,price_cents,starts_at,ends_at,is_online,city,capacity,going_count,venue_name,latitude,longitude&status=in.(published,upcoming,ongoing)&ends_at=gte.${encodeURIComponent(new Date().toISOString())}&order=starts_at.asc,id.asc&offset=${page * 12}&limit=12`,
          };
        },
      }],
    },
    {
      name: 'jobs list',
      read: true,
      connections: share(0.1),
      requests: [{
        method: 'GET',
        setupRequest: (req: Req) => {
          const page = next('jobs') % 3;
          return {
            ...req,
            headers: { ...anonHeaders, Prefer: 'count=exact' },
            path: `/rest/v1/jobs?select=id,title,company,city,remote,employment_type,category,posted_at&order=posted_at.desc&offset=${page * 15}&limit=15`,
          };
        },
      }],
    },
    {
      name: 'map',
      read: true,
      connections: VISITORS - share(0.3) - share(0.2) - share(0.15) - share(0.1) - share(0.1),
      requests: [{
        method: 'GET',
        setupRequest: (req: Req) => {
          // alternately Germany at zoom 6 and a city (Köln) at zoom 11, as people pan the map
          const wide = next('map') % 2 === 0;
          const bounds = wide ? { west: 5.5, south: 47.2, east: 15.5, north: 55.1, zoom: 6 } : { west: 6.85, south: 50.88, east: 7.1, north: 51.0, zoom: 11 };
          const query = rpcGetQuery({ ...bounds, layers: ['people', 'projects', 'events', 'jobs'], include_remote: false, max_rows: 200 });
          return { ...req, headers: anonHeaders, path: `/rest/v1/rpc/map_items?${query}` };
        },
      }],
    },
    {
      name: 'my area',
      read: true,
      connections: MEMBERS - memberShare(0.2) - memberShare(0.24) - memberShare(0.06) - memberShare(0.1),
      requests: [
        { method: 'POST', path: '/rest/v1/rpc/my_profile', setupRequest: (req: Req, ctx: object) => ({ ...req, headers: { ...asMember(member(ctx as Context)), ...json }, body: '{}' }) },
        { method: 'POST', path: '/rest/v1/rpc/my_inbox', setupRequest: (req: Req, ctx: object) => ({ ...req, headers: { ...asMember(member(ctx as Context)), ...json }, body: JSON.stringify({ p_limit: 20, p_offset: 0 }) }) },
        { method: 'POST', path: '/rest/v1/rpc/unread_message_total', setupRequest: (req: Req, ctx: object) => ({ ...req, headers: { ...asMember(member(ctx as Context)), ...json }, body: '{}' }) },
        { method: 'POST', path: '/rest/v1/rpc/my_contacts', setupRequest: (req: Req, ctx: object) => ({ ...req, headers: { ...asMember(member(ctx as Context)), ...json }, body: JSON.stringify({ p_tab: 'contacts', p_search: null, p_limit: 20, p_offset: 0 }) }) },
      ],
    },
    {
      name: 'favourite',
      read: false,
      connections: memberShare(0.2),
      requests: [
        {
          method: 'POST',
          path: '/rest/v1/favourite_projects',
          setupRequest: (req: Req, ctx: object) => {
            const c = ctx as Context;
            const m = member(c);
            c.project = pick(s.projects, next('favourite'));
            return { ...req, headers: { ...asMember(m), ...json, Prefer: 'return=minimal' }, body: JSON.stringify({ user_id: m.id, project_id: c.project }) };
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req: Req, ctx: object) => {
            const c = ctx as Context;
            const m = member(c);
            return { ...req, headers: { ...asMember(m), Prefer: 'return=minimal' }, path: `/rest/v1/favourite_projects?user_id=eq.${m.id}&project_id=eq.${c.project}` };
          },
        },
      ],
    },
    {
      name: 'contact request',
      read: false,
      connections: memberShare(0.06),
      requests: [{
        method: 'POST',
        path: '/rest/v1/rpc/send_contact_request',
        setupRequest: (req: Req) => {
          // every request from the next member (25 requests a day each are allowed), each to the
          // next person of that member's own slice of the people list, so no pair repeats
          const n = next('contact');
          const index = n % members.length;
          const m = members[index]!;
          const target = targets[(index * slice + Math.floor(n / members.length)) % targets.length]!;
          return { ...req, headers: { ...asMember(m), ...json }, body: JSON.stringify({ p_addressee_id: target, p_message: 'Hallo, ich habe Ihr Profil gesehen und würde mich gern austauschen.' }) };
        },
      }],
    },
    {
      name: 'chat message',
      read: false,
      connections: memberShare(0.24),
      requests: [{
        method: 'POST',
        path: '/rest/v1/messages',
        setupRequest: (req: Req) => {
          // every message from the next member, to their contact
          const n = next('chat');
          const m = members[n % members.length]!;
          return { ...req, headers: { ...asMember(m), ...json, Prefer: 'return=minimal' }, body: JSON.stringify({ conversation_id: m.conversation, sender_id: m.id, body: `Lasttest ${n}` }) };
        },
      }],
    },
    {
      name: 'login',
      read: false,
      connections: memberShare(0.1),
      requests: [{
        method: 'POST',
        path: '/auth/v1/token?grant_type=password',
        setupRequest: (req: Req) => ({
          ...req,
          headers: { apikey: config.anonKey, ...json },
          body: JSON.stringify({ email: pick(members, next('login')).email, password: PASSWORD }),
        }),
      }],
    },
  ];
}

// -------------------------------------------------------------------------------------------
// Measuring
// -------------------------------------------------------------------------------------------

interface KindResult {
  kind: Kind;
  latencies: number[];
  errors: number;
  firstError?: string;
  timeouts?: number;
}


/**
 * Runs a kind: one autocannon instance per person (one connection, `PACE` requests per second),
 * their starts spread evenly over the first second. autocannon paces each client with its own
 * one-second interval, so clients started together would all fire in the same millisecond every
 * second; spreading them turns that into a steady arrival of requests, as real visitors make.
 */
function runKind(kind: Kind): Promise<KindResult> {
  const out: KindResult = { kind, latencies: [], errors: 0 };
  const requests = kind.requests.map((r) => ({
    ...r,
    onResponse: (status: number, body: string) => {
      if (status >= 400 && !out.firstError) out.firstError = `${status} ${body.slice(0, 200)}`;
    },
  }));
  const one = (delayMs: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      setTimeout(() => {
        const instance = autocannon(
          { url: `${base.protocol}//${base.host}`, connections: 1, duration: SECONDS, timeout: 10, requests, overallRate: PACE },
          (err, result) => (err ? reject(err) : resolve(result)),
        );
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          out.latencies.push(responseTime);
          if (statusCode >= 400) out.errors++;
        });
        instance.on('reqError', (err) => {
          out.errors++;
          out.firstError ??= err.message;
        });
      }, delayMs);
    });
  return Promise.all(Array.from({ length: kind.connections }, (_, i) => one(Math.floor(((i + Math.random()) * 1000) / kind.connections)))).then(
    (results) => ({ ...out, timeouts: results.reduce((sum, r) => sum + r.timeouts, 0) }),
  );
}

/** CPU seconds (user + system) used so far, per piece of the stack. */
function cpuByPiece(daemonPid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string, v: number) => out.set(k, (out.get(k) ?? 0) + v);
  for (const p of processes()) {
    if (p.pid === process.pid) add('load generator (this process)', p.cpuSeconds);
    else if (p.comm === 'postgres') add('Postgres', p.cpuSeconds);
    else if (p.comm.startsWith('postgrest')) add('PostgREST', p.cpuSeconds);
    else if (p.comm === 'deno') add('Deno functions runner', p.cpuSeconds);
    else if (daemonPid !== undefined && (p.pid === daemonPid || p.ppid === daemonPid)) add('stack daemon (gateway, Auth, Realtime, Storage, cron, mailbox)', p.cpuSeconds);
  }
  return out;
}

/** Busy and total CPU time of the whole machine so far (seconds), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0) / 100;
  const idle = ((fields[3] ?? 0) + (fields[4] ?? 0)) / 100;
  return { busy: total - idle, total };
}

/**
 * Sequential searches at low load, alternating between the gateway and PostgREST's own port
 * (`n` each, so both see the same machine state); their median times (ms).
 */
async function gatewayCost(words: string[], n = 300): Promise<{ gateway: number; direct: number }> {
  const origins = { gateway: `${config.apiUrl}/rest/v1`, direct: `http://127.0.0.1:${config.ports.postgrest}` };
  const times: Record<keyof typeof origins, number[]> = { gateway: [], direct: [] };
  for (let i = 0; i < 2 * n; i++) {
    const which = i % 2 === 0 ? 'gateway' : 'direct';
    const t = performance.now();
    const res = await fetch(`${origins[which]}/rpc/search?${rpcGetQuery({ q: pick(words, Math.floor(i / 2)), page: 1, page_size: 10 })}`, { headers: anonHeaders });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`search ${res.status}`);
    times[which].push(performance.now() - t);
  }
  return { gateway: percentile(times.gateway.sort((a, b) => a - b), 50), direct: percentile(times.direct.sort((a, b) => a - b), 50) };
}

const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1).padStart(7) : '    n/a');

async function main(): Promise<void> {
  const started = await startStack(config);
  const db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const tag = Date.now().toString(36);
  let members: Member[] = [];
  try {
    members = await createMembers(db, tag);
    const s = await sample(db, members[0]!);
    const all = kinds(s, members);
    const cores = os.cpus().length;
    console.log(`load: ${VISITORS} visitors and ${MEMBERS} members, ${PACE} request/s each, for ${SECONDS} s on ${cores} cores; load avg ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`data: ${s.projects.length} projects, ${s.slugs.length} profiles, ${s.eventSlugs.length} events, ${s.jobs.length} jobs, ${s.words.length} search words sampled`);

    const daemonPid = readState(config)?.pid;
    await db.query('select extensions.pg_stat_statements_reset()');
    const cpuBefore = cpuByPiece(daemonPid);
    const machineBefore = machineCpu();
    const t0 = performance.now();
    const results = await Promise.all(all.map((k) => runKind(k)));
    const elapsed = (performance.now() - t0) / 1000;
    const cpuAfter = cpuByPiece(daemonPid);
    const machineAfter = machineCpu();

    console.log(`\n${'kind'.padEnd(16)} ${'conns'.padStart(5)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}  errors`);
    let total = 0;
    let errors = 0;
    let missed = false;
    for (const r of results) {
      const sorted = [...r.latencies].sort((a, b) => a - b);
      const timeouts = r.timeouts ?? 0;
      const errs = r.errors + timeouts;
      total += sorted.length;
      errors += errs;
      const p95 = percentile(sorted, 95);
      if (r.kind.read && p95 > READ_P95_TARGET_MS && !SMOKE) missed = true;
      console.log(
        `${r.kind.name.padEnd(16)} ${String(r.kind.connections).padStart(5)} ${String(sorted.length).padStart(8)} ${fmt(sorted.length / elapsed)} ${fmt(percentile(sorted, 50))} ${fmt(p95)} ${fmt(percentile(sorted, 99))} ${fmt(sorted.at(-1) ?? NaN)}  ${errs}${timeouts ? ` (${timeouts} timeouts)` : ''}${r.firstError ? `  first: ${r.firstError}` : ''}`,
      );
    }
    const reads = results.filter((r) => r.kind.read).flatMap((r) => r.latencies).sort((a, b) => a - b);
    const writes = results.filter((r) => !r.kind.read).flatMap((r) => r.latencies).sort((a, b) => a - b);
    console.log(`${'all reads'.padEnd(16)} ${''.padStart(5)} ${String(reads.length).padStart(8)} ${fmt(reads.length / elapsed)} ${fmt(percentile(reads, 50))} ${fmt(percentile(reads, 95))} ${fmt(percentile(reads, 99))}`);
    console.log(`${'all writes'.padEnd(16)} ${''.padStart(5)} ${String(writes.length).padStart(8)} ${fmt(writes.length / elapsed)} ${fmt(percentile(writes, 50))} ${fmt(percentile(writes, 95))} ${fmt(percentile(writes, 99))}`);
    console.log(`total: ${total} requests in ${elapsed.toFixed(1)} s = ${(total / elapsed).toFixed(0)} requests/s, ${errors} errors`);
    if (errors > 0) missed = true;
    console.log(`target (0 errors, p95 ≤ ${READ_P95_TARGET_MS} ms for every read kind): ${SMOKE ? `smoke run, latency not judged; ${missed ? 'ERRORS' : 'no errors'}` : missed ? 'MISSED' : 'met'}`);

    console.log(`\nCPU during the run (cores used of ${cores}):`);
    const pieces = [...cpuAfter.keys()].map((k) => [k, ((cpuAfter.get(k) ?? 0) - (cpuBefore.get(k) ?? 0)) / elapsed] as const).sort((a, b) => b[1] - a[1]);
    for (const [piece, used] of pieces) console.log(`  ${piece.padEnd(62)} ${used.toFixed(2)} (${((used / cores) * 100).toFixed(0)} %)`);
    const busy = (machineAfter.busy - machineBefore.busy) / ((machineAfter.total - machineBefore.total) / cores);
    console.log(`  ${'the whole machine'.padEnd(62)} ${busy.toFixed(2)} (${((busy / cores) * 100).toFixed(0)} %)`);

    // The product's queries: time spent executing SQL per statement (pg_stat_statements), against
    // the CPU Postgres used in all (the rest is connection, transaction and role switching work)
    const statements = (await db.query<{ query: string; calls: string; total: number; mean: number }>(
      `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls, total_exec_time as total, mean_exec_time as mean
       from extensions.pg_stat_statements where userid <> (select oid from pg_roles where rolname = 'postgres')
       order by total_exec_time desc limit 8`,
    )).rows;
    const [sum] = (await db.query<{ total: number; calls: string }>(
      `select coalesce(sum(total_exec_time), 0) as total, coalesce(sum(calls), 0) as calls from extensions.pg_stat_statements
       where userid <> (select oid from pg_roles where rolname = 'postgres')`,
    )).rows;
    const pgCpu = ((cpuAfter.get('Postgres') ?? 0) - (cpuBefore.get('Postgres') ?? 0));
    console.log(`
SQL executed for the API: ${(Number(sum?.total ?? 0) / 1000).toFixed(1)} s in ${sum?.calls ?? 0} statements, against ${pgCpu.toFixed(1)} s of Postgres CPU; the most expensive:`);
    for (const st of statements) console.log(`  ${(st.total / 1000).toFixed(2).padStart(6)} s ${String(st.calls).padStart(6)} calls ${st.mean.toFixed(2).padStart(7)} ms  ${st.query.slice(0, 110)}`);

    const cost = await gatewayCost(s.words);
    console.log(`\nsearch at low load, median: ${cost.gateway.toFixed(1)} ms through the gateway, ${cost.direct.toFixed(1)} ms straight to PostgREST (the gateway adds ${(cost.gateway - cost.direct).toFixed(1)} ms)`);
    process.exitCode = missed ? 1 : 0;
  } finally {
    if (members.length) {
      const ids = members.map((m) => m.id);
      await db.query(`delete from public.email_queue where user_id = any($1::uuid[])`, [ids]);
      await db.query(`delete from auth.users where id = any($1::uuid[])`, [ids]);
    }
    await db.end();
    if (!started.alreadyRunning) await stopStack(config);
  }
}

await main();
