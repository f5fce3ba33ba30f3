/**
 * Change source of the Realtime service: one logical replication stream (pgoutput, via
 * `pg-logical-replication`) over two publications:
 * - `supabase_realtime`: row changes of the tables the project publishes → postgres_changes,
 * - `supabase_realtime_messages_publication` (realtime.messages, inserts) → Broadcast from Database.
 *
 * The slot is permanent but recreated on every start, so messages written while the service was
 * down are not replayed (Realtime's own slots are temporary); it is dropped on close.
 * Values arrive as text and are typed here the way wal2json/Realtime types them in JSON
 * (numbers, booleans, json), everything else stays text for realtime-js to convert.
 */
import type pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication';
import type { StackConfig } from '../../config.ts';

export const CHANGES_PUBLICATION = 'supabase_realtime';
export const MESSAGES_PUBLICATION = 'supabase_realtime_messages_publication';

export interface Column {
  name: string;
  type: string;
}

/** One row change of a table in the supabase_realtime publication. */
export interface RowChange {
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string;
  /** ISO 8601 commit time of the transaction. */
  commitTimestamp: string;
  columns: Column[];
  types: Map<string, string>;
  keyColumns: string[];
  record: Record<string, unknown> | null;
  oldRecord: Record<string, unknown> | null;
  /** The new tuple (old/key tuple for deletes) as text, to look the row up by primary key. */
  rawRecord: Record<string, string | null>;
}

/** A row inserted into realtime.messages (realtime.send / broadcast_changes). */
export interface DbBroadcast {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  encoding: 'json' | 'binary';
  body: Buffer;
}

export interface ReplicationHandlers {
  onChange(change: RowChange): void;
  onBroadcast(message: DbBroadcast): void;
  log(message: string, extra?: unknown): void;
}

type Raw = Record<string, string | null | undefined>;

/** Types a text value like Realtime's JSON payloads (wal2json): numbers, booleans, json. */
export function typeValue(type: string, text: string | null | undefined): unknown {
  if (text === null || text === undefined) return text ?? null;
  switch (type) {
    case 'int2':
    case 'int4':
    case 'oid':
      return Number(text);
    case 'int8': {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : text;
    }
    case 'float4':
    case 'float8':
    case 'numeric': {
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case 'bool':
      return text === 't' || text === 'true';
    case 'json':
    case 'jsonb':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/** Runs the replication stream; see module doc. */
export class ReplicationListener {
  private service: LogicalReplicationService | null = null;
  private readonly typeNames = new Map<number, string>();
  private commitTime = Date.now();
  private closing = false;
  /** True while the replication stream runs (Realtime's "replication connection established"). */
  streaming = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retries = 0;
  readonly slotName: string;

  constructor(
    private readonly config: StackConfig,
    private readonly pool: pg.Pool,
    private readonly handlers: ReplicationHandlers,
    slotName = 'teamwerk_realtime',
  ) {
    this.slotName = slotName;
  }

  /**
   * Ensures publications and slot, then starts streaming. Resolves once replication runs.
   * Errors: rejects when the database refuses (e.g. wal_level is not logical); the caller may retry.
   */
  async start(): Promise<void> {
    await this.prepare();
    await this.subscribe();
  }

  private async prepare(): Promise<void> {
    await this.pool.query(`
      do $$
      begin
        if not exists (select from pg_publication where pubname = '${CHANGES_PUBLICATION}') then
          create publication ${CHANGES_PUBLICATION};
        end if;
        if not exists (select from pg_publication where pubname = '${MESSAGES_PUBLICATION}')
           and to_regclass('realtime.messages') is not null then
          create publication ${MESSAGES_PUBLICATION} for table realtime.messages with (publish = 'insert');
        end if;
      end
      $$`);
    const types = await this.pool.query<{ oid: number; typname: string }>('select oid::int as oid, typname from pg_type');
    for (const t of types.rows) this.typeNames.set(t.oid, t.typname);
    await this.pool.query(
      'select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1 and not active',
      [this.slotName],
    );
    const exists = await this.pool.query('select 1 from pg_replication_slots where slot_name = $1', [this.slotName]);
    if (exists.rowCount === 0) {
      await this.pool.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [this.slotName]);
    }
  }

  private async publications(): Promise<string[]> {
    const res = await this.pool.query<{ pubname: string }>('select pubname from pg_publication where pubname = any($1)', [
      [CHANGES_PUBLICATION, MESSAGES_PUBLICATION],
    ]);
    return res.rows.map((r) => r.pubname);
  }

  private async subscribe(): Promise<void> {
    const publicationNames = await this.publications();
    const service = new LogicalReplicationService(
      { connectionString: this.config.dbUrl, application_name: 'teamwerk_realtime' },
      { acknowledge: { auto: true, timeoutSeconds: 10 } },
    );
    this.service = service;
    service.on('data', (_lsn: string, msg: Pgoutput.Message) => {
      try {
        this.onMessage(msg);
      } catch (err) {
        this.handlers.log(`replication message failed: ${(err as Error).message}`);
      }
    });
    service.on('error', (err: Error) => {
      if (!this.closing) this.handlers.log(`replication error: ${err.message}`);
    });
    // Answer the walsender's keepalives that ask for a reply with exactly their LSN: every message
    // up to it has been handled (data events are processed synchronously, in order). A fast
    // shutdown of Postgres waits until a walsender's confirmed position equals what it sent
    // (walsender.c WalSndDone compares with ==); pg-logical-replication's acknowledge() reports
    // lsn + 1, so it gets lsn - 1. Without this Postgres never finished a restart while Realtime
    // was connected (found by the fault suite's Postgres restart, issue 17).
    service.on('heartbeat', (lsn: string, _timestamp: number, shouldRespond: boolean) => {
      if (shouldRespond) void service.acknowledge(previousLsn(lsn)).catch(() => undefined);
    });
    const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames });
    await new Promise<void>((resolve, reject) => {
      let started = false;
      service.once('start', () => {
        started = true;
        this.streaming = true;
        this.retries = 0;
        resolve();
      });
      service
        .subscribe(plugin, this.slotName)
        .then(() => {
          if (!started) reject(new Error('replication ended before it started'));
          else this.scheduleRetry('replication stream ended');
        })
        .catch((err: unknown) => {
          if (!started) reject(err as Error);
          else this.scheduleRetry(`replication stream failed: ${(err as Error).message}`);
        });
    });
  }

  private scheduleRetry(reason: string): void {
    this.streaming = false;
    if (this.closing || this.retryTimer) return;
    const delay = Math.min(2_000, 250 * 2 ** this.retries++); // a restarted database is picked up within 2 s
    this.handlers.log(`${reason}; reconnecting in ${delay} ms`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void (async () => {
        try {
          await this.service?.destroy();
          const exists = await this.pool.query('select 1 from pg_replication_slots where slot_name = $1', [this.slotName]);
          if (exists.rowCount === 0) await this.prepare();
          await this.subscribe();
          this.handlers.log('replication reconnected');
        } catch (err) {
          this.scheduleRetry(`replication reconnect failed: ${(err as Error).message}`);
        }
      })();
    }, delay);
  }

  private onMessage(msg: Pgoutput.Message): void {
    switch (msg.tag) {
      case 'begin':
        this.commitTime = Number(BigInt(msg.commitTime as bigint) / 1000n);
        return;
      case 'relation':
        // Keep values as text: the relation object is cached by the parser and used for the
        // tuples that follow, so replacing its parsers here types nothing behind our back.
        for (const col of msg.columns) col.parser = (raw: unknown) => raw;
        return;
      case 'insert':
        if (msg.relation.schema === 'realtime' && msg.relation.name === 'messages') {
          this.onMessagesInsert(msg.new as Raw);
          return;
        }
        this.emitChange('INSERT', msg.relation, msg.new as Raw, null, null);
        return;
      case 'update':
        if (msg.relation.schema === 'realtime' && msg.relation.name === 'messages') return;
        this.emitChange('UPDATE', msg.relation, msg.new as Raw, (msg.old as Raw | null) ?? null, (msg.key as Raw | null) ?? null);
        return;
      case 'delete':
        if (msg.relation.schema === 'realtime' && msg.relation.name === 'messages') return;
        this.emitChange('DELETE', msg.relation, null, (msg.old as Raw | null) ?? null, (msg.key as Raw | null) ?? null);
        return;
      default:
        return;
    }
  }

  private onMessagesInsert(row: Raw): void {
    const topic = row.topic;
    const event = row.event;
    const id = row.id;
    if (!topic || !event || !id) return;
    let encoding: 'json' | 'binary';
    let body: Buffer;
    if (typeof row.payload === 'string') {
      encoding = 'json';
      body = Buffer.from(row.payload, 'utf8');
    } else if (typeof row.binary_payload === 'string') {
      encoding = 'binary';
      const hex = row.binary_payload.startsWith('\\x') ? row.binary_payload.slice(2) : row.binary_payload;
      body = Buffer.from(hex, 'hex');
    } else {
      return;
    }
    this.handlers.onBroadcast({ id, topic, event, private: row.private === 't' || row.private === 'true', encoding, body });
  }

  private emitChange(type: RowChange['type'], relation: Pgoutput.MessageRelation, newRaw: Raw | null, oldRaw: Raw | null, keyRaw: Raw | null): void {
    const columns: Column[] = relation.columns.map((c) => ({ name: c.name, type: this.typeNames.get(c.typeOid) ?? c.typeName ?? 'text' }));
    const types = new Map(columns.map((c) => [c.name, c.type]));
    const typed = (raw: Raw, only?: string[]): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const c of columns) {
        if (only && !only.includes(c.name)) continue;
        if (raw[c.name] === undefined) continue;
        out[c.name] = typeValue(c.type, raw[c.name]);
      }
      return out;
    };
    const keyColumns = relation.keyColumns;
    let oldRecord: Record<string, unknown> | null = null;
    if (type !== 'INSERT') {
      if (oldRaw) oldRecord = typed(oldRaw);
      else if (keyRaw) oldRecord = typed(keyRaw, keyColumns);
      else if (newRaw) oldRecord = typed(newRaw, keyColumns);
      else oldRecord = {};
    }
    const source = newRaw ?? oldRaw ?? keyRaw ?? {};
    const rawRecord: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(source)) if (v !== undefined) rawRecord[k] = v;
    this.handlers.onChange({
      type,
      schema: relation.schema,
      table: relation.name,
      commitTimestamp: new Date(this.commitTime).toISOString(),
      columns,
      types,
      keyColumns,
      record: newRaw ? typed(newRaw) : null,
      oldRecord,
      rawRecord,
    });
  }

  /** Stops streaming and drops the slot. */
  async close(): Promise<void> {
    this.closing = true;
    this.streaming = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.service?.destroy().catch(() => undefined);
    this.service = null;
    // The walsender may need a moment to release the slot after the connection closes.
    for (let i = 0; i < 20; i++) {
      try {
        const res = await this.pool.query<{ active: boolean }>('select active from pg_replication_slots where slot_name = $1', [this.slotName]);
        if (res.rowCount === 0) return;
        if (!res.rows[0]!.active) {
          await this.pool.query('select pg_drop_replication_slot($1)', [this.slotName]);
          return;
        }
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The LSN one byte before `lsn` (`X/Y` hex halves), for acknowledge(), which adds one back. */
export function previousLsn(lsn: string): string {
  const [upper, lower] = lsn.split('/').map((h) => Number.parseInt(h, 16)) as [number, number];
  if (lower > 0) return `${upper.toString(16).toUpperCase()}/${(lower - 1).toString(16).toUpperCase()}`;
  return upper > 0 ? `${(upper - 1).toString(16).toUpperCase()}/FFFFFFFF` : '0/0';
}
