/**
 * Realtime as the product uses it (issue 12 finding 13), through supabase-js against the stack:
 * - chat messages reach members by Broadcast from Database only: no table of the product is in
 *   the publication supabase_realtime (hosted Realtime sends every DELETE of a published table to
 *   all its subscribers with the primary key, supabase/realtime apply_rls.sql; issue 29 §6), so a
 *   postgres_changes subscription to `messages` is refused and carries nothing;
 * - presence: `presence:user:<id>` is readable by that user and accepted contacts (not by a
 *   stranger or a blocked contact), and only the user may track into it; `presence:online`, which
 *   showed every online user to everyone signed in, is gone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { config, createFixtures, type Fixtures, type MatrixRole } from './exposure-support.ts';

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

describe('presence', () => {
  const topic = () => `presence:user:${fx.owner.id}`;
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
    }
  });

  test('only the user tracks into their presence topic; presence:online is gone', async () => {
    const contact = await privateChannel('contact', topic());
    expect(await join(contact)).toBe('ok');
    expect(await contact.track({ status: 'impostor' })).not.toBe('ok');
    expect(await join(await privateChannel('stranger', 'presence:online'))).toMatch(/^CHANNEL_ERROR/);
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
