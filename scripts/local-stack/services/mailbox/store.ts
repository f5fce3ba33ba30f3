/**
 * The mailbox's message store: an in-memory list backed by a JSON-lines file, so messages
 * survive restarts of the stack. Appends are serialised; deletions rewrite the file.
 *
 * File layout (one JSON object per line) under `<dataDir>/mailbox/`:
 * - `messages.jsonl`: stored messages (`StoredMessage`).
 * - `idempotency.jsonl`: Resend `Idempotency-Key` records (`IdempotencyRecord`), kept 24 h as
 *   Resend does.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A message as stored by the mailbox (shape follows Resend's `GET /emails/:id`). */
export interface StoredMessage {
  object: 'email';
  id: string;
  from: string;
  to: string[];
  cc: string[] | null;
  bcc: string[] | null;
  reply_to: string[] | null;
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string> | null;
  tags: { name: string; value: string }[] | null;
  attachments: { filename: string | null; content_type: string | null; size: number }[] | null;
  scheduled_at: string | null;
  last_event: 'delivered';
  /** ISO 8601 timestamp of receipt. */
  created_at: string;
  /** Who handed the message over: the Resend API or an in-process service (auth). */
  source: 'resend' | 'internal';
}

/** A remembered response for an `Idempotency-Key` (Resend keeps them 24 h). */
export interface IdempotencyRecord {
  key: string;
  /** `POST /emails` or `POST /emails/batch`: a key is scoped to its endpoint. */
  endpoint: string;
  /** sha256 of the canonical JSON body. */
  bodyHash: string;
  status: number;
  response: unknown;
  /** Epoch milliseconds. */
  createdAt: number;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Messages and idempotency records, in memory and appended to JSON-lines files (see file comment). */
export class MessageStore {
  private messages: StoredMessage[] = [];
  private idempotency = new Map<string, IdempotencyRecord>();
  private writes: Promise<void> = Promise.resolve();
  private readonly messagesFile: string;
  private readonly idempotencyFile: string;

  private constructor(private readonly dir: string) {
    this.messagesFile = path.join(dir, 'messages.jsonl');
    this.idempotencyFile = path.join(dir, 'idempotency.jsonl');
  }

  /** Opens (creating when missing) the store in `dir`; lines that do not parse are skipped. */
  static async open(dir: string): Promise<MessageStore> {
    const store = new MessageStore(dir);
    await mkdir(dir, { recursive: true });
    for (const line of await readLines(store.messagesFile)) {
      const msg = line as StoredMessage;
      if (msg && typeof msg.id === 'string') store.messages.push(msg);
    }
    const now = Date.now();
    for (const line of await readLines(store.idempotencyFile)) {
      const rec = line as IdempotencyRecord;
      if (rec && typeof rec.key === 'string' && now - rec.createdAt < IDEMPOTENCY_TTL_MS) {
        store.idempotency.set(idempotencyId(rec.endpoint, rec.key), rec);
      }
    }
    return store;
  }

  /** Adds messages (in memory at once, on disk in order); resolves when written. */
  add(messages: StoredMessage[]): Promise<void> {
    this.messages.push(...messages);
    const data = messages.map((m) => JSON.stringify(m) + '\n').join('');
    return this.enqueue(() => appendFile(this.messagesFile, data));
  }

  /** Newest first; `to` matches (case-insensitive) any address in to, cc or bcc. */
  list(filter: { to?: string } = {}): StoredMessage[] {
    const wanted = filter.to ? normaliseAddress(filter.to) : null;
    const result = wanted
      ? this.messages.filter((m) => [...m.to, ...(m.cc ?? []), ...(m.bcc ?? [])].some((a) => normaliseAddress(a) === wanted))
      : [...this.messages];
    return result.reverse();
  }

  /** The message with this id, if stored. */
  get(id: string): StoredMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  /** Deletes all messages, or those addressed to `to`; returns how many were removed. */
  async delete(filter: { to?: string } = {}): Promise<number> {
    const doomed = new Set(this.list(filter).map((m) => m.id));
    this.messages = this.messages.filter((m) => !doomed.has(m.id));
    const data = this.messages.map((m) => JSON.stringify(m) + '\n').join('');
    await this.enqueue(() => atomicWrite(this.messagesFile, data));
    return doomed.size;
  }

  /** The remembered response for this key, if still valid. */
  idempotent(endpoint: string, key: string): IdempotencyRecord | undefined {
    const rec = this.idempotency.get(idempotencyId(endpoint, key));
    if (rec && Date.now() - rec.createdAt >= IDEMPOTENCY_TTL_MS) {
      this.idempotency.delete(idempotencyId(endpoint, key));
      return undefined;
    }
    return rec;
  }

  /** Remembers a response for an idempotency key (synchronously in memory). */
  remember(rec: IdempotencyRecord): Promise<void> {
    this.idempotency.set(idempotencyId(rec.endpoint, rec.key), rec);
    return this.enqueue(() => appendFile(this.idempotencyFile, JSON.stringify(rec) + '\n'));
  }

  /** Waits for pending writes. */
  flush(): Promise<void> {
    return this.writes;
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/** `Name <a@b.de>` or `a@b.de` → `a@b.de` (lower case). */
export function normaliseAddress(address: string): string {
  const m = /<([^<>]+)>\s*$/.exec(address);
  return (m ? m[1]! : address).trim().toLowerCase();
}

function idempotencyId(endpoint: string, key: string): string {
  return `${endpoint} ${key}`;
}

async function readLines(file: string): Promise<unknown[]> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: unknown[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A torn last line after a crash: skip it, keep the rest.
    }
  }
  return out;
}

async function atomicWrite(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}
