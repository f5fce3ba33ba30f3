/** Deno tests of the `api` handler with fake data access (run with `deno test supabase/functions`). */
import assert from 'node:assert/strict';
import { type ApiDeps, type ApiKeyInfo, apiPath, DbError, handleApi, jobIdFor, type Row } from './handler.ts';
import { decodeCursor, encodeCursor, IdCursor } from './schemas.ts';

const KEY = `twk_${'ab'.repeat(24)}`;
const BASE = 'http://localhost/api/v1';

function info(over: Partial<ApiKeyInfo> = {}): ApiKeyInfo {
  return {
    key_id: 'k1',
    organization_id: 'org-1',
    scopes: ['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write'],
    enterprise: true,
    posted_by: 'user-1',
    allowed: true,
    limit: 60,
    remaining: 59,
    retry_after: 42,
    ...over,
  };
}

function deps(over: Partial<ApiDeps> = {}, key: ApiKeyInfo | null = info()): ApiDeps & { calls: string[] } {
  const calls: string[] = [];
  const projects: Row[] = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, title: `P${i + 1}` }));
  return {
    calls,
    serverUrl: 'https://example.test/functions/v1/api/v1',
    randomSuffix: () => '0a1b2c3d',
    authenticate: (k) => {
      calls.push(`auth ${k}`);
      return Promise.resolve(k === KEY ? key : null);
    },
    listProjects: (_org, after, limit) =>
      Promise.resolve(projects.filter((p) => after === null || Number(p.id) > after).slice(0, limit + 1)),
    listEvents: () => Promise.resolve([]),
    listJobs: () => Promise.resolve([]),
    getJob: () => Promise.resolve(null),
    search: () => Promise.resolve({ total: 0, results: [] }),
    insertJob: (org, by, id, job) => Promise.resolve({ id, organization: org, posted_by: by, title: job.title }),
    updateJob: () => Promise.resolve(null),
    ...over,
  };
}

const req = (method: string, path: string, body?: string, key: string | null = KEY) =>
  new Request(`${BASE}${path}`, { method, body, headers: key ? { authorization: `Bearer ${key}` } : {} });

Deno.test('apiPath strips the platform prefix and the version', () => {
  assert.equal(apiPath('/api/v1/projects'), '/projects');
  assert.equal(apiPath('/functions/v1/api/v1/jobs/x/'), '/jobs/x');
  assert.equal(apiPath('/api/v1'), '/');
  assert.equal(apiPath('/api/v2/projects'), null);
  assert.equal(apiPath('/other/v1/projects'), null);
});

Deno.test('jobIdFor makes an ASCII slug with the suffix', () => {
  assert.equal(jobIdFor('Bäcker (m/w/d) in Köln!', 'abc'), 'baecker-m-w-d-in-koeln-abc');
  assert.equal(jobIdFor('!!!', 'abc'), 'job-abc');
});

Deno.test('cursors round-trip; foreign or broken ones are rejected', () => {
  assert.deepEqual(decodeCursor(encodeCursor({ id: 7 }), IdCursor), { id: 7 });
  assert.equal(decodeCursor(encodeCursor({ id: -1 }), IdCursor), null);
  assert.equal(decodeCursor('%%%', IdCursor), null);
  assert.equal(decodeCursor('bm9wZQ', IdCursor), null);
});

Deno.test('paging: next_cursor until the last page; rate headers on the answer', async () => {
  const d = deps();
  const first = await handleApi(req('GET', '/projects?limit=2'), d);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-ratelimit-remaining'), '59');
  const a = await first.json();
  assert.deepEqual(a.data.map((p: Row) => p.id), [1, 2]);
  const b = await (await handleApi(req('GET', `/projects?limit=2&cursor=${a.next_cursor}`), d)).json();
  const c = await (await handleApi(req('GET', `/projects?limit=2&cursor=${b.next_cursor}`), d)).json();
  assert.deepEqual([...b.data, ...c.data].map((p: Row) => p.id), [3, 4, 5]);
  assert.equal(c.next_cursor, null);
});

Deno.test('statuses: 404, 405 before the key check; 401; 429 with Retry-After; 403 scope and plan', async () => {
  const d = deps();
  assert.equal((await handleApi(req('GET', '/nope', undefined, null), d)).status, 404);
  const wrong = await handleApi(req('DELETE', '/jobs', undefined, null), d);
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get('allow'), 'GET, POST, OPTIONS');
  assert.deepEqual(d.calls, []);
  assert.equal((await handleApi(req('GET', '/projects', undefined, null), d)).status, 401);
  assert.equal((await handleApi(req('GET', '/projects', undefined, 'twk_nope'), d)).status, 401);
  const limited = await handleApi(req('GET', '/projects'), deps({}, info({ allowed: false, remaining: 0 })));
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '42');
  assert.deepEqual(await limited.json(), {
    error: { code: 'rate_limited', message: 'At most 60 requests per minute per key; retry in 42 s' },
  });
  assert.equal((await handleApi(req('GET', '/jobs'), deps({}, info({ scopes: ['projects:read'] })))).status, 403);
  const lapsed = await handleApi(req('GET', '/projects'), deps({}, info({ enterprise: false })));
  assert.equal((await lapsed.json()).error.code, 'enterprise_required');
});

Deno.test('POST /jobs validates, creates with the key author, maps database refusals to 400/409, other failures to 500', async () => {
  const body = JSON.stringify({
    title: 'Koch',
    company: 'Küche',
    description: 'x',
    apply_url: 'https://a.example',
    employment_type: 'full_time',
    remote: true,
  });
  const created = await handleApi(req('POST', '/jobs', body), deps());
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('location'), 'https://example.test/functions/v1/api/v1/jobs/koch-0a1b2c3d');
  assert.equal((await created.json()).data.posted_by, 'user-1');
  assert.equal((await handleApi(req('POST', '/jobs', '{'), deps())).status, 400);
  assert.equal((await handleApi(req('POST', '/jobs', JSON.stringify({ title: 'Koch' })), deps())).status, 400);
  const refused = deps({ insertJob: () => Promise.reject(new DbError('23514', 'jobs_expiry')) });
  assert.equal((await handleApi(req('POST', '/jobs', body), refused)).status, 400);
  const taken = deps({ insertJob: () => Promise.reject(new DbError('23505', 'duplicate')) });
  assert.equal((await handleApi(req('POST', '/jobs', body), taken)).status, 409);
  const logged: string[] = [];
  const broken = await handleApi(
    req('POST', '/jobs', body),
    deps({ insertJob: () => Promise.reject(new Error('connection reset')) }),
    (l) => logged.push(l),
  );
  assert.equal(broken.status, 500);
  assert.match(logged[0]!, /connection reset/);
});

Deno.test('PATCH of an unknown job is 404; the OpenAPI document needs no key', async () => {
  assert.equal((await handleApi(req('PATCH', '/jobs/some-job', JSON.stringify({ title: 'Neuer Titel' })), deps())).status, 404);
  const doc = await handleApi(req('GET', '/openapi.json', undefined, null), deps());
  assert.equal(doc.status, 200);
  const json = await doc.json();
  assert.equal(json.openapi, '3.1.0');
  assert.equal(json.servers[0].url, 'https://example.test/functions/v1/api/v1');
});
