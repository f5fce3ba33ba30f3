/**
 * Benchmark (not part of `npm test`): the local stack's cold start, idle memory and throughput.
 *
 * Prints:
 * - cold start time in seconds (fresh data folder: initdb, bootstrap, migrations, seed, every
 *   piece healthy); target ≤ 15 s on 2 cores,
 * - resident memory (RSS, MiB) of the whole stack idle: the daemon and all its descendants
 *   (Postgres, PostgREST, Deno); target ≤ 1 GiB,
 * - auth sign-in throughput (password grant) and PostgREST authenticated select throughput through
 *   the gateway: requests/s and p50/p95 latency in ms.
 *
 * Usage: `npx tsx scripts/bench/stack-start.ts` (uses TEAMWERK_STACK_OFFSET, default 900, and
 * deletes that offset's data folder first).
 */
import fs from 'node:fs';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

process.env.TEAMWERK_STACK_OFFSET ??= '900';
const { stackConfig } = await import('../local-stack/config.ts');
const { startStack, stopStack } = await import('../local-stack/cli.ts');
const { processes } = await import('./support.ts');
const config = stackConfig();

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

await stopStack(config);
fs.rmSync(config.dataDir, { recursive: true, force: true });
const t0 = Date.now();
await startStack(config);
const coldStart = (Date.now() - t0) / 1000;
console.log(`cold start: ${coldStart.toFixed(2)} s (target ≤ 15 s)`);

await new Promise((r) => setTimeout(r, 3000));
const state = JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as { pid: number };
const rssMiB = treeRssKiB(state.pid) / 1024;
console.log(`idle resident memory of the whole stack: ${rssMiB.toFixed(0)} MiB (target ≤ 1024 MiB)`);

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
    5,
  );
  console.log(`auth sign-in: ${signIn.rps.toFixed(1)} req/s, p50 ${signIn.p50.toFixed(1)} ms, p95 ${signIn.p95.toFixed(1)} ms (${signIn.n} ok, ${signIn.errors} errors)`);
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
      5,
    );
    console.log(`PostgREST authenticated select (profiles, 20 rows): ${select.rps.toFixed(0)} req/s, p50 ${select.p50.toFixed(1)} ms, p95 ${select.p95.toFixed(1)} ms (${select.n} ok, ${select.errors} errors)`);
  }
}

await stopStack(config);
