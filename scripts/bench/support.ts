/**
 * Shared pieces of the benchmarks (not part of `npm test`): command-line numbers, percentiles,
 * the process table, and paying bench members in contact pairs with a conversation each.
 */
import fs from 'node:fs';
import type pg from 'pg';
import type { StackConfig } from '../local-stack/config.ts';
import { signJwt } from '../local-stack/jwt.ts';

/**
 * Smoke mode (`--smoke`, issue 34): `npm test` runs every benchmark this way, on a small data set
 * with a few runs each, to prove it runs as written; its figures are not measurements.
 */
export const SMOKE = process.argv.includes('--smoke');

/** p50 and p95 (ms) of a trivial PostgREST request, the yardstick every benchmark prints beside its figures. */
export interface Baseline {
  p50: number;
  p95: number;
}

/**
 * Measures a trivial PostgREST request (`GET /rest/v1/cities?select=name&limit=1` as anon through
 * the gateway) `runs` times after 5 warm-up calls, sequentially.
 * @returns p50/p95 in ms. Errors: rejects when a request fails.
 */
export async function measureBaseline(apiUrl: string, anonKey: string, runs: number): Promise<Baseline> {
  const url = `${apiUrl}/rest/v1/cities?select=name&limit=1`;
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`trivial request: HTTP ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** `p50 … ms  p95 … ms  (×r50 / ×r95 of a trivial request)` for a result table. */
export function withRatio(p50: number, p95: number, base: Baseline): string {
  return `p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   (x${(p50 / base.p50).toFixed(1)} / x${(p95 / base.p95).toFixed(1)} of a trivial request)`;
}

/**
 * The query string of a read-only RPC call sent as GET, as supabase-js `rpc(fn, args, { get: true })`
 * writes it (the SPA calls search and map_items so: read replicas serve GET only): undefined
 * arguments left out, arrays as Postgres array literals (`{a,b}`), everything else as its text.
 * Input: the call's named arguments. Output: `name=value&…`, URL-encoded.
 */
export function rpcGetQuery(args: Record<string, unknown>): string {
  const entries = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, Array.isArray(v) ? `{${v.join(',')}}` : String(v)]);
  return new URLSearchParams(entries).toString();
}

/** `--name <n>` from the command line when it is a positive number, else `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** The `p`-th percentile (nearest rank) of ascending `sorted` values; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** One process of the machine as /proc tells it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** the executable's name (`comm`, at most 15 characters) */
  comm: string;
  /** CPU time used so far, user + system (seconds) */
  cpuSeconds: number;
  /** resident memory (KiB); 0 for kernel threads */
  rssKiB: number;
}

/** Every process readable in /proc (Linux); processes that end while being read are skipped. */
export function processes(): ProcessInfo[] {
  const ticks = 100; // USER_HZ on Linux
  const out: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'));
      out.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticks,
        rssKiB: rss ? Number(rss[1]) : 0,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** A bench member: a confirmed Premium account with an access token and a conversation. */
export interface BenchMember {
  id: string;
  email: string;
  /** access token (HS256, role authenticated), valid for `tokenSeconds` */
  token: string;
  /** the direct conversation with the other member of the pair */
  conversation: string;
  /** index of that other member in the returned list */
  partner: number;
}

/**
 * Creates `emails.length` (an even number) confirmed members with an active Premium subscription,
 * directly in the database as postgres: members 2k and 2k + 1 are accepted contacts with one
 * direct conversation. `passwordHash` (bcrypt) lets them log in; without it they cannot.
 * Returns them in the order of `emails`. Delete them with `delete from auth.users where id = any(…)`.
 */
export async function createMemberPairs(
  db: pg.Client,
  config: StackConfig,
  emails: readonly string[],
  options: { passwordHash?: string; firstname?: string; tokenSeconds?: number } = {},
): Promise<BenchMember[]> {
  const { rows } = await db.query<{ id: string; email: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
       email_change_token_new, email_change)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', e, $2, now(),
       '{"provider":"email","providers":["email"]}', jsonb_build_object('firstname', $3::text, 'lastname', 'Member ' || n, 'preferred_language', 'de'),
       now(), now(), '', '', '', ''
     from unnest($1::text[]) with ordinality as t(e, n) order by n
     returning id, email`,
    [emails, options.passwordHash ?? '', options.firstname ?? 'Bench'],
  );
  const byEmail = new Map(rows.map((r) => [r.email, r.id]));
  const ids = emails.map((e) => byEmail.get(e)!);
  await db.query(
    `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end,
       stripe_customer_id, stripe_subscription_id, last_synced_at)
     select u, 'premium', 'active', now() - interval '1 day', now() + interval '29 days', 'cus_bench_' || u, 'sub_bench_' || u, now()
     from unnest($1::uuid[]) as u`,
    [ids],
  );
  await db.query(`update public.profiles set user_role = 'premium' where id = any($1::uuid[])`, [ids]);
  const members: BenchMember[] = [];
  for (let i = 0; i + 1 < ids.length; i += 2) {
    const [a, b] = [ids[i]!, ids[i + 1]!];
    await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'accepted', now())`, [a, b]);
    const conv = (await db.query<{ id: string }>(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [a])).rows[0]!.id;
    await db.query(`insert into public.conversation_members (conversation_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`, [conv, a, b]);
    for (const [k, id] of [[i, a], [i + 1, b]] as const) {
      const token = await signJwt({ sub: id, role: 'authenticated', aud: 'authenticated', email: emails[k]! }, config.jwtSecret, options.tokenSeconds ?? 3600);
      members.push({ id, email: emails[k]!, token, conversation: conv, partner: k % 2 === 0 ? k + 1 : k - 1 });
    }
  }
  return members;
}
