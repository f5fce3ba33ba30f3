/**
 * The caller's block list (issue 8 "Blocking and unblocking from a profile"): public.my_blocked_users
 * through the real API with supabase-js. A block hides both people from each other (RLS), so this
 * RPC is the blocker's only way back to the person: it lists exactly the users the caller blocked,
 * newest first, optionally narrowed to one slug; it never shows who blocked the caller; anon is refused.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { stackConfig } from '../../scripts/local-stack/config.ts';

const config = stackConfig();
const PASSWORD = 'Correct-Horse-42';
const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
};
const service = createClient(config.apiUrl, config.serviceRoleKey, options);

interface TestUser {
  id: string;
  slug: string;
  client: SupabaseClient;
}

const created: string[] = [];

/** A confirmed, visible user with a signed-in client. */
async function user(firstname: string, lastname: string): Promise<TestUser> {
  const email = `blocks-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const made = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { firstname, lastname } });
  if (made.error) throw made.error;
  const id = made.data.user.id;
  created.push(id);
  const profile = await service.from('profiles').select('slug').eq('id', id).single();
  if (profile.error) throw profile.error;
  const client = createClient(config.apiUrl, config.anonKey, options);
  const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  return { id, slug: (profile.data as { slug: string }).slug, client };
}

const block = (by: TestUser, target: TestUser) => by.client.from('user_blocks').insert({ blocker_id: by.id, blocked_id: target.id });
const listOf = async (u: TestUser, slug?: string) => {
  const { data, error } = await u.client.rpc('my_blocked_users', slug === undefined ? {} : { p_slug: slug });
  expect(error).toBeNull();
  return data as Array<{ user_id: string; display_name: string; slug: string; profile_img: string | null; blocked_at: string }>;
};
const profileBySlug = async (viewer: TestUser, slug: string) => {
  const { data, error } = await viewer.client.from('profiles').select('id').eq('slug', slug).maybeSingle();
  expect(error).toBeNull();
  return data;
};

let a: TestUser;
let b: TestUser;
let c: TestUser;
let d: TestUser;

beforeAll(async () => {
  [a, b, c, d] = await Promise.all([user('Anke', 'Blocker'), user('Bernd', 'Blockiert'), user('Carla', 'Später'), user('Dieter', 'Heimlich')]);
});
afterAll(async () => {
  await Promise.all(created.map((id) => service.auth.admin.deleteUser(id)));
});

describe('my_blocked_users (issue 8)', () => {
  test('before any block the list is empty and both profiles are visible', async () => {
    expect(await listOf(a)).toEqual([]);
    expect(await profileBySlug(a, b.slug)).toEqual({ id: b.id });
  });

  test('A blocks B: A lists B (name, slug, avatar, time), B lists nobody, anon is refused', async () => {
    const before = Date.now();
    expect((await block(a, b)).error).toBeNull();
    const rows = await listOf(a);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(Object.keys(row).sort()).toEqual(['blocked_at', 'display_name', 'profile_img', 'slug', 'user_id']);
    expect(row).toMatchObject({ user_id: b.id, display_name: 'Bernd Blockiert', slug: b.slug, profile_img: null });
    // blocked_at is the time of the insert (clock of the same machine; 5 s tolerance either way)
    expect(Math.abs(new Date(row.blocked_at).getTime() - before)).toBeLessThan(5_000);
    // the blocked side never learns who blocked them
    expect(await listOf(b)).toEqual([]);
    expect(await listOf(b, a.slug)).toEqual([]);
    const anon = await createClient(config.apiUrl, config.anonKey, options).rpc('my_blocked_users');
    expect(anon.error?.code).toBe('42501');
    expect(anon.data).toBeNull();
  });

  test('RLS still hides both from each other; the slug filter finds only the blocked person', async () => {
    expect(await profileBySlug(a, b.slug)).toBeNull();
    expect(await profileBySlug(b, a.slug)).toBeNull();
    expect((await listOf(a, b.slug)).map((r) => r.user_id)).toEqual([b.id]);
    expect(await listOf(a, c.slug)).toEqual([]);
    expect(await listOf(a, 'no-such-slug')).toEqual([]);
  });

  test('someone who blocked the caller stays invisible to them, also by slug', async () => {
    expect((await block(d, a)).error).toBeNull();
    expect((await listOf(a)).map((r) => r.user_id)).toEqual([b.id]);
    expect(await listOf(a, d.slug)).toEqual([]);
    expect(await profileBySlug(a, d.slug)).toBeNull();
    expect((await listOf(d)).map((r) => r.user_id)).toEqual([a.id]);
  });

  test('newest block first; blocking twice adds no duplicate; nobody can block themselves', async () => {
    expect((await block(a, c)).error).toBeNull();
    expect((await listOf(a)).map((r) => r.user_id)).toEqual([c.id, b.id]);
    const again = await block(a, b);
    expect(again.error?.code).toBe('23505');
    expect((await listOf(a)).map((r) => r.user_id)).toEqual([c.id, b.id]);
    const self = await block(a, a);
    expect(self.error?.code).toBe('23514');
    expect((await listOf(a)).map((r) => r.user_id)).not.toContain(a.id);
  });

  test('A cannot remove a block made by someone else; unblocking B makes the profiles visible again', async () => {
    // A's delete of D's block on A matches no row (RLS): D's block stays
    const foreign = await a.client.from('user_blocks').delete().eq('blocker_id', d.id).eq('blocked_id', a.id).select();
    expect(foreign.error).toBeNull();
    expect(foreign.data).toEqual([]);
    expect((await listOf(d)).map((r) => r.user_id)).toEqual([a.id]);

    const removed = await a.client.from('user_blocks').delete().eq('blocker_id', a.id).eq('blocked_id', b.id).select('blocked_id');
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual([{ blocked_id: b.id }]);
    expect((await listOf(a)).map((r) => r.user_id)).toEqual([c.id]);
    expect(await listOf(a, b.slug)).toEqual([]);
    expect(await profileBySlug(a, b.slug)).toEqual({ id: b.id });
    expect(await profileBySlug(b, a.slug)).toEqual({ id: a.id });
  });
});
