/**
 * The pg_net worker of the local stack: takes requests from `net.http_request_queue` (deleting
 * them, as pg_net does), performs them with fetch within `timeout_milliseconds`, and writes one
 * `net._http_response` row per request: status_code, content_type, headers (jsonb object),
 * content (text) on an HTTP answer; timed_out / error_msg (curl-style messages) otherwise.
 * Responses older than 6 hours are deleted (pg_net's default `pg_net.ttl`).
 */
import type pg from 'pg';
import type { Log } from './scheduler.ts';

interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, unknown> | null;
  body: Buffer | null;
  timeout_milliseconds: number;
}

/** Requests taken from the queue per round; they run concurrently. */
const BATCH_SIZE = 200;
/** Largest response body kept in `content` (pg_net has no limit; this keeps the worker safe). */
const MAX_CONTENT_BYTES = 10 * 1024 * 1024;
const TTL = '6 hours';

/** Executes queued pg_net requests; call `wake()` on NOTIFY pg_net_wake and on a timer. */
export class NetWorker {
  private busy = false;
  private again = false;
  private closed = false;
  private inflight = new Set<Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Log,
  ) {}

  /** Drains the queue; concurrent calls coalesce into one more round. Never throws. */
  async wake(): Promise<void> {
    if (this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        const { rows } = await this.pool.query<QueuedRequest>(
          `delete from net.http_request_queue
            where id in (select id from net.http_request_queue order by id limit $1 for update skip locked)
            returning id::text, method, url, headers, body, timeout_milliseconds`,
          [BATCH_SIZE],
        );
        for (const request of rows) {
          const p = this.execute(request).finally(() => this.inflight.delete(p));
          this.inflight.add(p);
        }
        if (rows.length === BATCH_SIZE) this.again = true;
      } while (this.again && !this.closed);
    } catch (err) {
      this.log(`net queue read failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  /** Deletes responses older than pg_net's TTL. */
  async expire(): Promise<void> {
    try {
      await this.pool.query(`delete from net._http_response where created < now() - $1::interval`, [TTL]);
    } catch (err) {
      this.log(`net ttl cleanup failed: ${(err as Error).message}`);
    }
  }

  private async execute(request: QueuedRequest): Promise<void> {
    const timeoutMs = Math.max(1, request.timeout_milliseconds);
    const started = Date.now();
    let row: [number | null, string | null, string | null, string | null, boolean, string | null];
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.headers ?? {})) {
        if (v !== null && v !== undefined) headers.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      }
      if (!headers.has('user-agent')) headers.set('user-agent', 'pg_net/0.19.5');
      const method = request.method.toUpperCase();
      const signal = AbortSignal.timeout(timeoutMs);
      const response = await fetch(request.url, {
        method,
        headers,
        body: method === 'GET' || !request.body ? undefined : new Uint8Array(request.body),
        signal,
        redirect: 'follow',
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const content = bytes.subarray(0, MAX_CONTENT_BYTES).toString('utf8').replaceAll(String.fromCharCode(0), '');
      const headerObject: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headerObject[key] = value;
      });
      row = [response.status, response.headers.get('content-type'), JSON.stringify(headerObject), content, false, null];
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
      const elapsed = Date.now() - started;
      row = [null, null, null, null, timedOut, timedOut ? `Timeout of ${timeoutMs} ms reached. Total time: ${elapsed} ms` : curlMessage(e)];
    }
    try {
      await this.pool.query(
        `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
         values ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
        [request.id, ...row],
      );
    } catch (err) {
      this.log(`net response ${request.id} not recorded: ${(err as Error).message}`);
    }
  }

  /** Stops taking requests and waits (up to `timeoutMs`) for those in flight. */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    await Promise.race([Promise.allSettled([...this.inflight]), new Promise((r) => setTimeout(r, timeoutMs))]);
  }
}

/** Error text in the words of libcurl (what pg_net reports), from a fetch failure. */
function curlMessage(err: Error & { cause?: { code?: string; message?: string } }): string {
  const code = err.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return "Couldn't connect to server";
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return "Couldn't resolve host name";
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'Failure when receiving data from the peer';
    default:
      if (err instanceof TypeError && /invalid url|failed to parse url/i.test(`${err.message} ${err.cause?.message ?? ''}`)) {
        return 'URL using bad/illegal format or missing URL';
      }
      return err.cause?.message ? `${err.message}: ${err.cause.message}` : err.message;
  }
}
