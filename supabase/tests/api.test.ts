/**
 * The data model through the real API (gateway -> PostgREST / auth) with supabase-js and the
 * demo accounts of the seed: what the SPA sees, including the error shape of database rules
 * (plan limit -> P0001 plan_limit_reached) and anon vs signed-in visibility.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';
import { demoFileBytes } from '../../scripts/seed/files.ts';

const config = stackConfig();
const PASSWORD = 'Teamwerk!2026';
const client = () => createClient(config.apiUrl, config.anonKey, {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
});

async function signIn(email: string): Promise<SupabaseClient> {
  const c = client();
  const { error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw new Error(`${email}: ${error.message}`);
  return c;
}

let basic: SupabaseClient;
const created: number[] = [];

beforeAll(async () => {
  basic = await signIn('basic@teamwerk.test');
});
afterAll(async () => {
  if (created.length) await basic.from('projects').delete().in('id', created);
});

describe('demo data through PostgREST', () => {
  test('anon lists published projects of listed owners, newest first, without search vectors', async () => {
    const { data, error } = await client().from('projects').select('id, title, published_at').eq('status', 'published').order('published_at', { ascending: false }).limit(5);
    expect(error).toBeNull();
    expect(data).toHaveLength(5);
    expect(Object.keys(data![0]!)).not.toContain('search_de');
  });

  test('anon sees the visible-users list and count; drafts and the e-mail queue stay hidden', async () => {
    const anon = client();
    // Other test files create users concurrently: the list and the count are read in two
    // statements, so compare them until both saw the same state (a few tries at most).
    let count: number | null = null;
    let n: unknown = undefined;
    for (let attempt = 0; attempt < 5 && n !== count; attempt++) {
      ({ count } = await anon.from('visible_profiles').select('id', { count: 'exact', head: true }));
      ({ data: n } = await anon.rpc('visible_profiles_count'));
    }
    expect(count).toBeGreaterThan(250);
    expect(n).toBe(count);
    const drafts = await anon.from('projects').select('id').eq('status', 'draft');
    expect(drafts.data).toEqual([]);
    const queue = await anon.from('email_queue').select('id');
    expect(queue.error?.code).toBe('42501');
  });

  test('search finds "Gründer" for "Grunder" with highlighted snippets', async () => {
    const { data, error } = await client().rpc('search', { q: 'Grunder', page_size: 5 });
    expect(error).toBeNull();
    const result = data as { total: number; results: { snippet: string }[] };
    expect(result.total).toBeGreaterThan(0);
    expect(result.results.some((r) => r.snippet.includes('<mark>'))).toBe(true);
  });

  test('a Basic member reaches the 3-project limit; the 4th answers P0001 plan_limit_reached', async () => {
    const { data: me } = await basic.auth.getUser();
    // drafts do not count (issue 33 §5): the limit is on published projects
    const { count } = await basic.from('projects').select('id', { count: 'exact', head: true }).eq('owner_id', me.user!.id).neq('status', 'draft');
    const free = 3 - (count ?? 0);
    for (let i = 0; i < free; i++) {
      const { data, error } = await basic.from('projects')
        .insert({ owner_id: me.user!.id, title: `API-Test Projekt ${i + 1}`, category: 'technology', status: 'published' }).select('id').single();
      expect(error).toBeNull();
      created.push(data!.id);
    }
    const { error } = await basic.from('projects').insert({ owner_id: me.user!.id, title: 'Eins zu viel', category: 'technology', status: 'published' });
    expect(error?.code).toBe('P0001');
    expect(error?.message).toBe('plan_limit_reached');
    expect(error?.hint).toBe('upgrade_plan');
  });

  test('a user cannot raise their own role through the API (42501, no UPDATE privilege on the column)', async () => {
    const { data: me } = await basic.auth.getUser();
    const { error } = await basic.from('profiles').update({ user_role: 'premium' }).eq('id', me.user!.id);
    expect(error?.code).toBe('42501');
    const { data } = await basic.rpc('my_profile').select('user_role').single();
    expect(data?.user_role).toBe('basic');
  });

  test('demo accounts have their documented roles and states (each read through their own my_profile)', async () => {
    const roles: Record<string, string> = {};
    for (const email of ['free@teamwerk.test', 'basic@teamwerk.test', 'premium@teamwerk.test', 'enterprise@teamwerk.test']) {
      const c = await signIn(email);
      const { data, error } = await c.rpc('my_profile').select('email, user_role, authenticated').single();
      expect(error).toBeNull();
      expect(data!.authenticated).toBe(1);
      roles[data!.email] = data!.user_role;
    }
    expect(roles).toEqual({
      'free@teamwerk.test': 'free', 'basic@teamwerk.test': 'basic', 'premium@teamwerk.test': 'premium', 'enterprise@teamwerk.test': 'enterprise',
    });
    const premium = await signIn('premium@teamwerk.test');
    // another member's role and e-mail are not readable (issue 12 finding 1)
    const other = await premium.from('profiles').select('email, user_role').limit(1);
    expect(other.error?.code).toBe('42501');
    const { data: subs } = await premium.from('subscriptions').select('plan_id,status');
    expect(subs).toEqual([{ plan_id: 'premium', status: 'active' }]);
  });

  test('portfolio files: visitors download what file_access allows, with the seeded size', async () => {
    const db = new pg.Client({ connectionString: config.dbUrl });
    await db.connect();
    try {
      const pick = async (access: string) => (await db.query<{ object_path: string; mime_type: string; title: string; size_bytes: string }>(
        `select f.object_path, f.mime_type, p.title, f.size_bytes from public.portfolio_files f join public.portfolios p on p.id = f.portfolio_id
         where p.status = 'published' and p.owner_listed and p.file_access = $1 and f.mime_type = 'application/pdf' order by f.id limit 1`, [access])).rows[0]!;
      const service = createClient(config.apiUrl, config.serviceRoleKey, {
        auth: { persistSession: false }, realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket } });
      const open = await pick('public');
      const closed = await pick('private');
      for (const f of [open, closed]) {
        const bytes = demoFileBytes(f.object_path, f.mime_type, f.title);
        expect(bytes.length).toBe(Number(f.size_bytes));
        const up = await service.storage.from('portfolio-files').upload(f.object_path, bytes, { contentType: f.mime_type, upsert: true });
        expect(up.error).toBeNull();
      }
      const ok = await client().storage.from('portfolio-files').download(open.object_path);
      expect(ok.error).toBeNull();
      expect(Buffer.from(await ok.data!.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
      const denied = await client().storage.from('portfolio-files').download(closed.object_path);
      expect(denied.data).toBeNull();
    } finally {
      await db.end();
    }
  });
});
