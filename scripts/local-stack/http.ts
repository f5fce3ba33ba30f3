/**
 * Small HTTP helpers for the stack's services (bodies with size limits, JSON answers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public body?: unknown,
  ) {
    super(message);
  }
}

/** Reads the whole body; throws HttpError 413 past `limitBytes` (default 1 MiB). */
export async function readBody(req: IncomingMessage, limitBytes = 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limitBytes) {
      req.resume();
      throw new HttpError(413, 'Payload too large');
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body; throws HttpError 400 on malformed JSON. Empty body gives `{}`. */
export async function readJson(req: IncomingMessage, limitBytes?: number): Promise<unknown> {
  const raw = await readBody(req, limitBytes);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Could not parse request body as JSON');
  }
}

/** Parses an `application/x-www-form-urlencoded` or JSON body into a flat object. */
export async function readForm(req: IncomingMessage, limitBytes?: number): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded')) {
    const raw = await readBody(req, limitBytes);
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  }
  const json = await readJson(req, limitBytes);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return json as Record<string, unknown>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...headers });
  res.end(payload);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

/** The bearer token of the Authorization header, if any. */
export function bearerToken(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1]!.trim() : null;
}

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
