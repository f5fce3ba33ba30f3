/**
 * Benchmark (not part of `npm test`): Realtime broadcast fan-out of the local stack.
 *
 * One sender (a realtime-js client) and N subscribers (default 200), each on its own WebSocket
 * (serializer vsn 2.0.0, binary broadcasts), all joined to one topic.
 * - Latency phase: the sender broadcasts `--messages` messages (default 500) at `--rate`
 *   messages/s (default 20); every delivery's latency is receive time − send time (same clock).
 *   Prints p50/p90/p99/max in ms; target p99 ≤ 50 ms on 2 cores.
 * - Throughput phase: `--burst` messages (default 500) sent back to back; prints deliveries/s
 *   (messages received by all subscribers together per second).
 * Both phases count lost and duplicate deliveries. Subscribers are realtime-js clients by
 * default; `--raw` makes them minimal `ws` clients (decoding only the binary frame), which
 * takes most client-side cost out of the figures. Sender, subscribers and the stack share the
 * machine, so the load average is printed too.
 *
 * Usage: `npx tsx scripts/bench/realtime-fanout.ts [--subscribers 200] [--messages 500]
 *         [--rate 20] [--burst 500] [--raw] [--smoke]` (--smoke, npm test: 5 subscribers, 20 messages)
 * Uses the stack of TEAMWERK_STACK_OFFSET; starts it when it is not running (and stops it again).
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { RealtimeClient, type RealtimeChannel, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import { stackConfig } from '../local-stack/config.ts';
import { startStack, stopStack } from '../local-stack/cli.ts';
import { numberArg, percentile, SMOKE } from './support.ts';

const config = stackConfig();

// --smoke (npm test): 5 subscribers, 20 messages, a burst of 20
const SUBSCRIBERS = SMOKE ? 5 : numberArg('subscribers', 200);
const MESSAGES = SMOKE ? 20 : numberArg('messages', 500);
const RATE = numberArg('rate', 20);
const BURST = SMOKE ? 20 : numberArg('burst', 500);
const RAW = process.argv.includes('--raw');

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WS_BASE = `${config.apiUrl.replace(/^http/, 'ws')}/realtime/v1`;


interface Tick {
  phase: 'warmup' | 'latency' | 'burst';
  seq: number;
  t: number;
}

/** Per-phase delivery bookkeeping (latencies, duplicates). */
class Tally {
  latencies: number[] = [];
  seen = new Set<string>();
  duplicates = 0;
  lastAt = 0;
  record(sub: number, tick: Tick): void {
    const at = now();
    const key = `${sub}:${tick.seq}`;
    if (this.seen.has(key)) {
      this.duplicates++;
      return;
    }
    this.seen.add(key);
    this.latencies.push(at - tick.t);
    this.lastAt = at;
  }
}

const tallies: Record<Tick['phase'], Tally> = { warmup: new Tally(), latency: new Tally(), burst: new Tally() };
const onTick = (sub: number, tick: Tick) => tallies[tick.phase]?.record(sub, tick);

function joined(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(`${status} ${err?.message ?? ''}`));
    });
  });
}

function realtimeJsClient(): RealtimeClient {
  return new RealtimeClient(WS_BASE, {
    params: { apikey: config.anonKey },
    transport: WebSocket as unknown as WebSocketLikeConstructor,
    heartbeatIntervalMs: 25_000,
  });
}

/** A realtime-js subscriber; returns its disconnect function. */
async function realtimeJsSubscriber(index: number, topic: string): Promise<() => Promise<unknown>> {
  const client = realtimeJsClient();
  const channel = client.channel(topic).on('broadcast', { event: 'tick' }, (msg: { payload: Tick }) => onTick(index, msg.payload));
  await joined(channel);
  return () => client.disconnect();
}

/** A minimal Phoenix vsn 2.0.0 subscriber over `ws`; returns its close function. */
async function rawSubscriber(index: number, topic: string): Promise<() => Promise<unknown>> {
  const ws = new WebSocket(`${WS_BASE}/websocket?apikey=${config.anonKey}&vsn=2.0.0`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const joinedOk = new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        // kind 4: u8 kind, u8 topic_len, u8 event_len, u8 meta_len, u8 encoding, topic, event, meta, payload
        const off = 5 + data[1]! + data[2]! + data[3]!;
        onTick(index, JSON.parse(data.toString('utf8', off)) as Tick);
        return;
      }
      const [, ref, , event, payload] = JSON.parse(data.toString('utf8')) as [string, string, string, string, { status?: string }];
      if (event === 'phx_reply' && ref === '1') {
        if (payload.status === 'ok') resolve();
        else reject(new Error(`join failed: ${JSON.stringify(payload)}`));
      }
    });
  });
  ws.send(JSON.stringify(['1', '1', `realtime:${topic}`, 'phx_join', { config: { broadcast: { self: false, ack: false }, presence: { key: '', enabled: false }, private: false } }]));
  await joinedOk;
  let ref = 1;
  const beat = setInterval(() => ws.send(JSON.stringify([null, String(++ref), 'phoenix', 'heartbeat', {}])), 20_000);
  return async () => {
    clearInterval(beat);
    ws.close();
  };
}

async function main(): Promise<void> {
  const { alreadyRunning } = await startStack(config);
  const topic = `bench-fanout-${Date.now()}`;
  const closers: (() => Promise<unknown>)[] = [];
  const senderClient = realtimeJsClient();
  closers.push(() => senderClient.disconnect());
  try {
    for (let i = 0; i < SUBSCRIBERS; i += 50) {
      const batch: Promise<() => Promise<unknown>>[] = [];
      for (let j = i; j < Math.min(SUBSCRIBERS, i + 50); j++) batch.push(RAW ? rawSubscriber(j, topic) : realtimeJsSubscriber(j, topic));
      closers.push(...(await Promise.all(batch)));
    }
    const sender = senderClient.channel(topic);
    await joined(sender);
    const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`realtime fan-out: ${SUBSCRIBERS} ${RAW ? 'raw ws' : 'realtime-js'} subscribers (vsn 2.0.0), ${os.cpus().length} cores, load ${load()}`);
    const send = (phase: Tick['phase'], seq: number) =>
      sender.send({ type: 'broadcast', event: 'tick', payload: { phase, seq, t: now(), text: 'Hallo zusammen, neue Nachricht im Projektchat' } });

    for (let i = 0; i < 20; i++) await send('warmup', i);
    await sleep(1000);
    // event-loop delay of this (client) process: tells client-side stalls from server-side ones
    const eld = monitorEventLoopDelay({ resolution: 5 });
    eld.enable();

    // latency phase
    const interval = 1000 / RATE;
    const start = now();
    for (let seq = 0; seq < MESSAGES; seq++) {
      const wait = start + seq * interval - now();
      if (wait > 0) await sleep(wait);
      await send('latency', seq);
    }
    const expected = MESSAGES * SUBSCRIBERS;
    const lat = tallies.latency;
    for (const deadline = now() + 15_000; lat.seen.size < expected && now() < deadline; ) await sleep(50);
    const sorted = [...lat.latencies].sort((a, b) => a - b);
    console.log(`latency phase: ${MESSAGES} messages at ${RATE}/s → ${lat.seen.size}/${expected} deliveries, ${expected - lat.seen.size} lost, ${lat.duplicates} duplicates`);
    console.log(
      `  fan-out latency ms: p50 ${percentile(sorted, 50).toFixed(2)}  p90 ${percentile(sorted, 90).toFixed(2)}  ` +
        `p99 ${percentile(sorted, 99).toFixed(2)}  max ${sorted[sorted.length - 1]?.toFixed(2)}  (target p99 ≤ 50)`,
    );
    eld.disable();
    console.log(`  client event-loop delay ms (resolution 5): p99 ${(eld.percentile(99) / 1e6).toFixed(1)}  max ${(eld.max / 1e6).toFixed(1)}`);

    // throughput phase
    const burst = tallies.burst;
    const burstStart = now();
    for (let seq = 0; seq < BURST; seq++) await send('burst', seq);
    const burstExpected = BURST * SUBSCRIBERS;
    for (const deadline = now() + 30_000; burst.seen.size < burstExpected && now() < deadline; ) await sleep(20);
    const seconds = (burst.lastAt - burstStart) / 1000;
    console.log(
      `throughput phase: ${BURST} messages back to back → ${burst.seen.size}/${burstExpected} deliveries in ${seconds.toFixed(2)} s, ` +
        `${burstExpected - burst.seen.size} lost, ${burst.duplicates} duplicates`,
    );
    console.log(`  delivered: ${Math.round(burst.seen.size / seconds)} messages/s (${(BURST / seconds).toFixed(0)} broadcasts/s × ${SUBSCRIBERS} subscribers); load ${load()}`);
  } finally {
    await Promise.all(closers.map((c) => c().catch(() => undefined)));
    if (!alreadyRunning) await stopStack(config);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
