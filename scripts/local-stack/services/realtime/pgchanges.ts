/**
 * postgres_changes: the bindings a channel asks for in `phx_join`
 * (`config.postgres_changes: [{event, schema, table, filter}]`), their validation against the
 * `supabase_realtime` publication, and delivery of row changes to matching channels, each change
 * only to subscribers allowed to select the row under RLS (checked as the subscriber).
 * Payload shape: `{ids: [binding ids], data: {schema, table, commit_timestamp, type, columns,
 * record, old_record, errors}}`, as Realtime's Postgres CDC RLS extension sends it.
 */
import type pg from 'pg';
import { withClaims, type JwtClaims } from '../../db.ts';
import { parseFilter, matchesFilter, type FilterCondition, type FilterError } from './filters.ts';
import { CHANGES_PUBLICATION, type RowChange } from './replication.ts';

export type PgEvent = '*' | 'INSERT' | 'UPDATE' | 'DELETE';

export interface PgBinding {
  id: number;
  event: PgEvent;
  schema: string;
  /** undefined or '*' = every published table of the schema. */
  table: string | undefined;
  filter: FilterCondition[];
  /** The entry as the client sent it (echoed in the join reply with its id). */
  params: Record<string, unknown>;
}

/** What the dispatcher needs from a joined channel. */
export interface PgSubscriber {
  pgBindings: PgBinding[];
  /** false until the bindings were validated (or when validation failed). */
  pgActive: boolean;
  claims: JwtClaims;
  /** Pushes a `postgres_changes` message to the channel. */
  pushPostgresChange(payload: { ids: number[]; data: Record<string, unknown> }): void;
}

/** Stable non-negative id of a binding's params (Realtime uses :erlang.phash2 of the params). */
export function bindingId(params: Record<string, unknown>): number {
  const text = JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]));
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7ffffff;
}

const describe = (p: Record<string, unknown>): string =>
  `[event: ${String(p.event)}, schema: ${String(p.schema)}, table: ${String(p.table ?? '*')}, filters: [${p.filter === undefined ? '' : String(p.filter)}]]`;

/**
 * Parses `config.postgres_changes`. Returns the bindings and the reply entries; `error` is set
 * (and bindings are empty) when an entry is malformed, as Realtime refuses the whole set.
 */
export function parseBindings(raw: unknown): { bindings: PgBinding[]; reply: Record<string, unknown>[]; error: string | null } {
  if (raw === undefined || raw === null) return { bindings: [], reply: [], error: null };
  if (!Array.isArray(raw)) return { bindings: [], reply: [], error: 'postgres_changes must be a list' };
  const bindings: PgBinding[] = [];
  const reply: Record<string, unknown>[] = [];
  let error: string | null = null;
  for (const entry of raw) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      error ??= 'Error parsing `postgres_changes` params: each entry must be an object';
      continue;
    }
    const params = entry as Record<string, unknown>;
    const id = bindingId(params);
    reply.push({ ...params, id });
    const event = typeof params.event === 'string' ? params.event.toUpperCase() : '';
    if (!['*', 'INSERT', 'UPDATE', 'DELETE'].includes(event)) {
      error ??= `Error parsing \`event\` params: ${JSON.stringify(params.event)} is not one of *, INSERT, UPDATE, DELETE`;
      continue;
    }
    if (typeof params.schema !== 'string' || params.schema === '') {
      error ??= `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${describe(params)}`;
      continue;
    }
    if (params.table !== undefined && typeof params.table !== 'string') {
      error ??= `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${describe(params)}`;
      continue;
    }
    let filter: FilterCondition[] = [];
    if (params.filter !== undefined && params.filter !== null && params.filter !== '') {
      if (typeof params.filter !== 'string') {
        error ??= 'Error parsing `filter` params: filter must be a string';
        continue;
      }
      try {
        filter = parseFilter(params.filter);
      } catch (err) {
        error ??= `Error parsing \`filter\` params: ${(err as FilterError).message}`;
        continue;
      }
    }
    bindings.push({ id, event: event as PgEvent, schema: params.schema, table: params.table as string | undefined, filter, params });
  }
  return error ? { bindings: [], reply, error } : { bindings, reply, error: null };
}

/**
 * Checks the bindings against the publication and the tables' columns.
 * Returns null when all are valid, else Realtime's error message.
 */
export async function validateBindings(pool: pg.Pool, bindings: PgBinding[]): Promise<string | null> {
  const published = await pool.query<{ schemaname: string; tablename: string }>(
    'select schemaname, tablename from pg_publication_tables where pubname = $1',
    [CHANGES_PUBLICATION],
  );
  for (const b of bindings) {
    const wildcardTable = b.table === undefined || b.table === '*';
    const matches = published.rows.filter(
      (r) => (b.schema === '*' || r.schemaname === b.schema) && (wildcardTable || r.tablename === b.table),
    );
    if (matches.length === 0) {
      return `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${describe(b.params)}`;
    }
    if (b.filter.length > 0 && !wildcardTable && b.schema !== '*') {
      const cols = await pool.query<{ attname: string }>(
        `select attname from pg_attribute where attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass and attnum > 0 and not attisdropped`,
        [b.schema, b.table],
      );
      const names = new Set(cols.rows.map((r) => r.attname));
      const bad = b.filter.find((f) => !names.has(f.column));
      if (bad) return `Unable to subscribe to changes with given parameters. invalid column for filter ${bad.column}`;
    }
  }
  return null;
}

function bindingMatches(b: PgBinding, change: RowChange): boolean {
  if (b.event !== '*' && b.event !== change.type) return false;
  if (b.schema !== '*' && b.schema !== change.schema) return false;
  if (b.table !== undefined && b.table !== '*' && b.table !== change.table) return false;
  if (b.filter.length === 0) return true;
  const record = change.type === 'DELETE' ? (change.oldRecord ?? {}) : (change.record ?? {});
  return matchesFilter(b.filter, record, change.types);
}

const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** Delivers row changes in commit order; see module doc. */
export class PgChangesDispatcher {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (message: string, extra?: unknown) => void,
  ) {}

  /** Queues `change` for delivery to the matching `subscribers` (evaluated now). */
  dispatch(change: RowChange, subscribers: Iterable<PgSubscriber>): void {
    const targets: { sub: PgSubscriber; ids: number[] }[] = [];
    for (const sub of subscribers) {
      if (!sub.pgActive || sub.pgBindings.length === 0) continue;
      const ids = [...new Set(sub.pgBindings.filter((b) => bindingMatches(b, change)).map((b) => b.id))];
      if (ids.length > 0) targets.push({ sub, ids });
    }
    if (targets.length === 0) return;
    this.chain = this.chain
      .then(() => this.deliver(change, targets))
      .catch((err: unknown) => this.log(`postgres_changes delivery failed: ${(err as Error).message}`));
  }

  private async deliver(change: RowChange, targets: { sub: PgSubscriber; ids: number[] }[]): Promise<void> {
    const data: Record<string, unknown> = {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commitTimestamp,
      type: change.type,
      columns: change.columns,
      errors: null,
    };
    if (change.type !== 'DELETE') data.record = change.record;
    if (change.type !== 'INSERT') data.old_record = change.oldRecord;
    const verdicts = new Map<string, Promise<boolean>>();
    for (const { sub, ids } of targets) {
      const key = JSON.stringify(sub.claims);
      let verdict = verdicts.get(key);
      if (!verdict) {
        verdict = this.visible(change, sub.claims);
        verdicts.set(key, verdict);
      }
      if (await verdict) sub.pushPostgresChange({ ids, data });
    }
  }

  /** Whether the subscriber with `claims` may see the change (RLS for rows, table privilege for deletes). */
  private async visible(change: RowChange, claims: JwtClaims): Promise<boolean> {
    const table = `${ident(change.schema)}.${ident(change.table)}`;
    try {
      if (change.type === 'DELETE') {
        const role = typeof claims.role === 'string' ? claims.role : 'anon';
        const res = await this.pool.query<{ ok: boolean }>(`select has_table_privilege($1, $2, 'SELECT') as ok`, [role, table]);
        return res.rows[0]?.ok === true;
      }
      const cols = Object.keys(change.identity);
      if (cols.length === 0) return false;
      const pk = change.keyColumns.length > 0;
      const where = cols.map((c, i) => (pk ? `${ident(c)} = $${i + 1}` : `${ident(c)}::text = $${i + 1}`)).join(' and ');
      return await withClaims(
        this.pool,
        claims,
        async (client) => {
          const res = await client.query(`select 1 from ${table} where ${where} limit 1`, cols.map((c) => change.identity[c]));
          return (res.rowCount ?? 0) > 0;
        },
        { rollback: true },
      );
    } catch {
      return false;
    }
  }
}
