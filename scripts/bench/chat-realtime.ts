/**
 * Benchmark (not part of `npm test`): chat delivery and presence on the local stack (issue 13).
 *
 * Setup: `--users` (default 200) paying users in `--users / 2` accepted contact pairs, one direct
 * conversation per pair, one realtime-js client per user (its own WebSocket) joined to its private
 * channel `conversation:<id>`, authorised by RLS on realtime.messages.
 * - Latency: messages are inserted through PostgREST as their sender (`POST /rest/v1/messages`,
 *   the SPA's path) at `--rate` messages/s (default 50) for `--seconds` (default 10), spread over
 *   all conversations; latency = arrival of the Broadcast from Database at the other member −
 *   start of the HTTP request. Prints p50/p95/p99/max (target p99 ≤ 100 ms on 2 cores) and, to
 *   show where the time goes, the same percentiles of the PostgREST insert alone.
 * - Throughput: steps of increasing rates (`--steps`, default 50,100,200,400 messages/s, 5 s each);
 *   per step: messages/s achieved, deliveries, lost, duplicated, "reordered" (arrived in another
 *   order than the bench sent them within a conversation: concurrent requests commit in any order;
 *   the SPA orders by message id), p99. "Sustained" is the highest step with no loss, no failed insert and p99 ≤ 100 ms.
 *   Failed inserts are listed by reason: the database allows 30 messages per sender and minute
 *   (private.limit_message_rate), so a long run at a high rate needs enough `--users`.
 * - Presence: for `--presence` pairs (default 20), the time from a user's track() on
 *   `presence:user:<id>:<epoch>` until the contact watching that topic sees the join, and from the
 *   user's socket closing until the contact sees the leave (p50/p95).
 * Exits 1 when any message is lost or duplicated. Cleans up the users it created.
 *
 * Usage: `npx tsx scripts/bench/chat-realtime.ts [--users 200] [--rate 50] [--seconds 10]
 *         [--steps 50,100,200,400] [--presence 20] [--smoke]` (--smoke, npm test: 4 clients, 2 s)
 * Uses the stack of TEAMWERK_STACK_OFFSET; starts it when it is not running (and stops it again).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { RealtimeClient, type RealtimeChannel, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import { stackConfig } from '../local-stack/config.ts';
import { startStack, stopStack } from '../local-stack/cli.ts';
import { createMemberPairs, numberArg, percentile, SMOKE, type BenchMember } from './support.ts';

const config = stackConfig();

function listArg(name: string, fallback: number[]): number[] {
  const i = process.argv.indexOf(`--${name}`);
  const parsed = i >= 0 ? (process.argv[i + 1] ?? '').split(',').map(Number).filter((n) => Number.isFinite(n) && n > 0) : [];
  return parsed.length ? parsed : fallback;
}
// --smoke (npm test): 4 clients, 2 s at 5 messages/s, one rate step
const USERS = SMOKE ? 4 : Math.max(2, Math.floor(numberArg('users', 200) / 2) * 2);
const RATE = SMOKE ? 5 : numberArg('rate', 50);
const SECONDS = SMOKE ? 2 : numberArg('seconds', 10);
const STEPS = SMOKE ? [10] : listArg('steps', [50, 100, 200, 400]);
const STEP_SECONDS = 5;
const PRESENCE_PAIRS = Math.min(SMOKE ? 1 : numberArg('presence', 20), USERS / 2);
const TARGET_P99_MS = 100;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WS_BASE = `${config.apiUrl.replace(/^http/, 'ws')}/realtime/v1`;

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
function summary(values: number[]): { p50: number; p95: number; p99: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1) ?? NaN };
}

type BenchUser = BenchMember;

/** Creates the users, their subscriptions, contact pairs and conversations directly in the database. */
function createUsers(db: pg.Client, tag: string): Promise<BenchUser[]> {
  const emails = Array.from({ length: USERS }, (_, i) => `bench-chat-${tag}-${i}@bench.teamwerk.test`);
  return createMemberPairs(db, config, emails);
}

function realtimeClient(token: string): RealtimeClient {
  const client = new RealtimeClient(WS_BASE, {
    params: { apikey: config.anonKey },
    transport: WebSocket as unknown as WebSocketLikeConstructor,
    heartbeatIntervalMs: 25_000,
  });
  void client.setAuth(token);
  return client;
}

function joined(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(`${status} ${err?.message ?? ''}`));
    });
  });
}

/** What the bench sends in a message body and reads back from the Broadcast. */
interface Marker {
  phase: string;
  seq: number;
  t: number;
}

/** Per-phase bookkeeping of sends and deliveries. */
class Phase {
  sent = 0;
  failed = 0;
  /** Failed inserts by reason (`<HTTP status> <PostgREST code> <message>`, or the fetch error). */
  failures = new Map<string, number>();
  insertMs: number[] = [];
  latencies: number[] = [];
  seen = new Set<number>();
  duplicates = 0;
  outOfOrder = 0;
  private lastSeqPerConv = new Map<string, number>();
  constructor(readonly name: string) {}
  deliver(conv: string, marker: Marker): void {
    if (this.seen.has(marker.seq)) {
      this.duplicates++;
      return;
    }
    this.seen.add(marker.seq);
    this.latencies.push(now() - marker.t);
    const last = this.lastSeqPerConv.get(conv) ?? -1;
    if (marker.seq < last) this.outOfOrder++;
    this.lastSeqPerConv.set(conv, Math.max(last, marker.seq));
  }
}

const phases = new Map<string, Phase>();

/** Inserts one message through PostgREST as `sender`. */
async function send(phase: Phase, sender: BenchUser, seq: number): Promise<void> {
  const marker: Marker = { phase: phase.name, seq, t: now() };
  phase.sent++;
  try {
    const res = await fetch(`${config.apiUrl}/rest/v1/messages`, {
      method: 'POST',
      headers: {
        apikey: config.anonKey,
        Authorization: `Bearer ${sender.token}`,
        'Content-Type': 'application/json',
        Prefer: 'return=minimal',
      },
      body: JSON.stringify({ conversation_id: sender.conversation, sender_id: sender.id, body: `bench ${JSON.stringify(marker)}` }),
    });
    const text = await res.text();
    if (res.ok) phase.insertMs.push(now() - marker.t);
    else {
      let reason = `${res.status}`;
      try {
        const body = JSON.parse(text) as { code?: string; message?: string };
        reason = `${res.status} ${body.code ?? ''} ${body.message ?? ''}`.trim();
      } catch {
        // not a PostgREST error body: the status alone
      }
      fail(phase, reason);
    }
  } catch (err) {
    fail(phase, (err as Error).message);
  }
}

function fail(phase: Phase, reason: string): void {
  phase.failed++;
  phase.failures.set(reason, (phase.failures.get(reason) ?? 0) + 1);
}

/** Sends at `rate` messages/s for `seconds`, round-robin over the users; waits for deliveries. */
async function run(phase: Phase, users: BenchUser[], rate: number, seconds: number): Promise<void> {
  phases.set(phase.name, phase);
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const start = now();
  const inflight: Promise<void>[] = [];
  for (let seq = 0; seq < total; seq++) {
    const wait = start + seq * interval - now();
    if (wait > 0) await sleep(wait);
    inflight.push(send(phase, users[(seq * 7919) % users.length]!, seq));
  }
  await Promise.all(inflight);
  const expected = phase.sent - phase.failed;
  for (const deadline = now() + 10_000; phase.seen.size < expected && now() < deadline; ) await sleep(50);
  await sleep(300); // late duplicates
}

/**
 * Prints a phase's counts and percentiles. Returns its lost + duplicated deliveries, its failed
 * inserts (e.g. 429 when one sender exceeds the database's per-minute message limit: use more
 * `--users` for long runs) and the insert→arrival p99 in ms.
 */
function report(phase: Phase, label: string): { lost: number; failed: number; p99: number } {
  const lat = summary(phase.latencies);
  const ins = summary(phase.insertMs);
  const lost = phase.sent - phase.failed - phase.seen.size;
  console.log(
    `${label.padEnd(22)} sent ${String(phase.sent).padStart(5)}  failed ${phase.failed}  delivered ${phase.seen.size}  lost ${lost}  dup ${phase.duplicates}  reordered ${phase.outOfOrder}`,
  );
  console.log(`${''.padEnd(22)} insert→arrival p50 ${ms(lat.p50)}  p95 ${ms(lat.p95)}  p99 ${ms(lat.p99)}  max ${ms(lat.max)}`);
  if (phase.failed) console.log(`${''.padEnd(22)} failed inserts: ${[...phase.failures].map(([reason, n]) => `${reason} ×${n}`).join('; ')}`);
  console.log(`${''.padEnd(22)} PostgREST insert p50 ${ms(ins.p50)}  p95 ${ms(ins.p95)}  p99 ${ms(ins.p99)}`);
  return { lost: lost + phase.duplicates, failed: phase.failed, p99: lat.p99 };
}

/** Presence: track → contact sees the join; socket closed → contact sees the leave. */
async function presence(db: pg.Client, users: BenchUser[]): Promise<{ join: number[]; leave: number[] }> {
  const join: number[] = [];
  const leave: number[] = [];
  await Promise.all(
    Array.from({ length: PRESENCE_PAIRS }, async (_, pair) => {
      const user = users[pair * 2]!;
      const contact = users[pair * 2 + 1]!;
      const watcherClient = realtimeClient(contact.token);
      const userClient = realtimeClient(user.token);
      try {
        // the user's current presence topic (presence:user:<id>:<epoch>, issue 31 §10)
        const topic = (await db.query<{ t: string }>(`select private.presence_topic($1) as t`, [user.id])).rows[0]!.t;
        let tracked = 0;
        let closed = 0;
        let sawJoin: () => void = () => undefined;
        let sawLeave: () => void = () => undefined;
        const joinSeen = new Promise<void>((r) => (sawJoin = r));
        const leaveSeen = new Promise<void>((r) => (sawLeave = r));
        const watch = watcherClient.channel(topic, { config: { private: true } });
        watch.on('presence', { event: 'sync' }, () => {
          const online = Object.keys(watch.presenceState()).length > 0;
          if (online && tracked && !closed) {
            join.push(now() - tracked);
            sawJoin();
          }
          if (!online && closed) {
            leave.push(now() - closed);
            sawLeave();
          }
        });
        await joined(watch);
        const own = userClient.channel(topic, { config: { private: true } });
        await joined(own);
        tracked = now();
        await own.track({ status: 'online' });
        await Promise.race([joinSeen, sleep(10_000)]);
        closed = now();
        await userClient.disconnect();
        await Promise.race([leaveSeen, sleep(10_000)]);
      } finally {
        await watcherClient.disconnect();
        await userClient.disconnect();
      }
    }),
  );
  return { join, leave };
}

async function main(): Promise<void> {
  const { alreadyRunning } = await startStack(config);
  const db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const tag = randomUUID().slice(0, 8);
  const clients: RealtimeClient[] = [];
  let users: BenchUser[] = [];
  let failed = false;
  try {
    const t0 = now();
    users = await createUsers(db, tag);
    console.log(`chat realtime: ${USERS} users in ${USERS / 2} conversations, ${os.cpus().length} cores (setup ${((now() - t0) / 1000).toFixed(1)} s)`);

    for (let i = 0; i < users.length; i += 50) {
      await Promise.all(
        users.slice(i, i + 50).map(async (u) => {
          const client = realtimeClient(u.token);
          clients.push(client);
          const channel = client
            .channel(`conversation:${u.conversation}`, { config: { private: true } })
            .on('broadcast', { event: 'message_created' }, (msg: { payload: { sender_id: string; body: string; conversation_id: string } }) => {
              if (msg.payload.sender_id === u.id) return; // only the other member's arrival counts
              const body = msg.payload.body;
              if (!body.startsWith('bench ')) return;
              const marker = JSON.parse(body.slice(6)) as Marker;
              phases.get(marker.phase)?.deliver(msg.payload.conversation_id, marker);
            });
          await joined(channel);
        }),
      );
    }
    console.log(`${clients.length} realtime clients joined their private conversation channels; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    await run(new Phase('warmup'), users, 20, 2);
    const latency = new Phase('latency');
    await run(latency, users, RATE, SECONDS);
    const main = report(latency, `latency @ ${RATE}/s`);
    if (main.lost > 0) failed = true;
    console.log(`target p99 ≤ ${TARGET_P99_MS} ms without a failed insert: ${main.p99 <= TARGET_P99_MS && !main.failed ? 'met' : 'NOT met'}`);

    let sustained = 0;
    for (const rate of STEPS) {
      const step = new Phase(`step-${rate}`);
      const t = now();
      await run(step, users, rate, STEP_SECONDS);
      const achieved = step.sent / ((now() - t) / 1000 - 0.3);
      const r = report(step, `step ${rate}/s (${achieved.toFixed(0)}/s)`);
      if (r.lost > 0) failed = true;
      if (r.lost === 0 && r.failed === 0 && r.p99 <= TARGET_P99_MS) sustained = rate;
    }
    console.log(`sustained without loss or failed insert and p99 ≤ ${TARGET_P99_MS} ms: ${sustained || 'none of the steps'} messages/s`);

    const p = await presence(db, users);
    const j = summary(p.join);
    const l = summary(p.leave);
    console.log(`presence (${PRESENCE_PAIRS} pairs): join seen p50 ${ms(j.p50)} p95 ${ms(j.p95)} (${p.join.length}); leave seen p50 ${ms(l.p50)} p95 ${ms(l.p95)} (${p.leave.length})`);
    if (p.join.length < PRESENCE_PAIRS || p.leave.length < PRESENCE_PAIRS) failed = true;
  } finally {
    await Promise.all(clients.map((c) => c.disconnect()));
    if (users.length) await db.query(`delete from auth.users where id = any($1::uuid[])`, [users.map((u) => u.id)]);
    await db.end();
    if (!alreadyRunning) await stopStack(config);
  }
  if (failed) {
    console.error('FAILED: messages were lost or duplicated, or presence was not seen');
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
