/**
 * The organisations' HTTP API (issue 15 "API access") with plain fetch through the real stack
 * (gateway -> functions runner -> Edge Function `api` -> PostgREST/Postgres): every endpoint, the
 * error shape and statuses (bad, unknown and revoked keys 401, missing scope 403, malformed input
 * 400, unknown path 404, wrong method 405), a fast-check fuzz of paths, queries and bodies (never
 * a 5xx), cursor paging while rows are inserted (no duplicates, no gaps) and the per-key rate
 * limit (60 per minute, 429 with Retry-After). Keys are created through rpc/create_api_key as the
 * organisation's owner. Fixtures are committed (the function reads them on its own connections)
 * and removed in afterAll.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';
import { signJwt } from '../../scripts/local-stack/jwt.ts';

const config = stackConfig();
const API = `${config.apiUrl}/functions/v1/api/v1`;
const ALL_SCOPES = ['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write'];
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

let db: pg.Client;
const f = {} as {
  owner: string; ownerJwt: string; member: string; memberJwt: string; outsider: string; outsiderJwt: string;
  org: string; otherOrg: string; projects: number[]; draftProject: number; otherProject: number; events: number[]; draftEvent: number;
  jobs: string[]; otherJob: string; searchWord: string;
};
const keys = {} as { full: string; fullId: string; readProjects: string; readOnly: string };

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { error?: { code: string; message: string }; data?: unknown; next_cursor?: string | null };
}

async function call(method: string, path: string, opts: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined || opts.raw !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${API}${path}`, { method, headers, body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) });
  const text = await res.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    throw new Error(`${method} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

async function rpc(jwt: string, name: string, args: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${config.apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function createKey(scopes: string[], name = 'test key'): Promise<{ id: string; key: string }> {
  const out = await rpc(f.ownerJwt, 'create_api_key', { p_organization_id: f.org, p_name: name, p_scopes: scopes });
  if (out.status !== 200) throw new Error(`create_api_key: ${out.status} ${JSON.stringify(out.body)}`);
  return out.body as { id: string; key: string };
}

async function user(name: string, role: string): Promise<{ id: string; jwt: string }> {
  const email = `api-${name}-${tag}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', $2, now(), now(), '', '', '', '') returning id`,
    [email, JSON.stringify({ firstname: name, lastname: 'Api', preferred_language: 'en' })],
  );
  const id = rows[0]!.id;
  if (role === 'enterprise') {
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id, stripe_subscription_id, last_synced_at)
       values ($1, 'enterprise', 'active', now() - interval '1 day', now() + interval '29 days', $2, $3, now())`,
      [id, `cus_api_${tag}_${name}`, `sub_api_${tag}_${name}`],
    );
  }
  await db.query(`update public.profiles set user_role = $2::public.user_role where id = $1`, [id, role]);
  const jwt = await signJwt({ sub: id, role: 'authenticated', aud: 'authenticated', email }, config.jwtSecret, 3600);
  return { id, jwt };
}

/** An organisation created by `ownerJwt`'s Enterprise subscriber through rpc/create_organization. */
async function organization(slug: string, ownerJwt: string): Promise<string> {
  const out = await rpc(ownerJwt, 'create_organization', { p_name: `Org ${slug}`, p_slug: slug });
  if (out.status !== 200) throw new Error(`create_organization: ${out.status} ${JSON.stringify(out.body)}`);
  return out.body as string;
}

async function job(org: string, by: string, n: string): Promise<string> {
  const id = `api-test-${tag}-${n}`;
  await db.query(
    `insert into public.jobs (id, title, company, remote, employment_type, description, apply_url, posted_by, organization_id)
     values ($1, $2, 'Teamwerk Test GmbH', true, 'full_time', 'Beschreibung', 'https://jobs.example.com/apply', $3, $4)`,
    [id, `API Testjob ${n}`, by, org],
  );
  return id;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const owner = await user('owner', 'enterprise');
  const member = await user('member', 'enterprise');
  const outsider = await user('outsider', 'enterprise');
  Object.assign(f, { owner: owner.id, ownerJwt: owner.jwt, member: member.id, memberJwt: member.jwt, outsider: outsider.id, outsiderJwt: outsider.jwt });
  f.org = await organization(`api-${tag}`, owner.jwt);
  await db.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'member')`, [f.org, member.id]);
  f.otherOrg = await organization(`api-other-${tag}`, outsider.jwt);
  f.searchWord = `zwirbelquast${tag.replace(/[0-9]/g, '')}`;
  const project = async (org: string, by: string, title: string, status: string) =>
    Number((await db.query(`insert into public.projects (owner_id, title, summary, description, category, city, status, organization_id)
      values ($1, $2, $3, $3, 'technology', 'Köln', $4, $5) returning id`, [by, title, `Wir bauen ${f.searchWord} für alle`, status, org])).rows[0]!.id);
  f.projects = [];
  for (let i = 0; i < 5; i++) f.projects.push(await project(f.org, i % 2 ? member.id : owner.id, `API Projekt ${i} ${f.searchWord}`, 'published'));
  f.draftProject = await project(f.org, owner.id, 'API Entwurf', 'draft');
  f.otherProject = await project(f.otherOrg, outsider.id, 'Fremdes Projekt', 'published');
  const event = async (title: string, status: string) =>
    Number((await db.query(`insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity, organization_id)
      values ($1, $2, $3, now() + interval '10 days', now() + interval '10 days 2 hours', 'Leipzig', 20, $4) returning id`, [owner.id, title, status, f.org])).rows[0]!.id);
  f.events = [await event('API Event Eins', 'published'), await event('API Event Zwei', 'published')];
  f.draftEvent = await event('API Event Entwurf', 'draft');
  f.jobs = [await job(f.org, owner.id, 'a'), await job(f.org, member.id, 'b'), await job(f.org, owner.id, 'c')];
  f.otherJob = await job(f.otherOrg, outsider.id, 'other');
  const full = await createKey(ALL_SCOPES, 'full');
  keys.full = full.key;
  keys.fullId = full.id;
  // the fuzz and paging below make more than 60 calls: this key gets a higher limit (the rate limit has its own key)
  await db.query(`update public.api_keys set rate_limit_per_minute = 100000 where id = $1`, [full.id]);
  keys.readProjects = (await createKey(['projects:read'], 'projects only')).key;
  keys.readOnly = (await createKey(['projects:read', 'jobs:read', 'events:read', 'search:read'], 'read only')).key;
});

afterAll(async () => {
  if (!db) return;
  await db.query(`delete from public.jobs where id like $1`, [`api-test-${tag}-%`]);
  await db.query(`delete from public.jobs where organization_id = any($1::uuid[])`, [[f.org, f.otherOrg].filter(Boolean)]);
  await db.query(`delete from public.organizations where id = any($1::uuid[])`, [[f.org, f.otherOrg].filter(Boolean)]);
  await db.query(`delete from auth.users where email like $1`, [`api-%-${tag}@tests.teamwerk.test`]);
  await db.end();
});

const expectError = (a: Answer, status: number, code?: string) => {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  expect(typeof a.body.error?.code).toBe('string');
  expect(typeof a.body.error?.message).toBe('string');
  if (code) expect(a.body.error!.code).toBe(code);
};

describe('keys and authentication', () => {
  test('the OpenAPI 3.1 document is public and lists every endpoint and method', async () => {
    const a = await call('GET', '/openapi.json');
    expect(a.status).toBe(200);
    expect(a.body.openapi).toBe('3.1.0');
    const paths = a.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths).sort()).toEqual(['/events', '/jobs', '/jobs/{id}', '/projects', '/search']);
    expect(Object.keys(paths['/jobs']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/jobs/{id}']!).sort()).toEqual(['get', 'patch']);
    const servers = a.body.servers as { url: string }[];
    expect(servers[0]!.url).toMatch(/\/functions\/v1\/api\/v1$/);
    const schemas = (a.body.components as { schemas: Record<string, { required?: string[] }> }).schemas;
    expect(schemas.JobCreate!.required).toEqual(expect.arrayContaining(['title', 'company', 'description', 'apply_url', 'employment_type']));
  });

  test('no key, a malformed header, an unknown key: 401 with the error shape', async () => {
    expectError(await call('GET', '/projects'), 401, 'unauthorized');
    expectError(await call('GET', '/projects', { headers: { Authorization: `Basic ${btoa('a:b')}` } }), 401);
    expectError(await call('GET', '/projects', { key: 'not-a-key' }), 401, 'invalid_key');
    expectError(await call('GET', '/projects', { key: `twk_${'0'.repeat(48)}` }), 401, 'invalid_key');
    // a known key with one character changed
    const flipped = keys.full.slice(0, -1) + (keys.full.endsWith('0') ? '1' : '0');
    expectError(await call('GET', '/projects', { key: flipped }), 401, 'invalid_key');
  });

  test('the key is stored as its SHA-256 only; owners list name, prefix, scopes, never the hash', async () => {
    const { rows } = await db.query<{ key_hash: string; prefix: string; created_by: string }>(`select key_hash, prefix, created_by from public.api_keys where id = $1`, [keys.fullId]);
    const { createHash } = await import('node:crypto');
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(keys.full).digest('hex'));
    expect(keys.full.startsWith(rows[0]!.prefix)).toBe(true);
    expect(rows[0]!.created_by).toBe(f.owner);
    const list = await fetch(`${config.apiUrl}/rest/v1/api_keys?select=id,name,prefix,scopes,created_at,last_used_at,revoked_at&organization_id=eq.${f.org}`, {
      headers: { apikey: config.anonKey, Authorization: `Bearer ${f.ownerJwt}` },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { id: string }[]).map((k) => k.id)).toContain(keys.fullId);
    const hash = await fetch(`${config.apiUrl}/rest/v1/api_keys?select=key_hash`, { headers: { apikey: config.anonKey, Authorization: `Bearer ${f.ownerJwt}` } });
    expect(hash.status).toBe(403); // PostgREST: permission denied for the column (42501)
    for (const jwt of [f.memberJwt, f.outsiderJwt]) {
      const other = await fetch(`${config.apiUrl}/rest/v1/api_keys?select=id&organization_id=eq.${f.org}`, { headers: { apikey: config.anonKey, Authorization: `Bearer ${jwt}` } });
      expect(await other.json()).toEqual([]);
    }
  });

  test('members and outsiders cannot create or revoke keys; invalid scopes are refused', async () => {
    for (const jwt of [f.memberJwt, f.outsiderJwt]) {
      expect((await rpc(jwt, 'create_api_key', { p_organization_id: f.org, p_name: 'x', p_scopes: ['jobs:read'] })).status).toBe(403);
      expect((await rpc(jwt, 'revoke_api_key', { p_id: keys.fullId })).status).toBe(404);
    }
    expect((await rpc(f.ownerJwt, 'create_api_key', { p_organization_id: f.org, p_name: 'x', p_scopes: ['admin:all'] })).status).toBe(400);
    expect((await rpc(f.ownerJwt, 'create_api_key', { p_organization_id: f.org, p_name: ' ', p_scopes: ['jobs:read'] })).status).toBe(400);
  });

  test('a revoked key gets 401 at once; last_used_at records use', async () => {
    const k = await createKey(['projects:read'], 'to revoke');
    expect((await call('GET', '/projects', { key: k.key })).status).toBe(200);
    const { rows } = await db.query<{ last_used_at: Date | null }>(`select last_used_at from public.api_keys where id = $1`, [k.id]);
    expect(rows[0]!.last_used_at).not.toBeNull();
    expect((await rpc(f.ownerJwt, 'revoke_api_key', { p_id: k.id })).status).toBe(204);
    expectError(await call('GET', '/projects', { key: k.key }), 401, 'invalid_key');
  });

  test("when the organisation's Enterprise subscription lapses, its keys get 403 enterprise_required", async () => {
    const { rows } = await db.query<{ subscription_id: string }>(`select subscription_id from public.organizations where id = $1`, [f.org]);
    const sub = rows[0]!.subscription_id;
    await db.query(`update public.subscriptions set status = 'canceled', current_period_end = now() - interval '2 days' where id = $1`, [sub]);
    try {
      expectError(await call('GET', '/projects', { key: keys.readProjects }), 403, 'enterprise_required');
      expect((await rpc(f.ownerJwt, 'create_api_key', { p_organization_id: f.org, p_name: 'x', p_scopes: ['jobs:read'] })).status).toBe(402);
    } finally {
      await db.query(`update public.subscriptions set status = 'active', current_period_end = now() + interval '29 days' where id = $1`, [sub]);
    }
    expect((await call('GET', '/projects', { key: keys.readProjects })).status).toBe(200);
  });

  test('a key stays the organisation\'s when its creator leaves: jobs it creates name an owner as author', async () => {
    await db.query(`update public.organization_members set role = 'admin' where organization_id = $1 and user_id = $2`, [f.org, f.member]);
    const out = await rpc(f.memberJwt, 'create_api_key', { p_organization_id: f.org, p_name: 'admin key', p_scopes: ['jobs:write'] });
    expect(out.status).toBe(200);
    await db.query(`delete from public.organization_members where organization_id = $1 and user_id = $2`, [f.org, f.member]);
    const a = await call('POST', '/jobs', { key: (out.body as { key: string }).key, body: { title: 'Werkstudent Vertrieb', company: 'Teamwerk Test GmbH', description: 'Text', apply_url: 'mailto:jobs@example.com', employment_type: 'working_student', remote: true } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const { rows } = await db.query(`select posted_by, organization_id from public.jobs where id = $1`, [(a.body.data as { id: string }).id]);
    expect(rows[0]).toEqual({ posted_by: f.owner, organization_id: f.org });
    await db.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'member')`, [f.org, f.member]);
  });

  test('a key without the scope gets 403 on every endpoint that needs it', async () => {
    expect((await call('GET', '/projects', { key: keys.readProjects })).status).toBe(200);
    expectError(await call('GET', '/jobs', { key: keys.readProjects }), 403, 'insufficient_scope');
    expectError(await call('GET', `/jobs/${f.jobs[0]}`, { key: keys.readProjects }), 403, 'insufficient_scope');
    expectError(await call('GET', '/events', { key: keys.readProjects }), 403, 'insufficient_scope');
    expectError(await call('GET', '/search?q=test', { key: keys.readProjects }), 403, 'insufficient_scope');
    expectError(await call('POST', '/jobs', { key: keys.readOnly, body: {} }), 403, 'insufficient_scope');
    expectError(await call('PATCH', `/jobs/${f.jobs[0]}`, { key: keys.readOnly, body: { title: 'Neuer Titel' } }), 403, 'insufficient_scope');
  });
});

describe('reading', () => {
  test("projects: the organisation's published projects only, in id order, with paging", async () => {
    const a = await call('GET', '/projects?limit=100', { key: keys.full });
    expect(a.status).toBe(200);
    const ids = (a.body.data as { id: number }[]).map((p) => p.id);
    expect(ids).toEqual([...f.projects].sort((x, y) => x - y));
    expect(ids).not.toContain(f.draftProject);
    expect(ids).not.toContain(f.otherProject);
    expect(a.body.next_cursor).toBeNull();
    expect(Object.keys((a.body.data as object[])[0]!)).toEqual(expect.arrayContaining(['id', 'title', 'slug', 'summary', 'status', 'created_at']));
    expect(a.headers.get('x-ratelimit-limit')).toBe('100000');
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const p: Answer = await call('GET', `/projects?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: keys.full });
      expect(p.status).toBe(200);
      expect((p.body.data as unknown[]).length).toBeLessThanOrEqual(2);
      seen.push(...(p.body.data as { id: number }[]).map((x) => x.id));
      cursor = p.body.next_cursor ?? null;
    } while (cursor);
    expect(seen).toEqual(ids);
  });

  test('events: drafts and other organisations are left out', async () => {
    const a = await call('GET', '/events', { key: keys.full });
    expect(a.status).toBe(200);
    expect((a.body.data as { id: number }[]).map((e) => e.id)).toEqual(f.events);
  });

  test('jobs: list and one job; another organisation\'s job is 404', async () => {
    const a = await call('GET', '/jobs?limit=100', { key: keys.full });
    expect(a.status).toBe(200);
    const ids = (a.body.data as { id: string }[]).map((j) => j.id);
    expect(ids).toEqual(expect.arrayContaining(f.jobs));
    expect(ids).not.toContain(f.otherJob);
    const one = await call('GET', `/jobs/${f.jobs[1]}`, { key: keys.full });
    expect(one.status).toBe(200);
    expect((one.body.data as { id: string; title: string }).title).toBe('API Testjob b');
    expectError(await call('GET', `/jobs/${f.otherJob}`, { key: keys.full }), 404, 'not_found');
    expectError(await call('GET', '/jobs/NOT%20AN%20ID', { key: keys.full }), 404, 'not_found');
  });

  test('search: the public search finds the published projects by a word of their text', async () => {
    const a = await call('GET', `/search?q=${f.searchWord}&types=project&limit=3`, { key: keys.full });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const hits = a.body.data as { type: string; id: number; title: string }[];
    expect(hits.length).toBe(3);
    expect(a.body.total).toBeGreaterThanOrEqual(5);
    expect(hits.every((h) => h.type === 'project')).toBe(true);
    expect(hits.map((h) => Number(h.id))).not.toContain(f.draftProject);
    const next = await call('GET', `/search?q=${f.searchWord}&types=project&limit=3&cursor=${a.body.next_cursor}`, { key: keys.full });
    expect(next.status).toBe(200);
    const all = [...hits, ...(next.body.data as typeof hits)].map((h) => Number(h.id));
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((id) => f.projects.includes(id)).length).toBeGreaterThanOrEqual(5);
    // without types: every public type (the function leaves the argument out of its GET call)
    const untyped = await call('GET', `/search?q=${f.searchWord}&limit=20`, { key: keys.full });
    expect(untyped.status, JSON.stringify(untyped.body)).toBe(200);
    const untypedIds = (untyped.body.data as typeof hits).filter((h) => h.type === 'project').map((h) => Number(h.id));
    expect(untypedIds.filter((id) => f.projects.includes(id)).length).toBeGreaterThanOrEqual(5);
  });

  test('paging stays stable while jobs are inserted: every original job exactly once', async () => {
    const before = (await call('GET', '/jobs?limit=100', { key: keys.full })).body.data as { id: string }[];
    const seen: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const p: Answer = await call('GET', `/jobs?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key: keys.full });
      expect(p.status).toBe(200);
      seen.push(...(p.body.data as { id: string }[]).map((x) => x.id));
      cursor = p.body.next_cursor ?? null;
      if (n < 3) await job(f.org, f.owner, `paging-${n}`);
      n++;
    } while (cursor && n < 50);
    expect(new Set(seen).size).toBe(seen.length);
    for (const j of before) expect(seen).toContain(j.id);
  });
});

describe('writing jobs', () => {
  const valid = { title: 'Backend-Entwickler (m/w/d) für Köln', company: 'Teamwerk Test GmbH', description: 'Wir suchen Verstärkung.', apply_url: 'https://jobs.example.com/x', employment_type: 'full_time', city: 'Köln' };

  test('POST creates a job of the key\'s organisation (201, Location); the database row matches', async () => {
    const a = await call('POST', '/jobs', { key: keys.full, body: { ...valid, salary_min_cents: 5_000_000, salary_max_cents: 7_000_000, language: 'de' } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const created = a.body.data as { id: string; title: string; category: string; remote: boolean };
    expect(created.id).toMatch(/^backend-entwickler-m-w-d-fuer-koeln-[0-9a-f]{8}$/);
    expect(a.headers.get('location')).toBe(`${API}/jobs/${created.id}`);
    expect([created.category, created.remote]).toEqual(['other', false]);
    const { rows } = await db.query(`select organization_id, posted_by, city, salary_max_cents from public.jobs where id = $1`, [created.id]);
    expect(rows[0]).toEqual({ organization_id: f.org, posted_by: f.owner, city: 'Köln', salary_max_cents: 7_000_000 });
  });

  test('POST refuses invalid bodies with 400 and the failing field', async () => {
    const cases: [unknown, string][] = [
      [{ ...valid, title: 'x' }, 'title'],
      [{ ...valid, apply_url: 'http://insecure.example.com' }, 'apply_url'],
      [{ ...valid, city: undefined }, 'city'],
      [{ ...valid, employment_type: 'slave' }, 'employment_type'],
      [{ ...valid, salary_min_cents: 10, salary_max_cents: 5 }, 'salary_max_cents'],
      [{ ...valid, organization_id: f.otherOrg }, 'organization_id'],
      [{ ...valid, expires_at: 'tomorrow' }, 'expires_at'],
      [[valid], 'body'],
    ];
    for (const [body, field] of cases) {
      const a = await call('POST', '/jobs', { key: keys.full, body });
      expectError(a, 400, 'validation_failed');
      expect(a.body.error!.message).toContain(field);
    }
    expectError(await call('POST', '/jobs', { key: keys.full, raw: '{"title": ' }), 400, 'invalid_json');
    expectError(await call('POST', '/jobs', { key: keys.full, raw: '' }), 400, 'invalid_json');
    // a rule only the database knows (expiry after posting) is a 400 too
    expectError(await call('POST', '/jobs', { key: keys.full, body: { ...valid, expires_at: '2001-01-01T00:00:00Z' } }), 400, 'validation_failed');
  });

  test('PATCH updates only the organisation\'s own jobs', async () => {
    const a = await call('PATCH', `/jobs/${f.jobs[2]}`, { key: keys.full, body: { title: 'API Testjob c (neu)', remote: false, city: 'Bonn' } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect((a.body.data as { title: string }).title).toBe('API Testjob c (neu)');
    const { rows } = await db.query(`select title, city, remote from public.jobs where id = $1`, [f.jobs[2]]);
    expect(rows[0]).toEqual({ title: 'API Testjob c (neu)', city: 'Bonn', remote: false });
    expectError(await call('PATCH', `/jobs/${f.otherJob}`, { key: keys.full, body: { title: 'Übernommen' } }), 404, 'not_found');
    const other = await db.query(`select title from public.jobs where id = $1`, [f.otherJob]);
    expect(other.rows[0]!.title).toBe('API Testjob other');
    expectError(await call('PATCH', `/jobs/${f.jobs[2]}`, { key: keys.full, body: {} }), 400, 'validation_failed');
    expectError(await call('PATCH', `/jobs/${f.jobs[2]}`, { key: keys.full, body: { id: 'hijack' } }), 400, 'validation_failed');
    // remote false without a city: the database's rule answers 400
    expectError(await call('PATCH', `/jobs/${f.jobs[2]}`, { key: keys.full, body: { city: null } }), 400, 'validation_failed');
  });
});

describe('malformed requests', () => {
  test('unknown paths 404, wrong methods 405 with Allow, bad parameters and cursors 400', async () => {
    expectError(await call('GET', '/nothing', { key: keys.full }), 404, 'not_found');
    expectError(await call('GET', '/../v2/projects', { key: keys.full }), 404);
    const res = await fetch(`${config.apiUrl}/functions/v1/api/v2/projects`, { headers: { Authorization: `Bearer ${keys.full}` } });
    expect(res.status).toBe(404);
    const del = await call('DELETE', `/jobs/${f.jobs[0]}`, { key: keys.full });
    expectError(del, 405, 'method_not_allowed');
    expect(del.headers.get('allow')).toContain('PATCH');
    expectError(await call('POST', '/projects', { key: keys.full, body: {} }), 405);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'cursor=%%%', 'cursor=eyJpZCI6LTF9', 'cursor=bm9wZQ']) {
      expectError(await call('GET', `/projects?${q}`, { key: keys.full }), 400);
    }
    expectError(await call('GET', `/jobs?cursor=${btoa(JSON.stringify({ id: 1 }))}`, { key: keys.full }), 400, 'invalid_cursor');
    expectError(await call('GET', `/search?q=${'x'.repeat(201)}`, { key: keys.full }), 400);
    expectError(await call('GET', '/search?types=user', { key: keys.full }), 400);
  });

  test('fuzz: random paths, queries, methods and bodies never answer a 5xx and always in the error shape', async () => {
    const segment = fc.oneof(fc.constantFrom('projects', 'jobs', 'events', 'search', 'openapi.json', f.jobs[0]!, '..', '%00', '%E0%A4%A', ''), fc.string({ maxLength: 12 }).map(encodeURIComponent));
    const query = fc.dictionary(fc.constantFrom('limit', 'cursor', 'q', 'types', 'x'), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)), { maxKeys: 3 });
    const body = fc.oneof(fc.constant(undefined), fc.json({ maxDepth: 2 }), fc.string({ maxLength: 40 }), fc.record({ title: fc.string(), remote: fc.anything(), city: fc.oneof(fc.string(), fc.constant(null)) }, { requiredKeys: [] }).map((r) => JSON.stringify(r)));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE'), fc.array(segment, { minLength: 1, maxLength: 3 }), query, body, async (method, segments, params, raw) => {
        const qs = new URLSearchParams(params).toString();
        const res = await fetch(`${API}/${segments.join('/')}${qs ? `?${qs}` : ''}`, {
          method,
          headers: { Authorization: `Bearer ${keys.full}`, 'Content-Type': 'application/json' },
          body: method === 'GET' ? undefined : raw,
        });
        const text = await res.text();
        expect(res.status, `${method} ${segments.join('/')} ${qs} ${raw ?? ''} -> ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400 && res.headers.get('content-type')?.includes('json') && text) {
          const parsed = JSON.parse(text) as { error?: { code?: unknown } };
          // answers of the gateway itself (paths outside the function) have their own shape
          if (res.url.includes('/functions/v1/api/v1')) expect(typeof parsed.error?.code).toBe('string');
        }
      }),
      { numRuns: 120, seed: 15 },
    );
    // the fuzz may have created jobs: they belong to the test organisation and are removed with it
  }, 60_000);
});

describe('rate limit', () => {
  test('60 requests per minute per key; the 61st gets 429 with Retry-After; other keys are not affected', async () => {
    const k = await createKey(['projects:read'], 'rate limit');
    const answers: Answer[] = [];
    for (let batch = 0; batch < 13; batch++) {
      answers.push(...(await Promise.all(Array.from({ length: 5 }, () => call('GET', '/projects?limit=1', { key: k.key })))));
    }
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(5);
    for (const a of limited) {
      expectError(a, 429, 'rate_limited');
      const retry = Number(a.headers.get('retry-after'));
      expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
      expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect((await call('GET', '/projects?limit=1', { key: keys.readProjects })).status).toBe(200);
  }, 60_000);
});
