/**
 * Webhook delivery: Stripe-Signature v1 signing, POST to each matching endpoint, retries with
 * exponential backoff on non-2xx or network errors, one record per attempt.
 *
 * Retry schedule: attempt n+1 waits `retryBaseMs * 2^(n-1)` after attempt n fails, at most
 * `maxAttempts` attempts (defaults 60 s and 8: 1, 2, 4, ... 64 min, about 2 h in total; Stripe
 * itself keeps trying for 3 days). Tests shorten it with STRIPE_SANDBOX_WEBHOOK_RETRY_BASE_MS.
 */
import { createHmac } from 'node:crypto';
import type { Obj, Store } from './store.ts';

/**
 * Builds the `Stripe-Signature` header value for a payload: `t=<unix s>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" keyed with the whole whsec_ secret>` (the scheme stripe.webhooks verifies).
 */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface DeliveryAttempt {
  at: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

/** One event → endpoint delivery with its attempts (sandbox-specific, see README). */
export interface Delivery {
  id: string;
  object: 'webhook_delivery';
  event: string;
  event_type: string;
  webhook_endpoint: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: number | null;
  created: number;
}

export interface DispatcherOptions {
  secret: string;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  log: (message: string, extra?: unknown) => void;
}

export class WebhookDispatcher {
  private timers = new Map<string, NodeJS.Timeout>();
  private inflight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private store: Store,
    private opts: DispatcherOptions,
  ) {}

  /** Whether an endpoint subscribes to an event type (`*` = all). */
  static matches(endpoint: Obj, type: string): boolean {
    const enabled = (endpoint.enabled_events as string[]) ?? [];
    return endpoint.status === 'enabled' && (enabled.includes('*') || enabled.includes(type));
  }

  /** Queues deliveries of an event to the given endpoints (immediately attempted). */
  enqueue(event: Obj, endpoints: Obj[]): Delivery[] {
    const out: Delivery[] = [];
    for (const ep of endpoints) {
      const d: Delivery = {
        id: this.store.newId('whdel'),
        object: 'webhook_delivery',
        event: event.id as string,
        event_type: event.type as string,
        webhook_endpoint: ep.id as string,
        url: ep.url as string,
        status: 'pending',
        attempts: [],
        next_attempt_at: Date.now(),
        created: Math.floor(Date.now() / 1000),
      };
      this.store.state.deliveries.push(d);
      out.push(d);
      this.schedule(d, 0);
    }
    this.recount(event.id as string);
    this.store.save();
    return out;
  }

  /** Re-arms the timers of pending deliveries after a restart. */
  resume(): void {
    for (const d of this.store.state.deliveries) {
      if (d.status === 'pending') this.schedule(d, Math.max(0, (d.next_attempt_at ?? Date.now()) - Date.now()));
    }
  }

  private schedule(d: Delivery, delayMs: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(d.id);
      const p = this.attempt(d).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }, delayMs);
    t.unref?.();
    this.timers.set(d.id, t);
  }

  private recount(eventId: string): void {
    const ev = this.store.get(eventId);
    if (!ev) return;
    ev.pending_webhooks = this.store.state.deliveries.filter((x) => x.event === eventId && x.status === 'pending').length;
  }

  private async attempt(d: Delivery): Promise<void> {
    const event = this.store.get(d.event);
    if (!event || this.closed) return;
    const payload = JSON.stringify(this.store.render(event), null, 2);
    const started = Date.now();
    const header = signatureHeader(payload, this.opts.secret, Math.floor(started / 1000));
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': header,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'cache-control': 'no-cache',
        },
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    if (this.closed) return;
    d.attempts.push({ at: Math.floor(started / 1000), status, error, duration_ms: Date.now() - started });
    if (!error) {
      d.status = 'succeeded';
      d.next_attempt_at = null;
    } else if (d.attempts.length >= this.opts.maxAttempts) {
      d.status = 'failed';
      d.next_attempt_at = null;
      this.opts.log(`webhook ${d.event_type} ${d.event} to ${d.url} failed for good: ${error}`);
    } else {
      const delay = this.opts.retryBaseMs * 2 ** (d.attempts.length - 1);
      d.next_attempt_at = Date.now() + delay;
      this.opts.log(`webhook ${d.event_type} ${d.event} to ${d.url} failed (${error}); retry in ${delay} ms`);
      this.schedule(d, delay);
    }
    this.recount(d.event);
    this.store.save();
  }

  /** Stops timers and waits for attempts in flight (their outcome is not recorded). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inflight]);
  }
}
