/**
 * HTTP helpers shared by the Edge Functions: CORS, JSON answers, the error shape
 * `{ error: { code, message } }` and zod-validated JSON bodies.
 */
import { z } from 'zod';

export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, stripe-signature',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

/** An error that becomes a JSON answer with `status`; `code` is machine-readable. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON response with CORS headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The standard error answer: `{ error: { code, message } }`. */
export function errorResponse(status: number, code: string, message: string): Response {
  return json({ error: { code, message } }, status);
}

/** Answers CORS preflight requests; null for other methods. */
export function preflight(req: Request): Response | null {
  return req.method === 'OPTIONS' ? new Response('ok', { headers: corsHeaders }) : null;
}

/**
 * Reads and validates a JSON body. Errors: HttpError 400 `bad_json` (not JSON),
 * 400 `validation_failed` (schema mismatch; message lists the failing fields),
 * 413 `payload_too_large` past `limitBytes` (default 64 KiB).
 */
export async function readBody<T extends z.ZodType>(req: Request, schema: T, limitBytes = 64 * 1024): Promise<z.infer<T>> {
  const text = await req.text();
  if (new TextEncoder().encode(text).length > limitBytes) throw new HttpError(413, 'payload_too_large', 'Request body too large');
  let raw: unknown;
  try {
    raw = text.length ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'bad_json', 'Request body is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    throw new HttpError(400, 'validation_failed', message);
  }
  return parsed.data;
}

/**
 * Wraps a handler: answers preflight, turns HttpError into its JSON answer and anything else into
 * a 500 `internal_error` (logged with a request id, never leaking internals).
 */
export function withErrors(name: string, handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    const pre = preflight(req);
    if (pre) return pre;
    const requestId = crypto.randomUUID();
    try {
      return await handler(req);
    } catch (err) {
      if (err instanceof HttpError) return errorResponse(err.status, err.code, err.message);
      console.error(JSON.stringify({ fn: name, requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) }));
      return errorResponse(500, 'internal_error', `Internal error (request ${requestId})`);
    }
  };
}

/** The bearer token of the request, or null. */
export function bearer(req: Request): string | null {
  const h = req.headers.get('Authorization') ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1]!.trim() : null;
}
