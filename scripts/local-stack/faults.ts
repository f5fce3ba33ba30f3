/**
 * Fault injection of the local stack, for the fault suite (issue 17, scripts/faults). Off unless
 * the daemon runs with `TEAMWERK_FAULTS=1` (the fault suite's own stack); a developer's or the
 * test run's stack has no fault endpoints at all (they answer 404 like any unknown path).
 *
 * A fault rule says: requests whose path starts with `path` answer `status` (or are held for
 * `delay_ms` first, or both) until `until` (epoch ms). Control surfaces:
 * - gateway: `POST /__faults` `{ path, status?, delay_ms?, seconds }` (path e.g.
 *   `/functions/v1/stripe-webhook`), `DELETE /__faults` clears all rules;
 * - mailbox: `POST /api/faults` `{ status?, delay_ms?, seconds }` for the Resend API (`/emails`),
 *   `DELETE /api/faults`.
 * Both need the service role key as bearer (gateway) or the Resend key (mailbox).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Whether this process may inject faults (`TEAMWERK_FAULTS=1`). */
export const faultsEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.TEAMWERK_FAULTS === '1';

/** One active fault. */
export interface FaultRule {
  path: string;
  /** HTTP status to answer with; absent = pass the request on (after the delay) */
  status?: number;
  /** hold the request this long (ms) before answering or passing it on */
  delay_ms?: number;
  /** epoch ms */
  until: number;
}

/** The active rules of one service, with expiry. */
export class FaultSwitch {
  private rules: FaultRule[] = [];

  /**
   * Adds a rule from a control request body. Errors: throws `Error` with a message for a body that
   * is not `{ path?, status?: 400-599, delay_ms?: 0-120000, seconds: 1-3600 }`.
   */
  add(body: unknown, defaultPath?: string): FaultRule {
    const b = (body ?? {}) as Record<string, unknown>;
    const path = typeof b.path === 'string' && b.path.startsWith('/') ? b.path : defaultPath;
    const seconds = Number(b.seconds);
    const status = b.status === undefined ? undefined : Number(b.status);
    const delay = b.delay_ms === undefined ? undefined : Number(b.delay_ms);
    if (!path) throw new Error('path must start with /');
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) throw new Error('seconds must be 1-3600');
    if (status !== undefined && !(Number.isInteger(status) && status >= 400 && status <= 599)) throw new Error('status must be 400-599');
    if (delay !== undefined && !(Number.isFinite(delay) && delay >= 0 && delay <= 120_000)) throw new Error('delay_ms must be 0-120000');
    if (status === undefined && delay === undefined) throw new Error('status or delay_ms is required');
    const rule: FaultRule = { path, until: Date.now() + seconds * 1000, ...(status !== undefined ? { status } : {}), ...(delay !== undefined ? { delay_ms: delay } : {}) };
    this.rules.push(rule);
    return rule;
  }

  clear(): void {
    this.rules = [];
  }

  /** The newest unexpired rule matching `pathname`, if any. */
  match(pathname: string): FaultRule | null {
    const now = Date.now();
    this.rules = this.rules.filter((r) => r.until > now);
    for (let i = this.rules.length - 1; i >= 0; i--) if (pathname.startsWith(this.rules[i]!.path)) return this.rules[i]!;
    return null;
  }
}

/** Reads a small JSON body (control requests); `{}` when empty. Errors: throws on invalid JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return text ? JSON.parse(text) : {};
}

/**
 * Serves a control request (`POST` adds a rule, `DELETE` clears) when `authorized`; answers JSON.
 * Returns nothing; never throws.
 */
export async function serveFaultControl(req: IncomingMessage, res: ServerResponse, faults: FaultSwitch, authorized: boolean, defaultPath?: string): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (!authorized) {
    req.resume();
    return send(401, { error: 'unauthorized' });
  }
  if (req.method === 'DELETE') {
    req.resume();
    faults.clear();
    return send(200, { cleared: true });
  }
  if (req.method !== 'POST') {
    req.resume();
    return send(405, { error: 'method not allowed' });
  }
  try {
    return send(201, faults.add(await readJson(req), defaultPath));
  } catch (err) {
    return send(400, { error: (err as Error).message });
  }
}

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
