/**
 * Contract tests of the local Realtime service (issue 3, Realtime), driven by supabase-js
 * (realtime-js, serializer vsn 2.0.0 by default, 1.0.0 on request) and raw `ws` sockets for the
 * Phoenix frames themselves (vsn 1.0.0 JSON objects, vsn 2.0.0 arrays and binary broadcasts,
 * malformed input). Users are minted as JWTs (role authenticated, random sub).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { chromium } from 'playwright-core';
import pg from 'pg';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { stackConfig } from '../config.ts';
import { signJwt } from '../jwt.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';

const config = stackConfig();
const WS_URL = `${config.apiUrl.replace(/^http/, 'ws')}/realtime/v1/websocket`;
const clients: SupabaseClient[] = [];
const rawSockets: RawSocket[] = [];
let db: pg.Client;

// ---------------------------------------------------------------- helpers

function rtClient(options: { vsn?: '1.0.0' | '2.0.0'; key?: string; params?: Record<string, string> } = {}): SupabaseClient {
  const client = createClient(config.apiUrl, options.key ?? config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: {
      transport: WebSocket as unknown as typeof globalThis.WebSocket,
      ...(options.vsn ? { vsn: options.vsn } : {}),
      ...(options.params ? { params: options.params } : {}),
    },
  });
  clients.push(client);
  return client;
}

async function userClient(options: { vsn?: '1.0.0' | '2.0.0'; sub?: string; expiresIn?: number } = {}) {
  const sub = options.sub ?? randomUUID();
  const token = await signJwt({ sub, role: 'authenticated', aud: 'authenticated' }, config.jwtSecret, options.expiresIn ?? 3600);
  const client = rtClient({ vsn: options.vsn });
  await client.realtime.setAuth(token);
  return { client, sub, token };
}

/** Subscribes and resolves on SUBSCRIBED; rejects with the status and error otherwise. */
function subscribe(channel: RealtimeChannel, timeoutMs = 8000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe timed out (test)')), timeoutMs);
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') {
        clearTimeout(timer);
        resolve();
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        clearTimeout(timer);
        reject(Object.assign(new Error(`${status}: ${err?.message ?? ''}`), { status }));
      }
    });
  });
}

/** Collects values and waits for them. */
class Inbox<T> {
  readonly items: T[] = [];
  private waiters: (() => void)[] = [];
  readonly push = (item: T): void => {
    this.items.push(item);
    for (const w of this.waiters.splice(0)) w();
  };
  async until(pred: (items: T[]) => boolean, timeoutMs = 6000, what = 'messages'): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.items)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.items).slice(0, 800)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.items;
  }
  count(n: number, timeoutMs?: number): Promise<T[]> {
    return this.until((xs) => xs.length >= n, timeoutMs, `${n} messages`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` until it holds. */
async function waitUntil(cond: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

type Frame = { joinRef: string | null; ref: string | null; topic: string; event: string; payload: Record<string, unknown> };

/** A raw Phoenix client over `ws` (vsn 1.0.0 objects or 2.0.0 arrays/binary). */
class RawSocket {
  readonly frames = new Inbox<Frame>();
  readonly binary = new Inbox<Buffer>();
  closed: { code: number; reason: string } | null = null;
  private ref = 0;
  private constructor(
    readonly ws: WebSocket,
    readonly vsn: '1.0.0' | '2.0.0',
  ) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return this.binary.push(data);
      const parsed = JSON.parse(data.toString('utf8')) as unknown;
      if (Array.isArray(parsed)) {
        const [joinRef, ref, topic, event, payload] = parsed as [string | null, string | null, string, string, Record<string, unknown>];
        this.frames.push({ joinRef, ref, topic, event, payload });
      } else {
        const o = parsed as { join_ref?: string | null; ref: string | null; topic: string; event: string; payload: Record<string, unknown> };
        this.frames.push({ joinRef: o.join_ref ?? null, ref: o.ref, topic: o.topic, event: o.event, payload: o.payload });
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  static open(vsn: '1.0.0' | '2.0.0', extra: Record<string, string> = {}): Promise<RawSocket> {
    const qs = new URLSearchParams({ apikey: config.anonKey, vsn, ...extra });
    const ws = new WebSocket(`${WS_URL}?${qs}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        const s = new RawSocket(ws, vsn);
        rawSockets.push(s);
        resolve(s);
      });
      ws.once('error', reject);
    });
  }

  nextRef(): string {
    return String(++this.ref);
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Sends a message; returns its ref. */
  send(topic: string, event: string, payload: unknown, joinRef: string | null = null): string {
    const ref = this.nextRef();
    this.ws.send(
      this.vsn === '2.0.0'
        ? JSON.stringify([joinRef, ref, topic, event, payload])
        : JSON.stringify({ topic, event, payload, ref, join_ref: joinRef }),
    );
    return ref;
  }

  async reply(ref: string, timeoutMs = 5000): Promise<Frame> {
    const items = await this.frames.until((xs) => xs.some((f) => f.event === 'phx_reply' && f.ref === ref), timeoutMs, `reply ${ref}`);
    return items.find((f) => f.event === 'phx_reply' && f.ref === ref)!;
  }

  async join(topic: string, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<{ joinRef: string; reply: Frame }> {
    const ref = this.nextRef();
    const payload = { config: { broadcast: { self: false, ack: false }, presence: { key: '', enabled: false }, private: false, ...config }, ...extra };
    this.ws.send(this.vsn === '2.0.0' ? JSON.stringify([ref, ref, topic, 'phx_join', payload]) : JSON.stringify({ topic, event: 'phx_join', payload, ref, join_ref: ref }));
    return { joinRef: ref, reply: await this.reply(ref) };
  }

  heartbeat(): Promise<Frame> {
    return this.reply(this.send('phoenix', 'heartbeat', {}));
  }

  close(): void {
    this.ws.close();
  }
}

/** Decodes a vsn 2.0.0 user broadcast frame (kind 4). */
function decodeUserBroadcast(buf: Buffer) {
  expect(buf[0]).toBe(4);
  const [topicLen, eventLen, metaLen, encoding] = [buf[1]!, buf[2]!, buf[3]!, buf[4]!];
  let off = 5;
  const topic = buf.toString('utf8', off, (off += topicLen));
  const event = buf.toString('utf8', off, (off += eventLen));
  const meta = metaLen ? (JSON.parse(buf.toString('utf8', off, (off += metaLen))) as Record<string, unknown>) : null;
  const body = buf.subarray(off);
  return { topic, event, meta, encoding, payload: encoding === 1 ? (JSON.parse(body.toString('utf8')) as unknown) : body };
}

/** Encodes a vsn 2.0.0 user broadcast push (kind 3), as realtime-js does. */
function encodeUserBroadcastPush(joinRef: string, ref: string, topic: string, event: string, payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload));
  const header = Buffer.from([3, joinRef.length, ref.length, topic.length, event.length, 0, 1]);
  return Buffer.concat([header, Buffer.from(joinRef + ref + topic + event), body]);
}

const topicName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
});

afterAll(async () => {
  for (const s of rawSockets) s.close();
  await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => undefined)));
  await db?.end();
});

// ---------------------------------------------------------------- broadcast

describe('broadcast', () => {
  it('delivers a message from one realtime-js client (vsn 2.0.0) to every other subscriber, not to the sender', async () => {
    const topic = topicName('bc');
    const inboxes = [new Inbox<Record<string, unknown>>(), new Inbox<Record<string, unknown>>(), new Inbox<Record<string, unknown>>()];
    const channels = inboxes.map((inbox) => rtClient().channel(topic).on('broadcast', { event: 'cursor' }, (m) => inbox.push(m)));
    await Promise.all(channels.map((c) => subscribe(c)));
    expect(channels[0]!.socket.vsn).toBe('2.0.0');

    expect(await channels[0]!.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2, name: 'Jürgen' } })).toBe('ok');
    const [b] = await inboxes[1]!.count(1);
    const [c] = await inboxes[2]!.count(1);
    expect(b).toEqual({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2, name: 'Jürgen' } });
    expect(c).toEqual(b);
    await sleep(200);
    expect(inboxes[0]!.items).toEqual([]);
  });

  it('only delivers to bindings of the sent event and keeps topics apart', async () => {
    const topic = topicName('bc-events');
    const other = rtClient().channel(topicName('bc-other'));
    const otherInbox = new Inbox<unknown>();
    other.on('broadcast', { event: '*' }, otherInbox.push);
    const inboxA = new Inbox<unknown>();
    const inboxAll = new Inbox<unknown>();
    const receiver = rtClient().channel(topic).on('broadcast', { event: 'a' }, inboxA.push).on('broadcast', { event: '*' }, inboxAll.push);
    const sender = rtClient().channel(topic);
    await Promise.all([subscribe(receiver), subscribe(sender), subscribe(other)]);
    await sender.send({ type: 'broadcast', event: 'b', payload: { n: 1 } });
    await sender.send({ type: 'broadcast', event: 'a', payload: { n: 2 } });
    await inboxAll.count(2);
    await inboxA.count(1);
    expect(inboxA.items).toEqual([{ type: 'broadcast', event: 'a', payload: { n: 2 } }]);
    await sleep(200);
    expect(otherInbox.items).toEqual([]);
  });

  it('honours self and ack', async () => {
    const topic = topicName('bc-self');
    const inbox = new Inbox<Record<string, unknown>>();
    const channel = rtClient().channel(topic, { config: { broadcast: { self: true, ack: true } } }).on('broadcast', { event: 'ping' }, inbox.push);
    await subscribe(channel);
    expect(await channel.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    const [m] = await inbox.count(1);
    expect(m).toEqual({ type: 'broadcast', event: 'ping', payload: { n: 1 } });
  });

  it('works across serializer versions (realtime-js vsn 1.0.0, vsn 2.0.0 and raw sockets of both versions)', async () => {
    const topic = topicName('bc-vsn');
    const v1 = rtClient({ vsn: '1.0.0' });
    const v2 = rtClient();
    const inboxV1 = new Inbox<Record<string, unknown>>();
    const inboxV2 = new Inbox<Record<string, unknown>>();
    const chV1 = v1.channel(topic).on('broadcast', { event: '*' }, inboxV1.push);
    const chV2 = v2.channel(topic).on('broadcast', { event: '*' }, inboxV2.push);
    await Promise.all([subscribe(chV1), subscribe(chV2)]);
    expect(chV1.socket.vsn).toBe('1.0.0');
    const rawV1 = await RawSocket.open('1.0.0');
    const rawV2 = await RawSocket.open('2.0.0');
    const j1 = await rawV1.join(`realtime:${topic}`);
    const j2 = await rawV2.join(`realtime:${topic}`);
    expect(j1.reply.payload).toEqual({ status: 'ok', response: { postgres_changes: [] } });
    expect(j2.reply.payload).toEqual({ status: 'ok', response: { postgres_changes: [] } });

    // realtime-js vsn 2 sends a binary user broadcast push
    await chV2.send({ type: 'broadcast', event: 'from-v2', payload: { a: 1 } });
    await inboxV1.count(1);
    expect(inboxV1.items[0]).toEqual({ type: 'broadcast', event: 'from-v2', payload: { a: 1 } });
    const v1Frames = await rawV1.frames.until((xs) => xs.some((f) => f.event === 'broadcast'));
    expect(v1Frames.find((f) => f.event === 'broadcast')).toMatchObject({
      topic: `realtime:${topic}`,
      ref: null,
      payload: { type: 'broadcast', event: 'from-v2', payload: { a: 1 } },
    });
    const [bin] = await rawV2.binary.count(1);
    expect(decodeUserBroadcast(bin!)).toEqual({ topic: `realtime:${topic}`, event: 'from-v2', meta: null, encoding: 1, payload: { a: 1 } });

    // a raw vsn 1.0.0 client sends a JSON broadcast
    rawV1.send(`realtime:${topic}`, 'broadcast', { type: 'broadcast', event: 'from-v1', payload: { b: 2 } }, j1.joinRef);
    await inboxV2.until((xs) => xs.some((m) => m.event === 'from-v1'));
    expect(inboxV2.items.find((m) => m.event === 'from-v1')).toEqual({ type: 'broadcast', event: 'from-v1', payload: { b: 2 } });
    await inboxV1.until((xs) => xs.some((m) => m.event === 'from-v1'));
    const v2Text = await rawV2.frames.until((xs) => xs.some((f) => f.event === 'broadcast'));
    expect(v2Text.find((f) => f.event === 'broadcast')).toMatchObject({ joinRef: null, ref: null, payload: { event: 'from-v1', payload: { b: 2 } } });

    // a raw vsn 2.0.0 client sends a binary user broadcast push, with ack requested via join config
    rawV2.sendRaw(encodeUserBroadcastPush(j2.joinRef, '99', `realtime:${topic}`, 'from-raw-v2', { c: 3 }));
    await inboxV1.until((xs) => xs.some((m) => m.event === 'from-raw-v2'));
    await inboxV2.until((xs) => xs.some((m) => m.event === 'from-raw-v2'));
    expect(inboxV2.items.find((m) => m.event === 'from-raw-v2')).toEqual({ type: 'broadcast', event: 'from-raw-v2', payload: { c: 3 } });
  });

  it('acks a raw vsn 2.0.0 binary push when ack is configured', async () => {
    const raw = await RawSocket.open('2.0.0');
    const topic = `realtime:${topicName('bc-ack')}`;
    const { joinRef } = await raw.join(topic, { broadcast: { self: true, ack: true } });
    raw.sendRaw(encodeUserBroadcastPush(joinRef, '77', topic, 'evt', { ok: true }));
    const reply = await raw.reply('77');
    expect(reply).toMatchObject({ joinRef, topic, payload: { status: 'ok', response: {} } });
    const [bin] = await raw.binary.count(1);
    expect(decodeUserBroadcast(bin!).payload).toEqual({ ok: true });
  });

  it('accepts REST broadcasts (POST /realtime/v1/api/broadcast) with 202 and validates them with 422', async () => {
    const topic = topicName('bc-rest');
    const inbox = new Inbox<Record<string, unknown>>();
    const channel = rtClient().channel(topic).on('broadcast', { event: 'news' }, inbox.push);
    await subscribe(channel);
    const url = `${config.apiUrl}/realtime/v1/api/broadcast`;
    const headers = { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' };
    const ok = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ messages: [{ topic, event: 'news', payload: { n: 1 } }] }) });
    expect(ok.status).toBe(202);
    expect(await ok.text()).toBe('');
    const [m] = await inbox.count(1);
    expect(m).toEqual({ type: 'broadcast', event: 'news', payload: { n: 1 } });

    const bad = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ messages: [{ topic, payload: 'x' }] }) });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ errors: { messages: [{ event: ["can't be blank"], payload: ['is invalid'] }] } });
    const empty = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ messages: [] }) });
    expect(empty.status).toBe(422);
    const notJson = await fetch(url, { method: 'POST', headers, body: '{nope' });
    expect(notJson.status).toBe(400);
    const badToken = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer not-a-jwt' },
      body: JSON.stringify({ messages: [{ topic, event: 'news', payload: { n: 2 } }] }),
    });
    expect(badToken.status).toBe(401);
    expect(await badToken.json()).toEqual({ message: 'Unauthorized' });

    // realtime-js httpSend uses the single-message endpoint
    const sender = rtClient().channel(topic);
    expect(await sender.httpSend('news', { n: 3 })).toEqual({ success: true });
    await inbox.count(2);
    expect(inbox.items[1]).toEqual({ type: 'broadcast', event: 'news', payload: { n: 3 } });
    await sleep(200);
    expect(inbox.items).toHaveLength(2);
  });
});

// ---------------------------------------------------------------- presence

describe('presence', () => {
  it('sends presence_state after join and join/leave diffs on track, untrack and disconnect', async () => {
    const topic = topicName('presence');
    const a = rtClient().channel(topic, { config: { presence: { key: 'alice' } } });
    const bClient = rtClient();
    const b = bClient.channel(topic, { config: { presence: { key: 'bob' } } });
    const joinsA = new Inbox<{ key: string; newPresences: Record<string, unknown>[] }>();
    const leavesA = new Inbox<{ key: string; leftPresences: Record<string, unknown>[] }>();
    a.on('presence', { event: 'join' }, joinsA.push).on('presence', { event: 'leave' }, leavesA.push);
    b.on('presence', { event: 'sync' }, () => undefined);
    await subscribe(a);
    expect(await a.track({ status: 'online', city: 'Köln' })).toBe('ok');
    await joinsA.until((xs) => xs.some((j) => j.key === 'alice'));

    // b joins later and gets the current state in presence_state
    await subscribe(b);
    await waitUntil(() => Object.keys(b.presenceState()).includes('alice'), 5000, 'presence_state with alice');
    expect(b.presenceState().alice).toEqual([expect.objectContaining({ status: 'online', city: 'Köln', presence_ref: expect.any(String) })]);

    expect(await b.track({ status: 'busy' })).toBe('ok');
    const bobJoin = (await joinsA.until((xs) => xs.some((j) => j.key === 'bob'))).find((j) => j.key === 'bob')!;
    expect(bobJoin.newPresences).toEqual([expect.objectContaining({ status: 'busy' })]);
    expect(Object.keys(a.presenceState()).sort()).toEqual(['alice', 'bob']);

    // untrack → leave
    expect(await b.untrack()).toBe('ok');
    await leavesA.until((xs) => xs.some((l) => l.key === 'bob'));
    expect(Object.keys(a.presenceState())).toEqual(['alice']);

    // track again, then the socket goes away → leave
    await b.track({ status: 'back' });
    await joinsA.until((xs) => xs.filter((j) => j.key === 'bob').length >= 2);
    await bClient.realtime.disconnect();
    await leavesA.until((xs) => xs.filter((l) => l.key === 'bob').length >= 2);
    expect(Object.keys(a.presenceState())).toEqual(['alice']);
  });

  it('leaves on unsubscribe (phx_leave): presence leave for the others, no more messages', async () => {
    const topic = topicName('presence-leave');
    const stay = rtClient().channel(topic, { config: { presence: { key: 'stay' } } });
    const leaves = new Inbox<{ key: string }>();
    const got = new Inbox<unknown>();
    stay.on('presence', { event: 'leave' }, leaves.push);
    const goClient = rtClient();
    const go = goClient.channel(topic, { config: { presence: { key: 'go' } } }).on('broadcast', { event: '*' }, got.push);
    go.on('presence', { event: 'sync' }, () => undefined);
    await Promise.all([subscribe(stay), subscribe(go)]);
    await go.track({ here: true });
    await waitUntil(() => 'go' in stay.presenceState(), 5000, 'go tracked');
    expect(await goClient.removeChannel(go)).toBe('ok');
    await leaves.until((xs) => xs.some((l) => l.key === 'go'));
    await stay.send({ type: 'broadcast', event: 'after', payload: {} });
    await sleep(300);
    expect(got.items).toEqual([]);
  });

  it('makes a silent socket leave after the heartbeat timeout', async () => {
    const topic = `realtime:${topicName('presence-timeout')}`;
    const watcher = await RawSocket.open('1.0.0');
    await watcher.join(topic, { presence: { key: 'watcher', enabled: true } });
    const silent = await RawSocket.open('2.0.0', { idle_timeout_ms: '1000' });
    const { joinRef } = await silent.join(topic, { presence: { key: 'sleepy', enabled: true } });
    const state = await silent.frames.until((xs) => xs.some((f) => f.event === 'presence_state'));
    expect(state.find((f) => f.event === 'presence_state')!.joinRef).toBe(joinRef);
    const trackRef = silent.send(topic, 'presence', { type: 'presence', event: 'track', payload: { mood: 'tired' } }, joinRef);
    expect((await silent.reply(trackRef)).payload).toEqual({ status: 'ok', response: {} });
    const diffs = await watcher.frames.until((xs) => xs.some((f) => f.event === 'presence_diff' && 'sleepy' in (f.payload.joins as object)));
    const joinDiff = diffs.find((f) => f.event === 'presence_diff')!;
    expect(joinDiff.payload.joins).toEqual({ sleepy: { metas: [{ mood: 'tired', phx_ref: expect.any(String) }] } });
    // no heartbeat from `silent` from now on; the watcher keeps beating
    const beat = setInterval(() => void watcher.heartbeat().catch(() => undefined), 300);
    try {
      await watcher.frames.until((xs) => xs.some((f) => f.event === 'presence_diff' && 'sleepy' in (f.payload.leaves as object)), 5000);
    } finally {
      clearInterval(beat);
    }
    await waitUntil(() => silent.closed !== null, 2000, 'silent socket closed');
  });
});

// ---------------------------------------------------------------- private channels

describe('private channels (RLS on realtime.messages)', () => {
  const policy = `rt_test_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    // topic `room:<owner>:<guest>`: owner and guest may receive, only the owner may send
    await db.query(`create policy ${policy}_read on realtime.messages for select to authenticated
      using (realtime.topic() like 'room:%' and (split_part(realtime.topic(), ':', 2) = auth.uid()::text or split_part(realtime.topic(), ':', 3) = auth.uid()::text))`);
    await db.query(`create policy ${policy}_write on realtime.messages for insert to authenticated
      with check (realtime.topic() like 'room:%' and split_part(realtime.topic(), ':', 2) = auth.uid()::text)`);
  });
  afterAll(async () => {
    await db.query(`drop policy if exists ${policy}_read on realtime.messages`);
    await db.query(`drop policy if exists ${policy}_write on realtime.messages`);
  });

  it('admits readers, refuses others with Realtime\'s Unauthorized error, and checks every send against the insert policy', async () => {
    const owner = await userClient();
    const guest = await userClient();
    const stranger = await userClient();
    const topic = `room:${owner.sub}:${guest.sub}`;
    const ownerInbox = new Inbox<Record<string, unknown>>();
    const guestInbox = new Inbox<Record<string, unknown>>();
    const ownerCh = owner.client.channel(topic, { config: { private: true, broadcast: { ack: true } } }).on('broadcast', { event: '*' }, ownerInbox.push);
    const guestCh = guest.client.channel(topic, { config: { private: true, broadcast: { ack: true } } }).on('broadcast', { event: '*' }, guestInbox.push);
    await Promise.all([subscribe(ownerCh), subscribe(guestCh)]);

    const strangerCh = stranger.client.channel(topic, { config: { private: true } });
    await expect(subscribe(strangerCh)).rejects.toThrow(`CHANNEL_ERROR: Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`);
    await stranger.client.removeChannel(strangerCh);

    // anon (no user token) is refused too
    const anonCh = rtClient().channel(topic, { config: { private: true } });
    await expect(subscribe(anonCh)).rejects.toThrow('Unauthorized');

    // the owner may send; the guest receives
    expect(await ownerCh.send({ type: 'broadcast', event: 'msg', payload: { text: 'Hallo' } })).toBe('ok');
    await guestInbox.count(1);
    expect(guestInbox.items[0]).toEqual({ type: 'broadcast', event: 'msg', payload: { text: 'Hallo' } });

    // the guest may read but not write: the server drops the message without an ack
    expect(await guestCh.send({ type: 'broadcast', event: 'msg', payload: { text: 'nope' } }, { timeout: 1500 })).toBe('timed out');
    await sleep(200);
    expect(ownerInbox.items).toEqual([]);

    // a public channel of the same name is a different channel
    const publicInbox = new Inbox<unknown>();
    const publicCh = rtClient().channel(topic).on('broadcast', { event: '*' }, publicInbox.push);
    await subscribe(publicCh);
    await ownerCh.send({ type: 'broadcast', event: 'msg', payload: { text: 'second' } });
    await guestInbox.count(2);
    await sleep(200);
    expect(publicInbox.items).toEqual([]);

    // the authorisation probes (rolled back) left nothing in realtime.messages
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from realtime.messages where topic = $1', [topic]);
    expect(rows[0]!.n).toBe(0);
  });

  it('authorises presence in private channels: read policy to see it, insert policy to track', async () => {
    const owner = await userClient();
    const guest = await userClient();
    const topic = `room:${owner.sub}:${guest.sub}`;
    const ownerCh = owner.client.channel(topic, { config: { private: true, presence: { key: 'owner' } } }).on('presence', { event: 'sync' }, () => undefined);
    const guestCh = guest.client.channel(topic, { config: { private: true, presence: { key: 'guest' } } }).on('presence', { event: 'sync' }, () => undefined);
    await Promise.all([subscribe(ownerCh), subscribe(guestCh)]);
    expect(await ownerCh.track({ online: true })).toBe('ok');
    await waitUntil(() => 'owner' in guestCh.presenceState(), 5000, 'guest sees owner');
    expect(await guestCh.track({ online: true })).toBe('error');
    await sleep(200);
    expect(Object.keys(ownerCh.presenceState())).toEqual(['owner']);
  });

  it('authorises private REST broadcasts with the caller\'s token', async () => {
    const owner = await userClient();
    const guest = await userClient();
    const topic = `room:${owner.sub}:${guest.sub}`;
    const inbox = new Inbox<Record<string, unknown>>();
    const guestCh = guest.client.channel(topic, { config: { private: true } }).on('broadcast', { event: '*' }, inbox.push);
    await subscribe(guestCh);
    const post = (token: string, text: string) =>
      fetch(`${config.apiUrl}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ topic, event: 'rest', payload: { text }, private: true }] }),
      });
    expect((await post(guest.token, 'from guest')).status).toBe(202);
    expect((await post(owner.token, 'from owner')).status).toBe(202);
    await inbox.count(1);
    await sleep(300);
    expect(inbox.items).toEqual([{ type: 'broadcast', event: 'rest', payload: { text: 'from owner' } }]);
  });
});

// ---------------------------------------------------------------- broadcast from database

describe('broadcast from database', () => {
  const policy = `rt_test_db_${randomUUID().slice(0, 8)}`;
  const table = `rt_test_items_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    await db.query(`create policy ${policy} on realtime.messages for select to authenticated
      using (realtime.topic() = 'inbox:' || auth.uid()::text)`);
    await db.query(`create table public.${table} (id bigint generated always as identity primary key, owner uuid not null, title text)`);
    await db.query(`create function public.${table}_notify() returns trigger language plpgsql security definer as $$
      begin
        perform realtime.broadcast_changes('inbox:' || coalesce(new.owner, old.owner)::text, tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
        return null;
      end $$`);
    await db.query(`create trigger ${table}_notify after insert or update or delete on public.${table} for each row execute function public.${table}_notify()`);
  });
  afterAll(async () => {
    await db.query(`drop table if exists public.${table}`);
    await db.query(`drop function if exists public.${table}_notify()`);
    await db.query(`drop policy if exists ${policy} on realtime.messages`);
  });

  it('delivers realtime.send() rows to the subscribers of the topic (public and private kept apart)', async () => {
    const topic = topicName('db-public');
    const v2 = new Inbox<Record<string, unknown>>();
    const v1 = new Inbox<Record<string, unknown>>();
    const chV2 = rtClient().channel(topic).on('broadcast', { event: 'db-event' }, v2.push);
    const chV1 = rtClient({ vsn: '1.0.0' }).channel(topic).on('broadcast', { event: 'db-event' }, v1.push);
    await Promise.all([subscribe(chV2), subscribe(chV1)]);
    await db.query(`select realtime.send($1::jsonb, 'db-event', $2, false)`, [JSON.stringify({ text: 'vom Server', n: 1 }), topic]);
    await db.query(`select realtime.send($1::jsonb, 'db-event', $2, true)`, [JSON.stringify({ text: 'private only' }), topic]);
    const [m2] = await v2.count(1);
    const [m1] = await v1.count(1);
    expect(m2).toEqual({ type: 'broadcast', event: 'db-event', payload: { text: 'vom Server', n: 1, id: expect.any(String) }, meta: { id: expect.any(String) } });
    expect((m2!.payload as { id: string }).id).toBe((m2!.meta as { id: string }).id);
    expect(m1).toEqual(m2);
    await sleep(300);
    expect(v2.items).toHaveLength(1);
  });

  it('realtime.send() never raises: without an insert policy it only warns and nothing is sent', async () => {
    const topic = topicName('db-denied');
    const inbox = new Inbox<unknown>();
    const ch = rtClient().channel(topic).on('broadcast', { event: '*' }, inbox.push);
    await subscribe(ch);
    const warnings: string[] = [];
    const onNotice = (n: { message?: string }) => warnings.push(n.message ?? '');
    db.on('notice', onNotice);
    try {
      await db.query('begin');
      await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: 'authenticated', sub: randomUUID() })]);
      await db.query(`select realtime.send('{"x":1}'::jsonb, 'denied', $1, false)`, [topic]);
      await db.query('commit');
    } finally {
      db.off('notice', onNotice);
    }
    expect(warnings.some((w) => w.startsWith('WarnSendingBroadcastMessage: new row violates row-level security policy'))).toBe(true);
    await sleep(400);
    expect(inbox.items).toEqual([]);
  });

  it('replays recent private messages on join (config.broadcast.replay) without delivering them twice', async () => {
    const owner = await userClient();
    const topic = `inbox:${owner.sub}`;
    const since = Date.now() - 60_000;
    await db.query(`select realtime.send('{"n":1}'::jsonb, 'old', $1, true)`, [topic]);
    await db.query(`select realtime.send('{"n":2}'::jsonb, 'old', $1, true)`, [topic]);
    const inbox = new Inbox<Record<string, unknown>>();
    const system = new Inbox<Record<string, unknown>>();
    const ch = owner.client
      .channel(topic, { config: { private: true, broadcast: { replay: { since, limit: 10 }, replication_ready: true } } })
      .on('broadcast', { event: '*' }, inbox.push)
      .on('system', {}, system.push);
    await subscribe(ch);
    await inbox.count(2);
    expect(inbox.items.map((m) => [m.event, (m.payload as { n: number }).n, (m.meta as { replayed: boolean }).replayed])).toEqual([
      ['old', 1, true],
      ['old', 2, true],
    ]);
    const [ready] = await system.count(1);
    expect(ready).toMatchObject({ extension: 'system', status: 'ok', message: 'Replication connection established' });
    await db.query(`select realtime.send('{"n":3}'::jsonb, 'new', $1, true)`, [topic]);
    await inbox.count(3);
    await sleep(300);
    expect(inbox.items).toHaveLength(3);
    expect(inbox.items[2]).toMatchObject({ event: 'new', payload: { n: 3 }, meta: { id: expect.any(String) } });

    // replay is refused on public channels
    const raw = await RawSocket.open('1.0.0');
    const { reply } = await raw.join(`realtime:${topicName('public-replay')}`, { broadcast: { replay: { since } } });
    expect(reply.payload).toEqual({ status: 'error', response: { reason: 'UnableToReplayMessages: Replay is not allowed for public channels' } });
  });

  it('delivers realtime.broadcast_changes() from a trigger to authorised private subscribers only', async () => {
    const owner = await userClient();
    const other = await userClient();
    const inbox = new Inbox<Record<string, unknown>>();
    const ch = owner.client.channel(`inbox:${owner.sub}`, { config: { private: true } }).on('broadcast', { event: '*' }, inbox.push);
    await subscribe(ch);
    const otherCh = other.client.channel(`inbox:${owner.sub}`, { config: { private: true } });
    await expect(subscribe(otherCh)).rejects.toThrow('Unauthorized');

    const { rows } = await db.query<{ id: string }>(`insert into public.${table} (owner, title) values ($1, 'Projekt') returning id`, [owner.sub]);
    await db.query(`update public.${table} set title = 'Projekt 2' where id = $1`, [rows[0]!.id]);
    await inbox.count(2);
    const [ins, upd] = inbox.items;
    expect(ins).toMatchObject({
      type: 'broadcast',
      event: 'INSERT',
      payload: { operation: 'INSERT', schema: 'public', table, record: { owner: owner.sub, title: 'Projekt' }, old_record: null },
    });
    expect(upd).toMatchObject({ event: 'UPDATE', payload: { operation: 'UPDATE', record: { title: 'Projekt 2' }, old_record: { title: 'Projekt' } } });
  });
});

// ---------------------------------------------------------------- postgres_changes

describe('postgres_changes', () => {
  const table = `rt_test_notes_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    await db.query(`create table public.${table} (id bigint generated always as identity primary key, owner uuid not null, body text, priority int not null default 0, meta jsonb, done boolean default false, created_at timestamptz default now())`);
    await db.query(`alter table public.${table} enable row level security`);
    await db.query(`create policy own_rows on public.${table} for select to authenticated using (owner = auth.uid())`);
    await db.query(`grant select on public.${table} to anon, authenticated`);
    // deletes carry the whole old row; with RLS the payload still holds only the primary key
    await db.query(`alter table public.${table} replica identity full`);
    await db.query(`alter publication supabase_realtime add table public.${table}`);
  });
  afterAll(async () => {
    await db.query(`alter publication supabase_realtime drop table public.${table}`).catch(() => undefined);
    await db.query(`drop table if exists public.${table}`);
  });

  it('streams INSERT/UPDATE to subscribers allowed by RLS and DELETE to all (primary key only), with the binding ids of the join reply', async () => {
    const alice = await userClient();
    const bob = await userClient();
    const all = new Inbox<Record<string, unknown>>();
    const inserts = new Inbox<Record<string, unknown>>();
    const system = new Inbox<Record<string, unknown>>();
    const ch = alice.client
      .channel(topicName('pg'))
      .on('postgres_changes', { event: '*', schema: 'public', table }, all.push)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, inserts.push)
      .on('system', {}, system.push);
    const bobInbox = new Inbox<Record<string, unknown>>();
    const bobCh = bob.client.channel(topicName('pg')).on('postgres_changes', { event: '*', schema: 'public', table }, bobInbox.push);
    await Promise.all([subscribe(ch), subscribe(bobCh)]);
    await system.until((xs) => xs.some((s) => s.message === 'Subscribed to PostgreSQL'));
    expect(system.items[0]).toMatchObject({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' });

    const { rows } = await db.query<{ id: string }>(`insert into public.${table} (owner, body, priority, meta) values ($1, 'Notiz', 3, '{"tags":["a"]}') returning id`, [alice.sub]);
    const id = Number(rows[0]!.id);
    // RLS is checked against the row as it is in the table when the change is delivered (as
    // Realtime does), so each step waits for the previous change.
    await all.count(1);
    await db.query(`update public.${table} set body = 'Notiz 2', done = true where id = $1`, [id]);
    await all.count(2);
    await db.query(`delete from public.${table} where id = $1`, [id]);
    await all.count(3);
    const [ins, upd, del] = all.items;
    expect(ins).toMatchObject({
      schema: 'public',
      table,
      eventType: 'INSERT',
      new: { id, owner: alice.sub, body: 'Notiz', priority: 3, meta: { tags: ['a'] }, done: false },
      old: {},
      errors: null,
    });
    expect(typeof ins!.commit_timestamp).toBe('string');
    expect(upd).toMatchObject({ eventType: 'UPDATE', new: { id, body: 'Notiz 2', done: true }, old: { id } });
    expect(del).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } });
    await inserts.count(1);
    expect(inserts.items[0]).toMatchObject({ eventType: 'INSERT', new: { id } });

    // bob's RLS hides alice's row: no INSERT, no UPDATE; the DELETE reaches him as it reaches every
    // subscriber of hosted Realtime, with the primary key only. A later row of bob's own arrives,
    // so the silence before it is not a timing accident.
    await db.query(`insert into public.${table} (owner, body) values ($1, 'Bobs Notiz')`, [bob.sub]);
    await bobInbox.until((xs) => xs.length > 1);
    expect(bobInbox.items.map((m) => [m.eventType, m.new, m.old])).toEqual([
      ['DELETE', {}, { id }],
      ['INSERT', expect.objectContaining({ owner: bob.sub }), {}],
    ]);
  });

  it('sends the DELETE of an RLS table without a full replica identity with its primary key, and nothing to a role that may not read the table', async () => {
    const narrow = `rt_test_narrow_${randomUUID().slice(0, 8)}`;
    await db.query(`create table public.${narrow} (id bigint generated always as identity primary key, owner uuid not null, secret text)`);
    await db.query(`alter table public.${narrow} enable row level security`);
    await db.query(`create policy own_rows on public.${narrow} for select to authenticated using (owner = auth.uid())`);
    // Supabase's default privileges grant new tables to every API role: take them back
    await db.query(`revoke all on public.${narrow} from anon, authenticated`);
    await db.query(`grant select (id, owner) on public.${narrow} to authenticated`);
    await db.query(`alter publication supabase_realtime add table public.${narrow}`);
    try {
      const alice = await userClient();
      const inbox = new Inbox<Record<string, unknown>>();
      const system = new Inbox<Record<string, unknown>>();
      await subscribe(alice.client.channel(topicName('pg-narrow')).on('postgres_changes', { event: '*', schema: 'public', table: narrow }, inbox.push).on('system', {}, system.push));
      const anonSystem = new Inbox<Record<string, unknown>>();
      const anonInbox = new Inbox<Record<string, unknown>>();
      await subscribe(rtClient({}).channel(topicName('pg-narrow-anon')).on('postgres_changes', { event: '*', schema: 'public', table: narrow }, anonInbox.push).on('system', {}, anonSystem.push));
      await anonSystem.until((xs) => xs.length > 0);
      // anon may not read the table: a generic refusal that names no table
      expect(anonSystem.items[0]).toMatchObject({ extension: 'postgres_changes', status: 'error', message: 'Unable to subscribe to changes with given parameters.' });

      const { rows } = await db.query<{ id: string }>(`insert into public.${narrow} (owner, secret) values ($1, 'geheim') returning id`, [alice.sub]);
      await inbox.until((xs) => xs.length > 0);
      // the payload holds only the columns the role may select
      expect(inbox.items[0]!.new).toEqual({ id: Number(rows[0]!.id), owner: alice.sub });
      await db.query(`delete from public.${narrow} where id = $1`, [rows[0]!.id]);
      await db.query(`insert into public.${narrow} (owner, secret) values ($1, 'zwei')`, [alice.sub]);
      await inbox.until((xs) => xs.length > 2);
      expect(inbox.items.map((m) => m.eventType)).toEqual(['INSERT', 'DELETE', 'INSERT']);
      expect(inbox.items[1]!.old).toEqual({ id: Number(rows[0]!.id) });
      expect(anonInbox.items).toEqual([]);
    } finally {
      await db.query(`alter publication supabase_realtime drop table public.${narrow}`).catch(() => undefined);
      await db.query(`drop table if exists public.${narrow}`);
    }
  });

  it('delivers a DELETE of an RLS table to every subscriber with the primary key only, as hosted Realtime (apply_rls.sql)', async () => {
    // a scratch table with RLS in the publication: each user may only see their own rows
    const scratch = `rt_test_delete_${randomUUID().slice(0, 8)}`;
    await db.query(`create table public.${scratch} (id bigint generated always as identity primary key, owner uuid not null, title text not null)`);
    await db.query(`alter table public.${scratch} enable row level security`);
    await db.query(`create policy own_rows on public.${scratch} for select to authenticated using (owner = auth.uid())`);
    await db.query(`grant select on public.${scratch} to authenticated`);
    await db.query(`alter publication supabase_realtime add table public.${scratch}`);
    try {
      const [alice, bob] = [await userClient(), await userClient()];
      const inboxes = { alice: new Inbox<Record<string, unknown>>(), bob: new Inbox<Record<string, unknown>>(), bobFiltered: new Inbox<Record<string, unknown>>() };
      await subscribe(alice.client.channel(topicName('pg-del-a')).on('postgres_changes', { event: '*', schema: 'public', table: scratch }, inboxes.alice.push));
      await subscribe(
        bob.client
          .channel(topicName('pg-del-b'))
          .on('postgres_changes', { event: 'DELETE', schema: 'public', table: scratch }, inboxes.bob.push)
          // a filter on a column the old tuple lacks (default replica identity): no match
          .on('postgres_changes', { event: 'DELETE', schema: 'public', table: scratch, filter: `owner=eq.${alice.sub}` }, inboxes.bobFiltered.push),
      );
      const { rows } = await db.query<{ id: string }>(`insert into public.${scratch} (owner, title) values ($1, 'Alices Geheimnis') returning id`, [alice.sub]);
      const id = Number(rows[0]!.id);
      await inboxes.alice.count(1);
      await db.query(`delete from public.${scratch} where id = $1`, [id]);
      const [, aliceDelete] = await inboxes.alice.count(2);
      const [bobDelete] = await inboxes.bob.count(1);
      for (const event of [aliceDelete!, bobDelete!]) {
        expect(event).toMatchObject({ schema: 'public', table: scratch, eventType: 'DELETE', new: {}, old: { id }, errors: null });
        expect(event.old).toEqual({ id });
      }
      // a later DELETE reaches bob's unfiltered binding again; the owner filter matched none of them
      await db.query(`insert into public.${scratch} (owner, title) values ($1, 'Bobs'), ($2, 'Noch eins')`, [bob.sub, alice.sub]);
      await db.query(`delete from public.${scratch} where owner = $1`, [bob.sub]);
      await inboxes.bob.count(2);
      await sleep(300);
      expect(inboxes.bobFiltered.items).toEqual([]);
      expect(JSON.stringify(inboxes.bob.items)).not.toContain('Geheimnis');
    } finally {
      await db.query(`alter publication supabase_realtime drop table public.${scratch}`).catch(() => undefined);
      await db.query(`drop table if exists public.${scratch}`);
    }
  });

  it('applies filters eq, neq, lt, lte, gt, gte, in (and like, ilike, not., combined)', async () => {
    const alice = await userClient();
    const filters = [
      'priority=eq.7',
      'priority=neq.7',
      'priority=lt.5',
      'priority=lte.3',
      'priority=gt.5',
      'priority=gte.7',
      'body=in.(alpha,gamma)',
      'body=like.al%',
      'body=ilike.GA%',
      'body=not.in.(alpha,beta)',
      'priority=gt.1,priority=lt.9',
    ];
    const inboxes = filters.map(() => new Inbox<Record<string, unknown>>());
    let ch = alice.client.channel(topicName('pg-filter'));
    filters.forEach((filter, i) => {
      ch = ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table, filter }, inboxes[i]!.push);
    });
    await subscribe(ch);
    for (const [body, priority] of [['alpha', 3], ['beta', 7], ['gamma', 9]] as const) {
      await db.query(`insert into public.${table} (owner, body, priority) values ($1, $2, $3)`, [alice.sub, body, priority]);
    }
    const expected: Record<string, string[]> = {
      'priority=eq.7': ['beta'],
      'priority=neq.7': ['alpha', 'gamma'],
      'priority=lt.5': ['alpha'],
      'priority=lte.3': ['alpha'],
      'priority=gt.5': ['beta', 'gamma'],
      'priority=gte.7': ['beta', 'gamma'],
      'body=in.(alpha,gamma)': ['alpha', 'gamma'],
      'body=like.al%': ['alpha'],
      'body=ilike.GA%': ['gamma'],
      'body=not.in.(alpha,beta)': ['gamma'],
      'priority=gt.1,priority=lt.9': ['alpha', 'beta'],
    };
    for (const [i, filter] of filters.entries()) {
      await inboxes[i]!.count(expected[filter]!.length);
    }
    await sleep(300);
    for (const [i, filter] of filters.entries()) {
      expect({ filter, bodies: inboxes[i]!.items.map((m) => (m.new as { body: string }).body) }).toEqual({ filter, bodies: expected[filter] });
    }
  });

  it('understands quoted filter values with reserved characters (PostgREST-style)', async () => {
    const alice = await userClient();
    const eqInbox = new Inbox<Record<string, unknown>>();
    const inInbox = new Inbox<Record<string, unknown>>();
    const ch = alice.client
      .channel(topicName('pg-quoted'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table, filter: 'body=eq."a,b"' }, eqInbox.push)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table, filter: 'body=in.("x,y",z)' }, inInbox.push);
    await subscribe(ch);
    for (const body of ['a,b', 'a', 'x,y', 'z', 'x']) {
      await db.query(`insert into public.${table} (owner, body, priority) values ($1, $2, 1)`, [alice.sub, body]);
    }
    await eqInbox.count(1);
    await inInbox.count(2);
    await sleep(300);
    expect(eqInbox.items.map((m) => (m.new as { body: string }).body)).toEqual(['a,b']);
    expect(inInbox.items.map((m) => (m.new as { body: string }).body)).toEqual(['x,y', 'z']);
  });

  it('reports bindings it cannot serve in a system message', async () => {
    const alice = await userClient();
    const system = new Inbox<Record<string, unknown>>();
    const ch = alice.client
      .channel(topicName('pg-bad'))
      .on('postgres_changes', { event: '*', schema: 'public', table: 'no_such_table' }, () => undefined)
      .on('system', {}, system.push);
    await subscribe(ch);
    const [msg] = await system.count(1);
    expect(msg).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect(String(msg!.message)).toContain('Unable to subscribe to changes with given parameters');

    const raw = await RawSocket.open('1.0.0');
    const topic = `realtime:${topicName('pg-badfilter')}`;
    const { reply } = await raw.join(topic, { postgres_changes: [{ event: 'INSERT', schema: 'public', table, filter: 'priority=foo.7' }] });
    expect(reply.payload).toMatchObject({ status: 'ok', response: { postgres_changes: [{ event: 'INSERT', schema: 'public', table, filter: 'priority=foo.7', id: expect.any(Number) }] } });
    const frames = await raw.frames.until((xs) => xs.some((f) => f.event === 'system'));
    expect(frames.find((f) => f.event === 'system')!.payload).toMatchObject({
      extension: 'postgres_changes',
      status: 'error',
      message: 'Error parsing `filter` params: ["foo","7"]',
    });

    // a filter value that does not fit the column type, and an unknown filter column
    for (const [filter, expected] of [
      ['priority=eq.abc', 'invalid input syntax for type integer'],
      ['nope=eq.1', 'invalid column for filter nope'],
    ]) {
      const sys = new Inbox<Record<string, unknown>>();
      const c = alice.client.channel(topicName('pg-badvalue')).on('postgres_changes', { event: '*', schema: 'public', table, filter }, () => undefined).on('system', {}, sys.push);
      await subscribe(c);
      const [m] = await sys.count(1);
      expect(m).toMatchObject({ extension: 'postgres_changes', status: 'error', message: expect.stringContaining(expected!) });
    }
  });

  it('limits the payload to the selected columns (plus the primary key)', async () => {
    const alice = await userClient();
    const inbox = new Inbox<Record<string, unknown>>();
    const ch = alice.client.channel(topicName('pg-select')).on('postgres_changes', { event: 'INSERT', schema: 'public', table, select: ['body'] }, inbox.push);
    await subscribe(ch);
    await db.query(`insert into public.${table} (owner, body, priority) values ($1, 'nur body', 5)`, [alice.sub]);
    const [m] = await inbox.count(1);
    expect(Object.keys(m!.new as object).sort()).toEqual(['body', 'id']);
    expect((m!.new as { body: string }).body).toBe('nur body');
  });
});

// ---------------------------------------------------------------- tokens

describe('access tokens', () => {
  it('refuses a join with an expired token (CHANNEL_ERROR with InvalidJWTToken)', async () => {
    const { client } = await userClient({ expiresIn: -30 });
    const ch = client.channel(topicName('expired'));
    await expect(subscribe(ch)).rejects.toThrow(/CHANNEL_ERROR: InvalidJWTToken: Token has expired \d+ seconds ago/);
    await client.removeChannel(ch);
  });

  it('closes the channel when its token expires while joined', async () => {
    const { client } = await userClient({ expiresIn: 2 });
    const system = new Inbox<Record<string, unknown>>();
    const statuses = new Inbox<string>();
    const ch = client.channel(topicName('expiring')).on('system', {}, system.push);
    ch.subscribe((status) => statuses.push(status));
    await statuses.until((xs) => xs.includes('SUBSCRIBED'));
    const [msg] = await system.count(1, 5000);
    expect(msg).toMatchObject({ extension: 'system', status: 'error', message: expect.stringMatching(/^Token has expired \d+ seconds ago$/) });
    await statuses.until((xs) => xs.includes('CLOSED'));
  });

  it('refuses tokens with a bad signature or without role/exp', async () => {
    const raw = await RawSocket.open('2.0.0');
    const forged = await signJwt({ sub: randomUUID(), role: 'authenticated' }, 'another-secret-another-secret-another-secret', 3600);
    const r1 = await raw.join(`realtime:${topicName('forged')}`, {}, { access_token: forged });
    expect(r1.reply.payload).toEqual({ status: 'error', response: { reason: 'JwtSignatureError: Failed to validate JWT signature' } });
    const r2 = await raw.join(`realtime:${topicName('malformed')}`, {}, { access_token: 'abc.def' });
    expect(r2.reply.payload).toEqual({ status: 'error', response: { reason: 'MalformedJWT: The token provided is not a valid JWT' } });
  });

  it('closes the channel with a system error when an expired token is pushed (access_token)', async () => {
    const { client } = await userClient();
    const system = new Inbox<Record<string, unknown>>();
    const statuses = new Inbox<string>();
    const ch = client.channel(topicName('refresh')).on('system', {}, system.push);
    await new Promise<void>((resolve) => {
      ch.subscribe((status) => {
        statuses.push(status);
        if (status === 'SUBSCRIBED') resolve();
      });
    });
    // a valid new token is accepted silently
    const fresh = await signJwt({ sub: randomUUID(), role: 'authenticated' }, config.jwtSecret, 600);
    await client.realtime.setAuth(fresh);
    await sleep(200);
    expect(system.items).toEqual([]);
    const expired = await signJwt({ sub: randomUUID(), role: 'authenticated' }, config.jwtSecret, -10);
    await client.realtime.setAuth(expired);
    const [msg] = await system.count(1);
    expect(msg).toMatchObject({ extension: 'system', status: 'error', message: expect.stringMatching(/^Token has expired \d+ seconds ago$/) });
    await statuses.until((xs) => xs.includes('CLOSED'));
    expect(ch.state).toBe('closed');
  });
});

// ---------------------------------------------------------------- bad input

describe('bad input', () => {
  it('ignores or answers malformed frames and keeps serving', async () => {
    const raw = await RawSocket.open('1.0.0');
    raw.sendRaw('this is not json');
    raw.sendRaw('[1,2,3]');
    raw.sendRaw(JSON.stringify({ topic: 42, event: 'x', payload: {}, ref: '5' }));
    raw.sendRaw(Buffer.from([0xff, 0x00, 0x13]));
    expect((await raw.heartbeat()).payload).toEqual({ status: 'ok', response: {} });

    // a push to a topic that was never joined
    const ref = raw.send('realtime:not-joined', 'broadcast', { type: 'broadcast', event: 'x', payload: {} });
    expect((await raw.reply(ref)).payload).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    // joins outside realtime:* and without a name
    expect((await raw.join('elsewhere')).reply.payload).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    expect((await raw.join('realtime:')).reply.payload).toEqual({ status: 'error', response: { reason: 'TopicNameRequired: You must provide a topic name' } });
    // unknown events on a joined channel are ignored; bad presence payloads get an error reply
    const topic = `realtime:${topicName('bad')}`;
    const { joinRef } = await raw.join(topic, { broadcast: 'yes please', presence: 7, postgres_changes: 'all' });
    raw.send(topic, 'no_such_event', { a: 1 }, joinRef);
    const pres = raw.send(topic, 'presence', { type: 'presence', event: 'track', payload: 'not a map' }, joinRef);
    expect((await raw.reply(pres)).payload).toEqual({ status: 'error', response: { reason: 'Presence track payload must be a map' } });
    const pres2 = raw.send(topic, 'presence', { type: 'presence', event: 'dance' }, joinRef);
    expect((await raw.reply(pres2)).payload).toMatchObject({ status: 'error' });
    const sys = await raw.frames.until((xs) => xs.some((f) => f.event === 'system'));
    expect(sys.find((f) => f.event === 'system')!.payload).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect((await raw.heartbeat()).payload.status).toBe('ok');

    // vsn 2.0.0: wrong array shape, truncated binary push, unknown binary kind
    const raw2 = await RawSocket.open('2.0.0');
    raw2.sendRaw(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' }));
    raw2.sendRaw(Buffer.from([3, 10, 10, 10]));
    raw2.sendRaw(Buffer.from([9, 1, 2, 3]));
    expect((await raw2.heartbeat()).payload.status).toBe('ok');
  });

  it('limits a socket to 100 channels', async () => {
    const raw = await RawSocket.open('2.0.0');
    const base = topicName('many');
    const replies = await Promise.all(Array.from({ length: 101 }, (_, i) => raw.join(`realtime:${base}-${i}`)));
    const errors = replies.filter((r) => r.reply.payload.status === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reply.payload.response).toEqual({ reason: 'ChannelRateLimitReached: Too many channels' });
  });

  it('refuses oversized broadcasts and closes the socket on oversized frames', async () => {
    const raw = await RawSocket.open('1.0.0');
    const topic = `realtime:${topicName('big')}`;
    const { joinRef } = await raw.join(topic, { broadcast: { ack: true, self: true } });
    const ref = raw.send(topic, 'broadcast', { type: 'broadcast', event: 'big', payload: { blob: 'x'.repeat(300 * 1024) } }, joinRef);
    expect((await raw.reply(ref)).payload).toEqual({ status: 'error', response: { reason: 'Payload size exceeded' } });
    raw.sendRaw('x'.repeat(2 * 1024 * 1024));
    await waitUntil(() => raw.closed !== null, 5000, 'close');
    expect(raw.closed!.code).toBe(1009);
    // the server is fine
    const again = await RawSocket.open('1.0.0');
    expect((await again.heartbeat()).payload.status).toBe('ok');
  });

  it('refuses upgrades with an unsupported vsn or a bad api key', async () => {
    const status = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('open', () => reject(new Error('upgrade should have been refused')));
        ws.on('error', () => undefined);
      });
    expect(await status(`${WS_URL}?apikey=${config.anonKey}&vsn=3.0.0`)).toBe(403);
    expect(await status(`${WS_URL}?apikey=wrong&vsn=1.0.0`)).toBe(401);
    expect(await status(`${WS_URL}?vsn=1.0.0`)).toBe(401);
  });
});

// ---------------------------------------------------------------- browser

describe('from a real browser (Chromium, native WebSocket)', () => {
  it('joins, receives and sends broadcasts and sees presence with supabase-js in the page', async () => {
    const umd = createRequire(import.meta.url).resolve('@supabase/supabase-js/dist/umd/supabase.js');
    const server = http.createServer((req, res) => {
      if (req.url === '/supabase.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        fs.createReadStream(umd).pipe(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><script src="/supabase.js"></script></head><body></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const topic = topicName('browser');
      await page.evaluate(
        ([apiUrl, anonKey, t]) =>
          new Promise<void>((resolve, reject) => {
            type Sb = { createClient: (u: string, k: string) => { channel: (t: string, o: unknown) => BrowserChannel } };
            type BrowserChannel = {
              on: (type: string, filter: unknown, cb: (p: unknown) => void) => BrowserChannel;
              subscribe: (cb: (s: string) => void) => void;
              track: (p: unknown) => Promise<string>;
              send: (m: unknown) => Promise<string>;
            };
            const w = window as unknown as { supabase: Sb; received: unknown[]; ch: BrowserChannel };
            w.received = [];
            w.ch = w.supabase
              .createClient(apiUrl!, anonKey!)
              .channel(t!, { config: { presence: { key: 'browser' } } })
              .on('broadcast', { event: '*' }, (m) => w.received.push(m))
              .on('presence', { event: 'sync' }, () => undefined);
            w.ch.subscribe((status) => {
              if (status === 'SUBSCRIBED') void w.ch.track({ agent: 'chromium' }).then(() => resolve());
              else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(new Error(status));
            });
          }),
        [config.apiUrl, config.anonKey, topic],
      );
      const nodeInbox = new Inbox<Record<string, unknown>>();
      const node = rtClient().channel(topic, { config: { presence: { key: 'node' } } }).on('broadcast', { event: '*' }, nodeInbox.push);
      node.on('presence', { event: 'sync' }, () => undefined);
      await subscribe(node);
      await waitUntil(() => 'browser' in node.presenceState(), 5000, 'browser presence');
      expect(node.presenceState().browser).toEqual([expect.objectContaining({ agent: 'chromium' })]);

      await node.send({ type: 'broadcast', event: 'to-browser', payload: { hallo: 'Welt' } });
      await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length > 0, undefined, { timeout: 5000 });
      expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([
        { type: 'broadcast', event: 'to-browser', payload: { hallo: 'Welt' } },
      ]);
      await page.evaluate(() =>
        (window as unknown as { ch: { send: (m: unknown) => Promise<string> } }).ch.send({ type: 'broadcast', event: 'from-browser', payload: { n: 1 } }),
      );
      const [m] = await nodeInbox.count(1);
      expect(m).toEqual({ type: 'broadcast', event: 'from-browser', payload: { n: 1 } });
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
