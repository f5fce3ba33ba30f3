/**
 * Realtime as the product uses it (issue 12 finding 13), through supabase-js against the stack:
 * - chat messages reach members by Broadcast from Database only: no table of the product is in
 *   the publication supabase_realtime (hosted Realtime sends every DELETE of a published table to
 *   all its subscribers with the primary key, supabase/realtime apply_rls.sql; issue 29 §6), so a
 *   postgres_changes subscription to `messages` is refused and carries nothing;
 * - presence: `presence:user:<id>:<epoch>` is readable by that user and accepted contacts (not by
 *   a stranger or a blocked contact), and only the user may track into it; `presence:online`,
 *   which showed every online user to everyone signed in, is gone;
 * - presence after a removal or block (issue 31 §10): hosted Realtime authorises a channel once, at
 *   join, so the removed party stays joined to the old topic; the presence moves to a new topic
 *   (the owner and the remaining contacts hear `presence_moved` and re-join), and the removed
 *   party hears no further diff while a current contact does.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { config, createFixtures, type FixtureUser, type Fixtures, type MatrixRole } from './exposure-support.ts';

let db: pg.Client;
let fx: Fixtures;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  fx = await createFixtures();
});
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await fx?.close();
  await db?.end();
});

/** A realtime client acting as `role` (its access token, or the anon key). */
async function as(role: MatrixRole): Promise<SupabaseClient> {
  const client = createClient(config.apiUrl, config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  if (role !== 'anon') await client.realtime.setAuth(fx[role as Exclude<MatrixRole, 'anon' | 'service_role'>].token);
  clients.push(client);
  return client;
}

/** SUBSCRIBED → 'ok', else the status with the server's reason. */
function join(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), 8000);
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') {
        clearTimeout(timer);
        resolve('ok');
      } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        clearTimeout(timer);
        resolve(`${status}: ${err?.message ?? ''}`);
      }
    });
  });
}

async function until<T>(items: T[], pred: (xs: T[]) => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred(items)) {
    if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(items).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function conversation(...members: string[]): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [members[0]]);
  for (const m of members) await db.query(`insert into public.conversation_members (conversation_id, user_id) values ($1, $2)`, [rows[0]!.id, m]);
  return rows[0]!.id;
}

describe('no product table is published for postgres_changes (issue 29 §6)', () => {
  test('the publication supabase_realtime holds no table of the product', async () => {
    const { rows } = await db.query(`select schemaname, tablename from pg_catalog.pg_publication_tables where pubname = 'supabase_realtime'`);
    expect(rows).toEqual([]);
  });

  test('a subscription to messages is refused and nobody gets an INSERT or DELETE of a message', async () => {
    const conv = await conversation(fx.owner.id, fx.contact.id);
    const seen: unknown[] = [];
    const system: { status: string; message: string }[] = [];
    for (const who of ['contact', 'stranger', 'anon'] as const) {
      const ch = (await as(who)).channel(`pg-messages-${who}-${Date.now()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'messages' }, (m) => seen.push(m))
        .on('system', {}, (m) => system.push(m as never));
      await join(ch);
    }
    await until(system, (xs) => xs.filter((m) => m.status === 'error').length >= 3);
    const { rows } = await db.query<{ id: string }>(`insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Streng vertraulich') returning id`, [conv, fx.owner.id]);
    await db.query(`delete from public.messages where id = $1`, [rows[0]!.id]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(seen).toEqual([]);
  });
});

/** The presence topic of `userId` as `who` may look it up (presence_topic), or null. */
async function presenceTopicAs(who: FixtureUser, userId: string): Promise<string | null> {
  const client = createClient(config.apiUrl, config.anonKey, {
    accessToken: async () => who.token,
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const { data, error } = await client.rpc('presence_topic', { p_user_id: userId });
  if (error) throw new Error(error.message);
  return data as string | null;
}

describe('presence', () => {
  let ownerTopic = '';
  beforeAll(async () => {
    ownerTopic = (await presenceTopicAs(fx.owner, fx.owner.id))!;
    expect(ownerTopic).toMatch(new RegExp(`^presence:user:${fx.owner.id}:\\d+$`));
  });
  const topic = () => ownerTopic;
  const privateChannel = async (who: MatrixRole, t: string) =>
    (await as(who)).channel(t, { config: { private: true, presence: { key: who } } });

  test('presence:user:<id>: the user and accepted contacts read it; a stranger and a blocked contact cannot join', async () => {
    const owner = await privateChannel('owner', topic());
    expect(await join(owner)).toBe('ok');
    await owner.track({ status: 'online' });
    const contact = await privateChannel('contact', topic());
    const state: string[][] = [];
    contact.on('presence', { event: 'sync' }, () => state.push(Object.keys(contact.presenceState())));
    expect(await join(contact)).toBe('ok');
    await until(state, (xs) => xs.some((keys) => keys.includes('owner')));
    for (const who of ['stranger', 'blocked'] as const) {
      expect(await join(await privateChannel(who, topic()))).toMatch(/^CHANNEL_ERROR/);
      expect(await presenceTopicAs(fx[who], fx.owner.id)).toBeNull();
    }
    expect(await presenceTopicAs(fx.contact, fx.owner.id)).toBe(topic());
    // the topic without its epoch, or with another one, is nobody's
    for (const t of [`presence:user:${fx.owner.id}`, `${topic()}1`]) expect(await join(await privateChannel('contact', t))).toMatch(/^CHANNEL_ERROR/);
  });

  test('only the user tracks into their presence topic; presence:online is gone', async () => {
    const contact = await privateChannel('contact', topic());
    expect(await join(contact)).toBe('ok');
    expect(await contact.track({ status: 'impostor' })).not.toBe('ok');
    expect(await join(await privateChannel('stranger', 'presence:online'))).toMatch(/^CHANNEL_ERROR/);
  });
});

describe('presence after a removal or block (issue 31 §10)', () => {
  /** A realtime client of `who`. */
  const clientOf = (who: FixtureUser): SupabaseClient => {
    const client = createClient(config.apiUrl, config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
    void client.realtime.setAuth(who.token);
    clients.push(client);
    return client;
  };
  type Seen = { kind: string; statuses: string[] };
  /** Joins `topic` as a watcher and records every presence event (join/leave with its statuses). */
  const watchTopic = async (client: SupabaseClient, topic: string, seen: Seen[]): Promise<RealtimeChannel> => {
    const ch = client.channel(topic, { config: { private: true } })
      .on('presence', { event: 'join' }, ({ newPresences }) => seen.push({ kind: 'join', statuses: newPresences.map((p) => String(p.status)) }))
      .on('presence', { event: 'leave' }, ({ leftPresences }) => seen.push({ kind: 'leave', statuses: leftPresences.map((p) => String(p.status)) }))
      .on('broadcast', { event: 'sentinel' }, () => seen.push({ kind: 'sentinel', statuses: [] }));
    expect(await join(ch)).toBe('ok');
    return ch;
  };
  /** Records the presence_moved broadcasts on `user:<id>` of `who`. */
  const listenMoves = async (client: SupabaseClient, who: FixtureUser, moved: string[]): Promise<void> => {
    const ch = client.channel(`user:${who.id}`, { config: { private: true } })
      .on('broadcast', { event: 'presence_moved' }, ({ payload }) => moved.push(String(payload.user_id)));
    expect(await join(ch)).toBe('ok');
  };

  test.each([
    ['removes the contact', `delete from public.contacts where requester_id = $2 and addressee_id = $1`],
    ['blocks the contact', `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`],
  ])('the owner %s: the removed party hears nothing further, a current contact still does', async (_name, cut) => {
    const f = await createFixtures();
    try {
      // stranger becomes a second contact, who stays
      await db.query(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'accepted', now())`, [f.stranger.id, f.owner.id]);
      const [ownerClient, removedClient, keeperClient] = [clientOf(f.owner), clientOf(f.contact), clientOf(f.stranger)];
      const ownerMoves: string[] = [];
      const keeperMoves: string[] = [];
      await listenMoves(ownerClient, f.owner, ownerMoves);
      await listenMoves(keeperClient, f.stranger, keeperMoves);
      const before = (await presenceTopicAs(f.owner, f.owner.id))!;
      expect(await presenceTopicAs(f.contact, f.owner.id)).toBe(before);
      const owner = ownerClient.channel(before, { config: { private: true, presence: { key: 'tab' } } });
      expect(await join(owner)).toBe('ok');
      expect(await owner.track({ status: 'online' })).toBe('ok');
      const removedSeen: Seen[] = [];
      const keeperSeen: Seen[] = [];
      await watchTopic(removedClient, before, removedSeen);
      await watchTopic(keeperClient, before, keeperSeen);
      await until(removedSeen, (xs) => xs.some((x) => x.kind === 'join'));
      await until(keeperSeen, (xs) => xs.some((x) => x.kind === 'join'));

      await db.query(cut, [f.owner.id, f.contact.id]);
      // the owner's tabs and the remaining contact are told; the SPA re-joins the current topic
      await until(ownerMoves, (xs) => xs.includes(f.owner.id));
      await until(keeperMoves, (xs) => xs.includes(f.owner.id));
      const after = (await presenceTopicAs(f.owner, f.owner.id))!;
      expect(after).not.toBe(before);
      expect(await presenceTopicAs(f.stranger, f.owner.id)).toBe(after);
      expect(await presenceTopicAs(f.contact, f.owner.id)).toBeNull();
      expect(await join(removedClient.channel(after, { config: { private: true } }))).toMatch(/^CHANNEL_ERROR/);
      await ownerClient.removeChannel(owner);
      await until(removedSeen, (xs) => xs.some((x) => x.kind === 'leave'));
      // the old topic no longer takes the owner's presence
      expect(await join(ownerClient.channel(before, { config: { private: true, presence: { key: 'late' } } }))).toMatch(/^CHANNEL_ERROR/);
      const removedBefore = removedSeen.length;
      const keeperNew: Seen[] = [];
      await watchTopic(keeperClient, after, keeperNew);
      const moved = ownerClient.channel(after, { config: { private: true, presence: { key: 'tab' } } });
      expect(await join(moved)).toBe('ok');
      expect(await moved.track({ status: 'online' })).toBe('ok');
      expect(await moved.track({ status: 'away' })).toBe('ok');
      await until(keeperNew, (xs) => xs.some((x) => x.kind === 'join' && x.statuses.includes('away')));
      // a marker sent to the old topic after the owner's changes: once the removed party has it,
      // every diff of those changes would have come before it
      await db.query(`select realtime.send('{}'::jsonb, 'sentinel', $1, true)`, [before]);
      await until(removedSeen, (xs) => xs.some((x) => x.kind === 'sentinel'), 15_000);
      expect(removedSeen.slice(removedBefore).filter((x) => x.kind !== 'sentinel')).toEqual([]);
    } finally {
      await f.close();
    }
  });
});

describe('chat through Broadcast from Database (issue 13)', () => {
  test('a member receives message_created on conversation:<id> and its edit; a non-member cannot join the channel', async () => {
    const conv = await conversation(fx.owner.id, fx.contact.id);
    const topic = `conversation:${conv}`;
    const got: { event: string; payload: Record<string, unknown> }[] = [];
    const member = (await as('contact')).channel(topic, { config: { private: true } })
      .on('broadcast', { event: '*' }, (m) => got.push(m as never));
    expect(await join(member)).toBe('ok');
    expect(await join((await as('stranger')).channel(topic, { config: { private: true } }))).toMatch(/^CHANNEL_ERROR/);
    const { rows } = await db.query<{ id: string }>(`insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Live!') returning id`, [conv, fx.owner.id]);
    await until(got, (xs) => xs.some((m) => m.event === 'message_created'));
    await db.query(`update public.messages set body = 'Live, bearbeitet' where id = $1`, [rows[0]!.id]);
    await until(got, (xs) => xs.some((m) => m.event === 'message_updated'));
    expect(got.map((m) => [m.event, m.payload.id, m.payload.body])).toEqual([
      ['message_created', Number(rows[0]!.id), 'Live!'],
      ['message_updated', Number(rows[0]!.id), 'Live, bearbeitet'],
    ]);
  });
});
