/**
 * The subset of the Resend REST API the product uses (`POST /emails`, `POST /emails/batch`,
 * `GET /emails/:id`, `GET /emails`), answering with Resend's status codes and error shape
 * `{ statusCode, name, message }` (https://resend.com/docs/api-reference/errors), so the
 * `resend` SDK pointed here with `RESEND_BASE_URL` behaves as against api.resend.com.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, HttpError, readBody, sendJson } from '../../http.ts';
import type { MessageStore, StoredMessage } from './store.ts';

/** Resend's error names (the SDK's `RESEND_ERROR_CODE_KEY`). */
export type ResendErrorName =
  | 'invalid_idempotency_key'
  | 'validation_error'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_idempotent_request'
  | 'concurrent_idempotent_requests'
  | 'invalid_attachment'
  | 'invalid_from_address'
  | 'invalid_parameter'
  | 'missing_required_field'
  | 'application_error';

/** An error answered in Resend's shape `{ statusCode, name, message }` with `statusCode` as HTTP status. */
export class ResendError extends Error {
  constructor(
    public statusCode: number,
    public errorName: ResendErrorName,
    message: string,
  ) {
    super(message);
  }
}

/** Largest accepted request body in bytes (Resend allows 40 MB incl. attachments; 10 MiB is plenty here). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Resend: at most 50 recipients per field, 100 e-mails per batch. */
const MAX_RECIPIENTS = 50;
const MAX_BATCH = 100;

const ADDRESS_RE = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
const NAMED_ADDRESS_RE = /^[^<>]*<([^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+)>$/;

function isAddress(value: string): boolean {
  const v = value.trim();
  return ADDRESS_RE.test(v) || NAMED_ADDRESS_RE.test(v);
}

function sendError(res: ServerResponse, err: ResendError, headers: Record<string, string> = {}): void {
  sendJson(res, err.statusCode, { statusCode: err.statusCode, name: err.errorName, message: err.message }, headers);
}

/**
 * Validates one e-mail payload (snake_case API fields) and turns it into a stored message.
 * Throws ResendError 422 (`missing_required_field`, `validation_error`, `invalid_attachment`).
 * `label` prefixes messages in batches (e.g. `emails[2]`).
 */
export function toMessage(input: unknown, label = ''): StoredMessage {
  const p = label ? `${label}: ` : '';
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ResendError(422, 'validation_error', `${p}The email payload must be an object.`);
  }
  const body = input as Record<string, unknown>;
  const str = (field: string, required: boolean): string | null => {
    const v = body[field];
    if (v === undefined || v === null || v === '') {
      if (required) throw new ResendError(422, 'missing_required_field', `${p}Missing \`${field}\` field.`);
      return null;
    }
    if (typeof v !== 'string') throw new ResendError(422, 'validation_error', `${p}The \`${field}\` field must be a \`string\`.`);
    return v;
  };
  const addresses = (field: string, required: boolean): string[] | null => {
    const v = body[field];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0 && !required)) {
      if (required) throw new ResendError(422, 'missing_required_field', `${p}Missing \`${field}\` field.`);
      return null;
    }
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.some((a) => typeof a !== 'string')) {
      throw new ResendError(422, 'validation_error', `${p}The \`${field}\` field must be a \`string\` or \`string[]\`.`);
    }
    if (list.length === 0) throw new ResendError(422, 'missing_required_field', `${p}Missing \`${field}\` field.`);
    if (list.length > MAX_RECIPIENTS) {
      throw new ResendError(422, 'validation_error', `${p}Too many recipients in \`${field}\`: at most ${MAX_RECIPIENTS}.`);
    }
    for (const a of list as string[]) {
      if (!isAddress(a)) {
        throw new ResendError(
          422,
          'validation_error',
          `${p}Invalid \`${field}\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`,
        );
      }
    }
    return (list as string[]).map((a) => a.trim());
  };

  const from = str('from', true)!;
  if (!isAddress(from)) {
    throw new ResendError(
      422,
      'validation_error',
      `${p}Invalid \`from\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`,
    );
  }
  const to = addresses('to', true)!;
  const subject = str('subject', true)!;
  const html = str('html', false);
  const text = str('text', false);
  if (html === null && text === null && body.template === undefined) {
    throw new ResendError(422, 'missing_required_field', `${p}Missing \`html\` or \`text\` field.`);
  }
  const headers = body.headers;
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((h) => typeof h !== 'string')) {
      throw new ResendError(422, 'validation_error', `${p}The \`headers\` field must be an object of strings.`);
    }
  }
  const tags = body.tags;
  if (tags !== undefined && tags !== null) {
    const ok =
      Array.isArray(tags) &&
      tags.every(
        (t) =>
          t !== null &&
          typeof t === 'object' &&
          typeof (t as Record<string, unknown>).name === 'string' &&
          typeof (t as Record<string, unknown>).value === 'string' &&
          /^[A-Za-z0-9_-]{1,256}$/.test((t as { name: string }).name) &&
          /^[A-Za-z0-9_-]{0,256}$/.test((t as { value: string }).value),
      );
    if (!ok) {
      throw new ResendError(
        422,
        'validation_error',
        `${p}Invalid \`tags\` field. Tag names and values may only contain ASCII letters, numbers, underscores or dashes.`,
      );
    }
  }
  let attachments: StoredMessage['attachments'] = null;
  if (body.attachments !== undefined && body.attachments !== null) {
    if (!Array.isArray(body.attachments)) {
      throw new ResendError(422, 'invalid_attachment', `${p}The \`attachments\` field must be an array.`);
    }
    attachments = body.attachments.map((a: unknown) => {
      const att = (a ?? {}) as Record<string, unknown>;
      const content = att.content;
      if (typeof content !== 'string' && typeof att.path !== 'string') {
        throw new ResendError(422, 'invalid_attachment', `${p}Attachment must have either a \`content\` or \`path\`.`);
      }
      return {
        filename: typeof att.filename === 'string' ? att.filename : null,
        content_type: typeof att.content_type === 'string' ? att.content_type : null,
        size: typeof content === 'string' ? Buffer.from(content, 'base64').length : 0,
      };
    });
  }
  const scheduledAt = str('scheduled_at', false);
  return {
    object: 'email',
    id: randomUUID(),
    from,
    to,
    cc: addresses('cc', false),
    bcc: addresses('bcc', false),
    reply_to: addresses('reply_to', false),
    subject,
    html,
    text,
    headers: (headers as Record<string, string> | undefined) ?? null,
    tags: (tags as { name: string; value: string }[] | undefined) ?? null,
    attachments,
    scheduled_at: scheduledAt,
    last_event: 'delivered',
    created_at: new Date().toISOString(),
    source: 'resend',
  };
}

/** JSON with sorted keys, so the same payload hashes the same whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Resend's `GET /emails/:id` answer (internal fields dropped). */
function publicView(m: StoredMessage): Record<string, unknown> {
  return {
    object: 'email',
    id: m.id,
    to: m.to,
    from: m.from,
    created_at: m.created_at,
    subject: m.subject,
    html: m.html,
    text: m.text,
    bcc: m.bcc,
    cc: m.cc,
    reply_to: m.reply_to,
    last_event: m.last_event,
    scheduled_at: m.scheduled_at,
    tags: m.tags ?? [],
  };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Handles a request on the Resend surface (`/emails...`). `apiKey` is the only key accepted:
 * no `Authorization` gives 401 `missing_api_key`, another key 403 `invalid_api_key`.
 */
export async function handleResend(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  store: MessageStore,
  apiKey: string,
): Promise<void> {
  try {
    const token = bearerToken(req);
    if (!token) throw new ResendError(401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (token !== apiKey) throw new ResendError(403, 'invalid_api_key', 'API key is invalid.');

    const method = req.method ?? 'GET';
    if (pathname === '/emails' || pathname === '/emails/batch') {
      if (pathname === '/emails' && method === 'GET') {
        const data = store.list().map(publicView);
        sendJson(res, 200, { object: 'list', has_more: false, data });
        return;
      }
      if (method !== 'POST') throw new ResendError(405, 'method_not_allowed', 'Method is not allowed for the requested path.');
      await handleSend(req, res, pathname, store);
      return;
    }
    const m = /^\/emails\/([^/]+)$/.exec(pathname);
    if (m) {
      if (method !== 'GET') throw new ResendError(405, 'method_not_allowed', 'Method is not allowed for the requested path.');
      const id = decodeURIComponent(m[1]!);
      if (!UUID_RE.test(id)) throw new ResendError(422, 'invalid_parameter', 'The `id` must be a valid UUID.');
      const msg = store.get(id);
      if (!msg) throw new ResendError(404, 'not_found', 'Email not found');
      sendJson(res, 200, publicView(msg));
      return;
    }
    throw new ResendError(404, 'not_found', 'The requested endpoint does not exist.');
  } catch (err) {
    if (err instanceof ResendError) return sendError(res, err);
    if (err instanceof HttpError && err.status === 413) {
      // The rest of the body is not read: tell the client not to reuse this connection.
      return sendError(res, new ResendError(413, 'validation_error', 'Request body is too large.'), { connection: 'close' });
    }
    throw err;
  }
}

async function handleSend(req: IncomingMessage, res: ServerResponse, endpoint: string, store: MessageStore): Promise<void> {
  const keyHeader = req.headers['idempotency-key'];
  const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
  if (key !== undefined && (key.length < 1 || key.length > 256)) {
    throw new ResendError(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
  }
  const raw = await readBody(req, MAX_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ResendError(400, 'validation_error', 'Invalid JSON: the request body could not be parsed.');
  }
  const bodyHash = createHash('sha256').update(canonical(body)).digest('hex');
  if (key !== undefined) {
    const prior = store.idempotent(endpoint, key);
    if (prior) {
      if (prior.bodyHash !== bodyHash) {
        throw new ResendError(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
      }
      sendJson(res, prior.status, prior.response);
      return;
    }
  }

  let messages: StoredMessage[];
  let response: unknown;
  if (endpoint === '/emails') {
    const msg = toMessage(body);
    messages = [msg];
    response = { id: msg.id };
  } else {
    if (!Array.isArray(body)) throw new ResendError(422, 'validation_error', 'The batch payload must be an array of emails.');
    if (body.length === 0) throw new ResendError(422, 'validation_error', 'The batch payload must contain at least one email.');
    if (body.length > MAX_BATCH) throw new ResendError(422, 'validation_error', `The batch payload may contain at most ${MAX_BATCH} emails.`);
    const permissive = String(req.headers['x-batch-validation'] ?? 'strict').toLowerCase() === 'permissive';
    messages = [];
    const errors: { index: number; message: string }[] = [];
    body.forEach((item: unknown, index: number) => {
      try {
        const rec = item as Record<string, unknown> | null;
        if (rec && typeof rec === 'object' && rec.attachments !== undefined) {
          throw new ResendError(422, 'validation_error', `emails[${index}]: Attachments are not supported in batch emails.`);
        }
        if (rec && typeof rec === 'object' && rec.scheduled_at !== undefined) {
          throw new ResendError(422, 'validation_error', `emails[${index}]: \`scheduled_at\` is not supported in batch emails.`);
        }
        messages.push(toMessage(item, `emails[${index}]`));
      } catch (err) {
        if (!(err instanceof ResendError) || !permissive) throw err;
        errors.push({ index, message: err.message });
      }
    });
    response = permissive ? { data: messages.map((m) => ({ id: m.id })), errors } : { data: messages.map((m) => ({ id: m.id })) };
  }
  // Memory first (synchronously, so a concurrent retry with the same key sees the record), then disk.
  const writes = [store.add(messages)];
  if (key !== undefined) writes.push(store.remember({ key, endpoint, bodyHash, status: 200, response, createdAt: Date.now() }));
  await Promise.all(writes);
  sendJson(res, 200, response);
}
