/**
 * The sandbox's state: every Stripe object by id, the event order, webhook deliveries and
 * idempotency records, persisted as one JSON file (`<dataDir>/stripe/state.json`, written
 * atomically shortly after each change and on close) so it survives restarts.
 *
 * Fields whose name starts with `_` are internal and never leave the sandbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Delivery } from './webhooks.ts';

// Stripe objects are open-ended JSON; the engine reads and writes their fields directly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

export interface IdempotencyRecord {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: unknown;
  created: number;
}

export interface State {
  version: 1;
  seq: number;
  /** Seconds added to the wall clock for customers without a test clock (sandbox clock). */
  timeOffset: number;
  objects: Record<string, Obj>;
  events: string[];
  deliveries: Delivery[];
  idempotency: Record<string, IdempotencyRecord>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(len: number): string {
  const bytes = randomBytes(len);
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[bytes[i]! % ALPHABET.length];
  return s;
}

function emptyState(): State {
  return { version: 1, seq: 0, timeOffset: 0, objects: {}, events: [], deliveries: [], idempotency: {} };
}

const MAX_EVENTS = 5000;
const IDEMPOTENCY_TTL = 24 * 3600;

export class Store {
  state: State;
  private file: string;
  private timer: NodeJS.Timeout | null = null;
  private lastWriteMs = 0;

  /** Loads `<dir>/state.json` if present (a corrupt file is set aside and a fresh state begins). */
  constructor(dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'state.json');
    this.state = emptyState();
    if (fs.existsSync(this.file)) {
      try {
        const loaded = JSON.parse(fs.readFileSync(this.file, 'utf8')) as State;
        if (loaded && loaded.version === 1) this.state = { ...emptyState(), ...loaded };
      } catch {
        // A corrupt file (e.g. disk full mid-write before rename existed) starts a fresh sandbox.
        fs.renameSync(this.file, `${this.file}.corrupt-${Date.now()}`);
      }
    }
  }

  /** A new id `<prefix>_<random>`; checkout sessions get Stripe's longer `cs_test_` form. */
  newId(prefix: string): string {
    if (prefix === 'cs') return `cs_test_a1${randomId(56)}`;
    return `${prefix}_${randomId(prefix === 'evt' || prefix === 'req' ? 24 : 14)}`;
  }

  /** Wall clock plus the sandbox offset, unix seconds. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.state.timeOffset;
  }

  /** The stored object with this id (including deleted stubs), if any. */
  get(id: string | null | undefined): Obj | undefined {
    if (!id || typeof id !== 'string') return undefined;
    return Object.prototype.hasOwnProperty.call(this.state.objects, id) ? this.state.objects[id] : undefined;
  }

  /** Stores a new object; `_seq` orders lists (newest first) independent of `created`. */
  put(obj: Obj): Obj {
    obj._seq = ++this.state.seq;
    this.state.objects[obj.id as string] = obj;
    this.save();
    return obj;
  }

  /** All objects of one `object` type, newest first. */
  all(type: string): Obj[] {
    return Object.values(this.state.objects)
      .filter((o) => o.object === type && !o.deleted)
      .sort((a, b) => (b._seq as number) - (a._seq as number));
  }

  /** Stores an event, keeping at most MAX_EVENTS (oldest dropped with their deliveries). */
  addEvent(ev: Obj): void {
    this.put(ev);
    this.state.events.push(ev.id as string);
    if (this.state.events.length > MAX_EVENTS) {
      const drop = this.state.events.splice(0, this.state.events.length - MAX_EVENTS);
      const dropped = new Set(drop);
      for (const id of drop) delete this.state.objects[id];
      this.state.deliveries = this.state.deliveries.filter((d) => !dropped.has(d.event));
    }
  }

  /** A deep copy without internal `_` fields: what the API returns. */
  render(obj: Obj): Obj {
    return strip(obj) as Obj;
  }

  /**
   * Schedules an atomic write of the state file (coalesced). The delay grows with the cost of the
   * last write (10×, between 50 ms and 2 s) so a large state does not hog the CPU under load;
   * close() always flushes.
   */
  save(): void {
    if (this.timer) return;
    const delay = Math.min(2000, Math.max(50, this.lastWriteMs * 10));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, delay);
    this.timer.unref?.();
  }

  /** Writes the state file now (tmp file + rename). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const cutoff = Math.floor(Date.now() / 1000) - IDEMPOTENCY_TTL;
    for (const [k, r] of Object.entries(this.state.idempotency)) if (r.created < cutoff) delete this.state.idempotency[k];
    const started = Date.now();
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.state));
    fs.renameSync(tmp, this.file);
    this.lastWriteMs = Date.now() - started;
  }

  /** Forgets everything (sandbox reset endpoint). */
  reset(): void {
    this.state = emptyState();
    this.flush();
  }
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!k.startsWith('_')) out[k] = strip(x);
    return out;
  }
  return v;
}
