/**
 * Realtime's REST broadcast API (mounted under `/realtime/v1`):
 * - `POST /api/broadcast` with `{messages: [{topic, event, payload, private?, id?}]}` → 202,
 *   what realtime-js `send()` falls back to before joining (Realtime `BroadcastController`);
 * - `POST /api/broadcast/:topic/events/:event[?private=true]` with a JSON or
 *   `application/octet-stream` body → 202 (realtime-js `httpSend()`, `BroadcastSingleController`).
 * Auth: `Authorization: Bearer <jwt>` or the `apikey` (401 `{message: "Unauthorized"}`).
 * Private messages are sent only when the caller passes the insert policy of realtime.messages
 * for the topic; otherwise they are silently dropped (still 202), as on Supabase.
 * Invalid bodies: 422 `{errors: {...}}` in Ecto changeset style.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, HttpError, readBody, sendJson } from '../../http.ts';
import type { JwtClaims } from '../../db.ts';
import { checkToken, writePolicies } from './authz.ts';
import { hubKey, type Outbound } from './fanout.ts';
import type { RealtimeRuntime } from './socket.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const BODY_LIMIT = 8 * 1024 * 1024;

function accepted(res: ServerResponse): void {
  res.writeHead(202, { 'content-length': '0' });
  res.end();
}

async function authenticate(rt: RealtimeRuntime, req: IncomingMessage): Promise<JwtClaims | null> {
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : new URL(req.url ?? '/', 'http://x').searchParams.get('apikey');
  const token = bearerToken(req) ?? apikey;
  if (!token) return null;
  const checked = await checkToken(token, rt.config.jwtSecret);
  return checked.ok ? checked.claims : null;
}

interface ValidMessage {
  topic: string;
  event: string;
  payload: Obj;
  private: boolean;
  id?: string;
}

function parseBoolean(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return false;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return undefined;
}

function validateMessage(rt: RealtimeRuntime, raw: unknown): { ok: ValidMessage } | { errors: Record<string, string[]> } {
  if (!isObj(raw)) return { errors: { message: ['is invalid'] } };
  const errors: Record<string, string[]> = {};
  const requireString = (field: 'topic' | 'event') => {
    const v = raw[field];
    if (v === undefined || v === null || v === '') errors[field] = ["can't be blank"];
    else if (typeof v !== 'string') errors[field] = ['is invalid'];
  };
  requireString('topic');
  requireString('event');
  if (raw.payload === undefined || raw.payload === null) errors.payload = ["can't be blank"];
  else if (!isObj(raw.payload)) errors.payload = ['is invalid'];
  else if (Buffer.byteLength(JSON.stringify(raw.payload)) > rt.maxPayloadBytes) errors.payload = ['Payload size exceeds tenant limit'];
  const priv = parseBoolean(raw.private);
  if (priv === undefined) errors.private = ['is invalid'];
  if (raw.id !== undefined && raw.id !== null && typeof raw.id !== 'string') errors.id = ['is invalid'];
  if (Object.keys(errors).length > 0) return { errors };
  return {
    ok: {
      topic: raw.topic as string,
      event: raw.event as string,
      payload: raw.payload as Obj,
      private: priv!,
      ...(typeof raw.id === 'string' ? { id: raw.id } : {}),
    },
  };
}

/** May the caller send to private `topic`? (insert policy on realtime.messages) */
async function canWrite(rt: RealtimeRuntime, claims: JwtClaims, topic: string): Promise<boolean> {
  try {
    return (await writePolicies(rt.pool, claims, topic, ['broadcast'])).broadcast;
  } catch (err) {
    rt.log(`broadcast authorisation failed for ${topic}: ${(err as Error).message}`);
    return false;
  }
}

function publish(rt: RealtimeRuntime, topic: string, isPrivate: boolean, out: Outbound): void {
  rt.hub.publish(hubKey(topic, isPrivate), out, { accept: (s) => s.canReadBroadcast() });
}

async function batch(rt: RealtimeRuntime, req: IncomingMessage, res: ServerResponse, claims: JwtClaims): Promise<void> {
  const raw = await readBody(req, BODY_LIMIT);
  let body: unknown;
  try {
    body = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
  } catch {
    return sendJson(res, 400, { message: 'Could not parse request body as JSON' });
  }
  if (!isObj(body)) return sendJson(res, 422, { errors: { messages: ["can't be blank"] } });
  const list = body.messages;
  if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) {
    return sendJson(res, 422, { errors: { messages: ["can't be blank"] } });
  }
  if (!Array.isArray(list)) return sendJson(res, 422, { errors: { messages: ['is invalid'] } });
  const results = list.map((m) => validateMessage(rt, m));
  if (results.some((r) => 'errors' in r)) {
    return sendJson(res, 422, { errors: { messages: results.map((r) => ('errors' in r ? r.errors : {})) } });
  }
  const messages = results.map((r) => (r as { ok: ValidMessage }).ok);
  const allowed = new Map<string, boolean>();
  for (const m of messages) {
    if (m.private && !allowed.has(m.topic)) allowed.set(m.topic, await canWrite(rt, claims, m.topic));
  }
  for (const m of messages) {
    if (m.private && !allowed.get(m.topic)) continue;
    const payload: Obj = { payload: m.payload, event: m.event, type: 'broadcast' };
    if (m.id) payload.meta = { id: m.id };
    publish(rt, m.topic, m.private, { kind: 'json', event: 'broadcast', payload });
  }
  accepted(res);
}

async function single(
  rt: RealtimeRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  claims: JwtClaims,
  topic: string,
  event: string,
): Promise<void> {
  const isPrivate = new URL(req.url ?? '/', 'http://x').searchParams.get('private') === 'true';
  const raw = await readBody(req, BODY_LIMIT);
  const binary = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/octet-stream');
  let out: Outbound;
  if (binary) {
    if (raw.length > rt.maxPayloadBytes) return sendJson(res, 422, { errors: { payload: ['Payload size exceeds tenant limit'] } });
    out = { kind: 'user', userEvent: event, encoding: 'binary', body: raw, metadata: null };
  } else {
    let payload: unknown;
    try {
      payload = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    } catch {
      return sendJson(res, 400, { message: 'Could not parse request body as JSON' });
    }
    if (!isObj(payload)) return sendJson(res, 422, { errors: { payload: ['is invalid'] } });
    if (raw.length > rt.maxPayloadBytes) return sendJson(res, 422, { errors: { payload: ['Payload size exceeds tenant limit'] } });
    out = { kind: 'json', event: 'broadcast', payload: { payload, event, type: 'broadcast' } };
  }
  if (isPrivate && !(await canWrite(rt, claims, topic))) return accepted(res);
  publish(rt, topic, isPrivate, out);
  accepted(res);
}

/**
 * Handles a REST request under `/realtime/v1`. `subpath` starts with `/`.
 * Errors: answers 401/404/405/413/422 itself; never throws for bad input.
 */
export async function handleRest(rt: RealtimeRuntime, req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void> {
  const singleMatch = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)\/?$/.exec(subpath);
  const isBatch = subpath === '/api/broadcast' || subpath === '/api/broadcast/';
  if (!isBatch && !singleMatch) {
    req.resume();
    return sendJson(res, 404, { message: 'Not Found' });
  }
  if (req.method !== 'POST') {
    req.resume();
    return sendJson(res, 405, { message: 'Method Not Allowed' }, { allow: 'POST' });
  }
  const claims = await authenticate(rt, req);
  if (!claims) {
    req.resume();
    return sendJson(res, 401, { message: 'Unauthorized' });
  }
  try {
    if (isBatch) return await batch(rt, req, res, claims);
    let topic: string;
    let event: string;
    try {
      topic = decodeURIComponent(singleMatch![1]!);
      event = decodeURIComponent(singleMatch![2]!);
    } catch {
      req.resume();
      return sendJson(res, 400, { message: 'Malformed topic or event in path' });
    }
    await single(rt, req, res, claims, topic, event);
  } catch (err) {
    if (err instanceof HttpError) return sendJson(res, err.status, { message: err.message });
    throw err;
  }
}
