/**
 * Benchmark: the local stack's cold and warm start, idle memory and throughput.
 *
 * Prints:
 * - cold start time in seconds (fresh data folder: initdb, bootstrap, migrations, seed, every
 *   piece healthy); target ≤ 15 s on 2 cores,
 * - warm start time in seconds (stop, then start on the existing data folder; issue 34),
 * - resident memory (RSS, MiB) of the whole stack idle: the daemon and all its descendants
 *   (Postgres, PostgREST, Deno); target ≤ 1 GiB,
 * - auth sign-in throughput (password grant) and PostgREST authenticated select throughput through
 *   the gateway: requests/s and p50/p95 latency in ms, each beside a trivial PostgREST request of
 *   the same run (ratio).
 *
 * Usage: `npx tsx scripts/bench/stack-start.ts [--smoke]` (uses TEAMWERK_STACK_OFFSET, default
 * 900, and deletes that offset's data folder first; the config with the fresh data folder's new
 * secrets is read after the wipe). --smoke (npm test, on the test stack): no wipe and no cold
 * start (npm test's own fresh stack is one), the warm start, loads of 1 s instead of 5 s, and the
 * stack is left running at the end.
 */
import fs from 'node:fs';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

process.env.TEAMWERK_STACK_OFFSET ??= '900';
const { stackConfig } = await import('../local-stack/config.ts');
const { startStack, stopStack } = await import('../local-stack/cli.ts');
const { processes, SMOKE, measureBaseline, withRatio } = await import('./support.ts');
const LOAD_SECONDS = SMOKE ? 1 : 5;

/** RSS in KiB of `pid` and all its descendants, read from /proc. */
function treeRssKiB(pid: number): number {
  const all = processes();
  const rss = new Map(all.map((p) => [p.pid, p.rssKiB]));
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Runs `fn` with `concurrency` loops for `seconds`; returns req/s and latency percentiles. */
async function load(fn: () => Promise<void>, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const s = performance.now();
        try {
          await fn();
          latencies.push(performance.now() - s);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p95: percentile(latencies, 95), n: latencies.length, errors };
}

if (!SMOKE) {
  await stopStack(stackConfig());
  fs.rmSync(stackConfig().dataDir, { recursive: true, force: true });
}
// read after the wipe: the fresh data folder gets new secrets (issue 12 §3), which the stack
// refuses to start with a config of the old ones
let config = stackConfig();
if (!SMOKE) {
  const t0 = Date.now();
  await startStack(config);
  const coldStart = (Date.now() - t0) / 1000;
  console.log(`cold start: ${coldStart.toFixed(2)} s (target ≤ 15 s)`);
}

await stopStack(config);
config = stackConfig();
const t1 = Date.now();
await startStack(config);
console.log(`warm start (existing data folder): ${((Date.now() - t1) / 1000).toFixed(2)} s`);

await new Promise((r) => setTimeout(r, 3000));
const state = JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as { pid: number };
const rssMiB = treeRssKiB(state.pid) / 1024;
console.log(`idle resident memory of the whole stack: ${rssMiB.toFixed(0)} MiB (target ≤ 1024 MiB)`);

const base = await measureBaseline(config.apiUrl, config.anonKey, SMOKE ? 10 : 100);
console.log(`trivial PostgREST request (cities, 1 row, anon): ${withRatio(base.p50, base.p95, base)}`);

const options = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket } };
const admin = createClient(config.apiUrl, config.serviceRoleKey, options);
const email = `bench-${Date.now()}@bench.teamwerk.local`;
const password = 'Bench-Passw0rd!';
const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
if (created.error) {
  console.log(`auth sign-in: skipped (${created.error.message})`);
} else {
  const signIn = await load(
    async () => {
      const res = await fetch(`${config.apiUrl}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: config.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (res.status !== 200) throw new Error(String(res.status));
      await res.arrayBuffer();
    },
    4,
    LOAD_SECONDS,
  );
  console.log(`auth sign-in (4 at once): ${signIn.rps.toFixed(1)} req/s, ${withRatio(signIn.p50, signIn.p95, base)} (${signIn.n} ok, ${signIn.errors} errors)`);
  const session = await createClient(config.apiUrl, config.anonKey, options).auth.signInWithPassword({ email, password });
  const token = session.data.session?.access_token;
  if (token) {
    const select = await load(
      async () => {
        const res = await fetch(`${config.apiUrl}/rest/v1/profiles?select=id&limit=20`, {
          headers: { apikey: config.anonKey, authorization: `Bearer ${token}` },
        });
        if (res.status !== 200) throw new Error(String(res.status));
        await res.arrayBuffer();
      },
      16,
      LOAD_SECONDS,
    );
    console.log(`PostgREST authenticated select (profiles, 20 rows, 16 at once): ${select.rps.toFixed(0)} req/s, ${withRatio(select.p50, select.p95, base)} (${select.n} ok, ${select.errors} errors)`);
  }
  // the bench account is not left behind (it is not part of the large data set)
  await admin.auth.admin.deleteUser(created.data.user.id);
}

if (!SMOKE) await stopStack(config);
