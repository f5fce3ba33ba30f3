/**
 * Request handler of the `api` Edge Function: the versioned public HTTP API of organisations
 * (issue 15 "API access"), served at /functions/v1/api/v1/... . Free of Deno globals and of the
 * database client, so routing and validation are testable with fake dependencies; index.ts wires
 * the real ones (deps.ts).
 *
 * Routes (JSON everywhere; `Authorization: Bearer <key>` except for the OpenAPI document):
 * - GET  /v1/openapi.json         the OpenAPI 3.1 document (no key)
 * - GET  /v1/projects             projects:read  the organisation's published projects
 * - GET  /v1/jobs                 jobs:read      the organisation's jobs (expired ones included)
 * - GET  /v1/jobs/{id}            jobs:read
 * - POST /v1/jobs                 jobs:write     create a job of the organisation (201)
 * - PATCH /v1/jobs/{id}           jobs:write     update one of the organisation's jobs
 * - GET  /v1/events               events:read    the organisation's events (drafts excluded)
 * - GET  /v1/search?q=            search:read    the public search (what an anonymous visitor finds)
 * Lists: `?limit=1..100` (default 20) and `?cursor=` from the previous page's `next_cursor`;
 * answer `{ data: [...], next_cursor: string | null }` in a stable order (projects and events by
 * id, jobs by creation time then id), so rows inserted while paging never cause duplicates or gaps.
 * Errors: `{ error: { code, message } }` with 400 (invalid input), 401 (missing, unknown or revoked
 * key), 403 (scope missing, or the organisation's Enterprise subscription lapsed), 404, 405 (with Allow), 413, 429 (with Retry-After, 60 requests per
 * minute and key). Every answer to a known key carries X-RateLimit-Limit / X-RateLimit-Remaining.
 * Malformed input never causes a 5xx; a 500 means the database failed (logged with a request id).
 */
import { z } from 'zod';
import {
  decodeCursor,
  encodeCursor,
  IdCursor,
  JOB_ID,
  JobCreate,
  JobCursor,
  JobUpdate,
  ListQuery,
  PageCursor,
  type Scope,
  SearchQuery,
} from './schemas.ts';
import { buildOpenApi } from './openapi.ts';

/** What authenticate_api_key answers for a known, not revoked key. */
export interface ApiKeyInfo {
  key_id: string;
  organization_id: string;
  scopes: string[];
  /** false when the organisation's Enterprise subscription is no longer paid (403) */
  enterprise: boolean;
  /** author recorded on jobs created with the key (its creator while a member, else an owner) */
  posted_by: string | null;
  allowed: boolean;
  limit: number;
  remaining: number;
  retry_after: number;
}

/** A database refusal (PostgREST error code), mapped to 400/409 by the handler. */
export class DbError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A row as the API returns it. */
export type Row = Record<string, unknown>;

/** Data access of the handler; every list returns up to `limit + 1` rows so the handler knows if more follow. */
export interface ApiDeps {
  authenticate(key: string): Promise<ApiKeyInfo | null>;
  listProjects(org: string, afterId: number | null, limit: number): Promise<Row[]>;
  listEvents(org: string, afterId: number | null, limit: number): Promise<Row[]>;
  listJobs(org: string, after: { t: string; id: string } | null, limit: number): Promise<Row[]>;
  getJob(org: string, id: string): Promise<Row | null>;
  /** `total_estimated`: the total of a huge result set is the database's estimate (issue 34). */
  search(q: string, types: string[] | null, page: number, pageSize: number): Promise<{ total: number; total_estimated?: boolean; results: Row[] }>;
  insertJob(org: string, postedBy: string | null, id: string, job: JobCreate): Promise<Row>;
  updateJob(org: string, id: string, patch: JobUpdate): Promise<Row | null>;
  /** Base URL of the API as clients reach it, e.g. https://x.supabase.co/functions/v1/api/v1 */
  serverUrl: string;
  /** Random suffix for new job ids (tests pass a fixed one). */
  randomSuffix?: () => string;
}

const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, OPTIONS',
  'Access-Control-Expose-Headers': 'retry-after, x-ratelimit-limit, x-ratelimit-remaining',
};

/** An answer with status and code; thrown inside the handler, turned into the error shape. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

function errorBody(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return json({ error: { code, message } }, status, headers);
}

interface Route {
  /** method -> scope needed (null: no key) */
  methods: Record<string, Scope | null>;
  run: (ctx: Ctx) => Promise<Response>;
}

interface Ctx {
  req: Request;
  url: URL;
  key: ApiKeyInfo;
  param: string | null;
  deps: ApiDeps;
}

/** The path below /v1, whatever prefix the platform leaves in the URL (/api, /functions/v1/api). */
export function apiPath(pathname: string): string | null {
  const m = /^(?:\/functions\/v1)?\/api(\/.*)?$/.exec(pathname);
  if (!m) return null;
  const rest = m[1] ?? '/';
  const v = /^\/v1(\/.*)?$/.exec(rest);
  if (!v) return null;
  const sub = (v[1] ?? '/').replace(/\/+$/, '');
  return sub === '' ? '/' : sub;
}

function parseQuery<T extends z.ZodType>(url: URL, schema: T): z.infer<T> {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) raw[k] = v;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError(
      400,
      'invalid_parameter',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; '),
    );
  }
  return parsed.data;
}

async function readJson<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  const length = Number(req.headers.get('content-length') ?? '0');
  if (Number.isFinite(length) && length > 64 * 1024) {
    throw new ApiError(413, 'payload_too_large', 'Request body larger than 64 KiB');
  }
  const text = await req.text();
  if (text.length > 64 * 1024) throw new ApiError(413, 'payload_too_large', 'Request body larger than 64 KiB');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError(
      400,
      'validation_failed',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );
  }
  return parsed.data;
}

/** Maps a database refusal to 400 / 409; anything else stays a server error. */
function dbRefusal(err: unknown): never {
  if (err instanceof DbError) {
    if (err.code === '23505') throw new ApiError(409, 'conflict', 'A job with this id exists already');
    if (/^(22|23)/.test(err.code) || err.code === 'P0001') throw new ApiError(400, 'validation_failed', err.message);
    if (err.code === '42501') throw new ApiError(403, 'forbidden', err.message);
  }
  throw err;
}

function page(rows: Row[], limit: number, cursorOf: (last: Row) => unknown): Response {
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  return json({ data, next_cursor: more ? encodeCursor(cursorOf(data[data.length - 1]!)) : null }, 200);
}

function idCursor(q: { cursor?: string | undefined }): number | null {
  if (q.cursor === undefined) return null;
  const c = decodeCursor(q.cursor, IdCursor);
  if (!c) throw new ApiError(400, 'invalid_cursor', 'cursor is not a cursor of this list');
  return c.id;
}

/** Job ids: the title as ASCII slug (umlauts transliterated) plus a random suffix. */
export function jobIdFor(title: string, suffix: string): string {
  const base = title
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return `${base || 'job'}-${suffix}`;
}

const ROUTES: { pattern: RegExp; route: Route }[] = [
  {
    pattern: /^\/projects$/,
    route: {
      methods: { GET: 'projects:read' },
      run: async ({ url, key, deps }) => {
        const q = parseQuery(url, ListQuery);
        const rows = await deps.listProjects(key.organization_id, idCursor(q), q.limit);
        return page(rows, q.limit, (last) => ({ id: Number(last.id) }));
      },
    },
  },
  {
    pattern: /^\/events$/,
    route: {
      methods: { GET: 'events:read' },
      run: async ({ url, key, deps }) => {
        const q = parseQuery(url, ListQuery);
        const rows = await deps.listEvents(key.organization_id, idCursor(q), q.limit);
        return page(rows, q.limit, (last) => ({ id: Number(last.id) }));
      },
    },
  },
  {
    pattern: /^\/jobs$/,
    route: {
      methods: { GET: 'jobs:read', POST: 'jobs:write' },
      run: async ({ req, url, key, deps }) => {
        if (req.method === 'POST') {
          const body = await readJson(req, JobCreate);
          const random = deps.randomSuffix ?? (() => crypto.randomUUID().replaceAll('-', '').slice(0, 8));
          try {
            const row = await deps.insertJob(key.organization_id, key.posted_by, jobIdFor(body.title, random()), body);
            return json({ data: row }, 201, { Location: `${deps.serverUrl}/jobs/${String(row.id)}` });
          } catch (err) {
            return dbRefusal(err);
          }
        }
        const q = parseQuery(url, ListQuery);
        let after: { t: string; id: string } | null = null;
        if (q.cursor !== undefined) {
          after = decodeCursor(q.cursor, JobCursor);
          if (!after) throw new ApiError(400, 'invalid_cursor', 'cursor is not a cursor of this list');
        }
        const rows = await deps.listJobs(key.organization_id, after, q.limit);
        return page(rows, q.limit, (last) => ({ t: String(last.created_at), id: String(last.id) }));
      },
    },
  },
  {
    pattern: /^\/jobs\/([^/]+)$/,
    route: {
      methods: { GET: 'jobs:read', PATCH: 'jobs:write' },
      run: async ({ req, key, param, deps }) => {
        const id = param ?? '';
        const valid = id.length <= 120 && JOB_ID.test(id);
        if (req.method === 'PATCH') {
          const patch = await readJson(req, JobUpdate);
          if (!valid) throw new ApiError(404, 'not_found', 'No such job of this organisation');
          let row: Row | null;
          try {
            row = await deps.updateJob(key.organization_id, id, patch);
          } catch (err) {
            return dbRefusal(err);
          }
          if (!row) throw new ApiError(404, 'not_found', 'No such job of this organisation');
          return json({ data: row }, 200);
        }
        const row = valid ? await deps.getJob(key.organization_id, id) : null;
        if (!row) throw new ApiError(404, 'not_found', 'No such job of this organisation');
        return json({ data: row }, 200);
      },
    },
  },
  {
    pattern: /^\/search$/,
    route: {
      methods: { GET: 'search:read' },
      run: async ({ url, deps }) => {
        const q = parseQuery(url, SearchQuery);
        let pageNo = 1;
        if (q.cursor !== undefined) {
          const c = decodeCursor(q.cursor, PageCursor);
          if (!c) throw new ApiError(400, 'invalid_cursor', 'cursor is not a cursor of this search');
          pageNo = c.page;
        }
        const result = await deps.search(q.q, q.types ? [...new Set(q.types.split(','))] : null, pageNo, q.limit);
        const more = pageNo * q.limit < result.total && result.results.length === q.limit && pageNo < 100;
        return json(
          {
            data: result.results,
            total: result.total,
            total_estimated: result.total_estimated ?? false,
            next_cursor: more ? encodeCursor({ page: pageNo + 1 }) : null,
          },
          200,
        );
      },
    },
  },
];

/** Answers one API request; never throws. `log` receives unexpected failures. */
export async function handleApi(req: Request, deps: ApiDeps, log: (line: string) => void = console.error): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  let rateHeaders: Record<string, string> = {};
  try {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new ApiError(400, 'invalid_url', 'The request URL cannot be parsed');
    }
    const path = apiPath(url.pathname);
    if (path === null) throw new ApiError(404, 'not_found', 'Unknown path; the API lives under /v1');
    if (path === '/openapi.json') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new ApiError(405, 'method_not_allowed', 'Use GET', { Allow: 'GET, HEAD' });
      }
      return json(buildOpenApi(deps.serverUrl), 200, { 'Cache-Control': 'public, max-age=300' });
    }
    let match: { route: Route; param: string | null } | null = null;
    for (const r of ROUTES) {
      const m = r.pattern.exec(path);
      if (m) {
        match = { route: r.route, param: m[1] ?? null };
        break;
      }
    }
    if (!match) throw new ApiError(404, 'not_found', `No endpoint ${path}`);
    const allowed = Object.keys(match.route.methods);
    if (!allowed.includes(req.method)) {
      throw new ApiError(405, 'method_not_allowed', `Use ${allowed.join(' or ')}`, { Allow: [...allowed, 'OPTIONS'].join(', ') });
    }
    const auth = req.headers.get('authorization') ?? '';
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    if (!bearer) {
      throw new ApiError(401, 'unauthorized', 'Send the API key as `Authorization: Bearer <key>`', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const key = /^twk_[0-9a-f]{48}$/.test(bearer[1]!) ? await deps.authenticate(bearer[1]!) : null;
    if (!key) {
      throw new ApiError(401, 'invalid_key', 'The API key is unknown or revoked', {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    rateHeaders = { 'X-RateLimit-Limit': String(key.limit), 'X-RateLimit-Remaining': String(key.remaining) };
    if (!key.allowed) {
      throw new ApiError(429, 'rate_limited', `At most ${key.limit} requests per minute per key; retry in ${key.retry_after} s`, {
        'Retry-After': String(key.retry_after),
      });
    }
    if (!key.enterprise) {
      throw new ApiError(403, 'enterprise_required', "API access needs the organisation's active Enterprise subscription");
    }
    const scope = match.route.methods[req.method]!;
    if (!key.scopes.includes(scope)) throw new ApiError(403, 'insufficient_scope', `This key lacks the scope ${scope}`);
    const response = await match.route.run({ req, url, key, param: match.param, deps });
    for (const [k, v] of Object.entries(rateHeaders)) response.headers.set(k, v);
    return response;
  } catch (err) {
    if (err instanceof ApiError) return errorBody(err.status, err.code, err.message, { ...rateHeaders, ...err.headers });
    const requestId = crypto.randomUUID();
    log(JSON.stringify({ fn: 'api', requestId, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
    return errorBody(500, 'internal_error', `Internal error (request ${requestId})`, rateHeaders);
  }
}
