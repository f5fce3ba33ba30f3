/**
 * Contract tests: PostgREST behind the gateway, driven by supabase-js (and raw fetch only for
 * bodies supabase-js cannot produce). RLS decides per role: anon, two users, service_role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { anonClient, clientWithToken, config, nodeClientOptions, serviceClient, superuserDb } from '../../test-support/clients.ts';
import { signJwt } from '../jwt.ts';

const TABLE = 'test_contract_notes';
let db: pg.Client;
const userA = randomUUID();
const userB = randomUUID();
let clientA: SupabaseClient;
let clientB: SupabaseClient;

async function userClient(sub: string, secret = config.jwtSecret, expiresIn = 3600): Promise<SupabaseClient> {
  const token = await signJwt({ sub, role: 'authenticated', aud: 'authenticated', email: `${sub}@test.local` }, secret, expiresIn);
  return clientWithToken(token);
}

/**
 * Other test files run DDL concurrently; PostgREST 12.0 can briefly serve a stale schema cache
 * (a reload that started before our CREATE TABLE finishes after it, postgrest#2791), answering
 * 404 for our table. Retry such answers for a short while; any other answer is returned.
 */
async function settled<T extends { status: number }>(call: () => PromiseLike<T>): Promise<T> {
  let result = await call();
  for (let i = 0; i < 40 && result.status === 404; i++) {
    await new Promise((r) => setTimeout(r, 100));
    result = await call();
  }
  return result;
}

async function rowCount(): Promise<number> {
  const r = await db.query<{ n: string }>(`select count(*) as n from public.${TABLE}`);
  return Number(r.rows[0]!.n);
}

beforeAll(async () => {
  db = await superuserDb();
  await db.query(`
    drop table if exists public.${TABLE};
    create table public.${TABLE} (
      id bigint generated always as identity primary key,
      owner uuid not null default auth.uid(),
      body text not null check (length(body) between 1 and 200),
      is_public boolean not null default false
    );
    alter table public.${TABLE} enable row level security;
    create policy "read public or own" on public.${TABLE} for select using (is_public or owner = (select auth.uid()));
    create policy "insert own" on public.${TABLE} for insert to authenticated with check (owner = (select auth.uid()));
    create policy "update own" on public.${TABLE} for update to authenticated using (owner = (select auth.uid()));
    create policy "delete own" on public.${TABLE} for delete to authenticated using (owner = (select auth.uid()));
    create or replace function public.test_contract_whoami() returns jsonb language sql stable
      as $$ select jsonb_build_object('uid', auth.uid(), 'role', auth.role(), 'email', auth.jwt() ->> 'email') $$;
    grant execute on function public.test_contract_whoami() to anon, authenticated;
    insert into public.${TABLE} (owner, body, is_public) values
      ('${userA}', 'A public', true), ('${userA}', 'A private', false), ('${userB}', 'B private', false);
    notify pgrst, 'reload schema';
  `);
  clientA = await userClient(userA);
  clientB = await userClient(userB);
  // wait until PostgREST's schema cache has the new table and function (other test files run
  // DDL concurrently, so each reload must have settled for both)
  for (let i = 0; i < 100; i++) {
    const [t, f] = await Promise.all([anonClient().from(TABLE).select('id'), anonClient().rpc('test_contract_whoami')]);
    if (!t.error && t.data?.length === 1 && !f.error) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  await db.query(`drop table if exists public.${TABLE}; drop function if exists public.test_contract_whoami(); notify pgrst, 'reload schema';`);
  await db.end();
});

describe('RLS through PostgREST', () => {
  it('anon sees only public rows and cannot insert', async () => {
    const anon = anonClient();
    const { data, error } = await settled(() => anon.from(TABLE).select('body').order('id'));
    expect(error).toBeNull();
    expect(data!.map((r) => r.body)).toEqual(['A public']);
    const before = await rowCount();
    const ins = await settled(() => anon.from(TABLE).insert({ body: 'anon write' }));
    expect(ins.error).toMatchObject({ code: '42501' });
    expect(ins.status).toBe(401);
    expect(ins.error?.code).toBe('42501');
    expect(await rowCount()).toBe(before);
  });

  it('each user sees public rows and their own, never the other user\'s private rows', async () => {
    const a = await clientA.from(TABLE).select('body').order('id');
    expect(a.data!.map((r) => r.body)).toEqual(['A public', 'A private']);
    const b = await clientB.from(TABLE).select('body').order('id');
    expect(b.data!.map((r) => r.body)).toEqual(['A public', 'B private']);
  });

  it('a user cannot change or delete another user\'s rows', async () => {
    const upd = await clientB.from(TABLE).update({ body: 'hijacked' }).eq('body', 'A private').select();
    expect(upd.error).toBeNull();
    expect(upd.data).toEqual([]);
    const del = await clientB.from(TABLE).delete().eq('body', 'A public').select();
    expect(del.data).toEqual([]);
    const r = await db.query(`select body from public.${TABLE} where owner = $1 order by id`, [userA]);
    expect(r.rows.map((x) => x.body)).toEqual(['A public', 'A private']);
  });

  it('a user inserts as themselves; inserting for someone else is refused', async () => {
    const own = await clientA.from(TABLE).insert({ body: 'A second' }).select('owner').single();
    expect(own.error).toBeNull();
    expect(own.data!.owner).toBe(userA);
    const forged = await clientA.from(TABLE).insert({ body: 'as B', owner: userB });
    expect(forged.error?.code).toBe('42501');
    expect(forged.status).toBe(403);
  });

  it('service_role bypasses RLS', async () => {
    const { data, error } = await serviceClient().from(TABLE).select('body');
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThanOrEqual(3);
  });

  it('rpc sees the caller\'s claims', async () => {
    const a = await clientA.rpc('test_contract_whoami');
    expect(a.data).toEqual({ uid: userA, role: 'authenticated', email: `${userA}@test.local` });
    const anon = await anonClient().rpc('test_contract_whoami');
    expect(anon.data).toMatchObject({ uid: null, role: 'anon' });
  });

  it('max rows is 1000', async () => {
    const { data, error } = await serviceClient().rpc('generate_series' as never, {} as never).limit(1);
    // generate_series is not exposed: PostgREST answers PGRST202
    expect(data).toBeNull();
    expect(error?.code).toBe('PGRST202');
    await db.query(`insert into public.${TABLE} (owner, body, is_public) select '${userB}', 'bulk ' || g, true from generate_series(1, 1100) g`);
    const many = await anonClient().from(TABLE).select('id');
    expect(many.data!.length).toBe(1000);
    await db.query(`delete from public.${TABLE} where body like 'bulk %'`);
  });
});

describe('bad input', () => {
  const rest = `${config.apiUrl}/rest/v1/${TABLE}`;

  it('malformed JSON → 400 PGRST102, nothing stored', async () => {
    const before = await rowCount();
    const token = await signJwt({ sub: userA, role: 'authenticated' }, config.jwtSecret, 60);
    const res = await fetch(rest, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"body": "x",',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST102');
    expect(await rowCount()).toBe(before);
  });

  it('wrong types and constraint violations → 400 with the Postgres code, nothing stored', async () => {
    const before = await rowCount();
    const wrongType = await clientA.from(TABLE).insert({ body: 'x', is_public: 'maybe' as unknown as boolean });
    expect(wrongType.status).toBe(400);
    expect(wrongType.error?.code).toBe('22P02');
    const tooLong = await clientA.from(TABLE).insert({ body: 'x'.repeat(500) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.error?.code).toBe('23514');
    const unknownColumn = await clientA.from(TABLE).insert({ body: 'x', nope: 1 } as never);
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.error?.code).toBe('PGRST204');
    expect(await rowCount()).toBe(before);
  });

  it('expired and forged JWTs → 401 PGRST301/PGRST302-style errors', async () => {
    const expired = await userClient(userA, config.jwtSecret, -120);
    const e = await expired.from(TABLE).select('id');
    expect(e.status).toBe(401);
    expect(e.error?.message).toMatch(/expired/i);
    const forged = await userClient(userA, 'not-the-stack-secret-not-the-stack-secret');
    const f = await forged.from(TABLE).select('id');
    expect(f.status).toBe(401);
    expect(f.error?.code).toMatch(/^PGRST30/);
  });

  it('wrong or missing apikey → 401 from the gateway', async () => {
    const wrong = createClient(config.apiUrl, 'not-a-key', nodeClientOptions);
    const w = await wrong.from(TABLE).select('id');
    expect(w.status).toBe(401);
    expect(w.error?.message).toBe('Invalid API key');
    const res = await fetch(rest);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('No API key found in request');
  });

  it('CORS preflight is answered for the SPA', async () => {
    const res = await fetch(rest, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey, authorization, content-type' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
  });

  it('unknown paths → 404', async () => {
    const res = await fetch(`${config.apiUrl}/nope/v1/x`, { headers: { apikey: config.anonKey } });
    expect(res.status).toBe(404);
  });
});
