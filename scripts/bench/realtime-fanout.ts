/**
 * Benchmark (not part of `npm test`): Realtime broadcast fan-out of the local stack.
 *
 * One sender and N subscribers (default 200), each a realtime-js client on its own WebSocket
 * (serializer vsn 2.0.0, binary broadcasts), all joined to one topic.
 * - Latency phase: the sender broadcasts `--messages` messages (default 500) at `--rate`
 *   messages/s (default 20); every delivery's latency is receive time − send time (same clock).
 *   Prints p50/p90/p99/max in ms; target p99 ≤ 50 ms on 2 cores.
 * - Throughput phase: `--burst` messages (default 500) sent back to back; prints deliveries/s
 *   (messages received by all subscribers together per second) and lost deliveries.
 * Sender, subscribers and the stack share the machine, so the client side's decoding counts too.
 *
 * Usage: `npx tsx scripts/bench/realtime-fanout.ts [--subscribers 200] [--messages 500]
 *         [--rate 20] [--burst 500] [--vsn 2.0.0|1.0.0]`
 * Uses the stack of TEAMWERK_STACK_OFFSET; starts it when it is not running (and stops it again).
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { RealtimeClient, type RealtimeChannel, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import { stackConfig } from '../local-stack/config.ts';
import { startStack, stopStack } from '../local-stack/cli.ts';

const config = stackConfig();

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const vsnArg = process.argv.indexOf('--vsn');
const VSN = vsnArg >= 0 && process.argv[vsnArg + 1] === '1.0.0' ? '1.0.0' : '2.0.0';
const SUBSCRIBERS = arg('subscribers', 200);
const MESSAGES = arg('messages', 500);
const RATE = arg('rate', 20);
const BURST = arg('burst', 500);

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

function newClient(): RealtimeClient {
  return new RealtimeClient(`${config.apiUrl.replace(/^http/, 'ws')}/realtime/v1`, {
    params: { apikey: config.anonKey },
    transport: WebSocket as unknown as WebSocketLikeConstructor,
    vsn: VSN,
    heartbeatIntervalMs: 25_000,
  });
}

function joined(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(`${status} ${err?.message ?? ''}`));
    });
  });
}

async function main(): Promise<void> {
  const { alreadyRunning } = await startStack(config);
  const topic = `bench-fanout-${Date.now()}`;
  const clients: RealtimeClient[] = [];
  let phase: 'latency' | 'burst' = 'latency';
  const latencies: number[] = [];
  let burstReceived = 0;
  let burstLastAt = 0;
  try {
    // subscribers join in batches to keep the join burst reasonable
    for (let i = 0; i < SUBSCRIBERS; i += 50) {
      const batch: Promise<void>[] = [];
      for (let j = i; j < Math.min(SUBSCRIBERS, i + 50); j++) {
        const client = newClient();
        clients.push(client);
        const channel = client.channel(topic).on('broadcast', { event: 'tick' }, (msg: { payload: { t: number } }) => {
          const t = now();
          if (phase === 'latency') latencies.push(t - msg.payload.t);
          else {
            burstReceived++;
            burstLastAt = t;
          }
        });
        batch.push(joined(channel));
      }
      await Promise.all(batch);
    }
    const senderClient = newClient();
    clients.push(senderClient);
    const sender = senderClient.channel(topic);
    await joined(sender);
    console.log(`realtime fan-out: ${SUBSCRIBERS} subscribers (vsn ${VSN}) joined topic ${topic}`);

    // warm-up
    for (let i = 0; i < 20; i++) await sender.send({ type: 'broadcast', event: 'tick', payload: { t: now(), warmup: true } });
    await sleep(500);
    latencies.length = 0;

    // latency phase
    const interval = 1000 / RATE;
    const start = now();
    for (let seq = 0; seq < MESSAGES; seq++) {
      const due = start + seq * interval;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      await sender.send({ type: 'broadcast', event: 'tick', payload: { seq, t: now(), text: 'Hallo zusammen, neue Nachricht im Projektchat' } });
    }
    const expected = MESSAGES * SUBSCRIBERS;
    const deadline = now() + 10_000;
    while (latencies.length < expected && now() < deadline) await sleep(50);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`latency phase: ${MESSAGES} messages at ${RATE}/s → ${latencies.length}/${expected} deliveries`);
    console.log(
      `  fan-out latency ms: p50 ${percentile(sorted, 50).toFixed(2)}  p90 ${percentile(sorted, 90).toFixed(2)}  ` +
        `p99 ${percentile(sorted, 99).toFixed(2)}  max ${sorted[sorted.length - 1]?.toFixed(2)}  (target p99 ≤ 50)`,
    );

    // throughput phase
    phase = 'burst';
    const burstStart = now();
    for (let seq = 0; seq < BURST; seq++) {
      await sender.send({ type: 'broadcast', event: 'tick', payload: { seq, t: now(), text: 'Hallo zusammen, neue Nachricht im Projektchat' } });
    }
    const burstExpected = BURST * SUBSCRIBERS;
    const burstDeadline = now() + 30_000;
    while (burstReceived < burstExpected && now() < burstDeadline) await sleep(20);
    const seconds = (burstLastAt - burstStart) / 1000;
    console.log(`throughput phase: ${BURST} messages back to back → ${burstReceived}/${burstExpected} deliveries in ${seconds.toFixed(2)} s`);
    console.log(`  delivered: ${Math.round(burstReceived / seconds)} messages/s (${(BURST / seconds).toFixed(0)} broadcasts/s × ${SUBSCRIBERS} subscribers)`);
  } finally {
    await Promise.all(clients.map((c) => c.disconnect().catch(() => undefined)));
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
