/**
 * postgres_changes: the bindings a channel asks for in `phx_join`
 * (`config.postgres_changes: [{event, schema, table, filter, select}]`), their validation against
 * the `supabase_realtime` publication and the tables' columns, and delivery of row changes to
 * the matching channels. Semantics follow Realtime's `realtime.apply_rls` (supabase/realtime
 * `priv/repo/tenant_schema/realtime/functions/apply_rls.sql`, filters as
 * `is_visible_through_filters.sql`):
 * - a role that may not select a table's primary key cannot subscribe to it: the join answers
 *   the generic "Unable to subscribe to changes with given parameters." (issue 12 finding 13;
 *   hosted accepts the subscription and sends INSERT/UPDATE as `Error 401: Unauthorized`);
 * - INSERT/UPDATE on a table with RLS enabled reach a subscriber only if it may select the row
 *   (checked as the subscriber: `select 1 from <table> where <pk> = ...`); without RLS, all;
 * - DELETE is not checked against RLS (Realtime cannot: the row is gone): every subscriber whose
 *   filters match the old columns gets it (a filter on a column the old tuple lacks, e.g. a
 *   non-key column without REPLICA IDENTITY FULL, does not match), and on a table with RLS its
 *   `old_record` holds only the primary key ("if RLS enabled, we can't secure deletes so filter
 *   to pkey"; docs: delete events are not filterable, with RLS the old record has only the
 *   primary key);
 * - payloads only hold columns the subscriber's role may select (and the `select` list if given);
 * - INSERT/UPDATE of tables without primary key give `errors: ['Error 400: Bad Request, no
 *   primary key']`; records over 1 MiB `['Error 413: Payload Too Large']` (values over 64 bytes
 *   dropped). A subscriber whose role lost the right to select the primary key after joining
 *   gets no INSERT/UPDATE (hosted: an `Error 401: Unauthorized` event), but DELETEs as above.
 * Payload: `{ids: [binding ids], data: {schema, table, commit_timestamp, type, columns, record,
 * old_record, errors}}`.
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
  /** '*' = every published table of the schema. */
  table: string;
  filter: FilterCondition[];
  /** Column selection (`select: [...]`), null = all columns. */
  select: string[] | null;
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

const describe = (b: { event: string; schema: string; table: string; params: Record<string, unknown>; select: string[] | null }): string =>
  `[event: ${b.event}, schema: ${b.schema}, table: ${b.table}, filters: ${JSON.stringify(b.params.filter ?? [])}, select: ${b.select ? JSON.stringify(b.select) : 'nil'}]`;

const UNABLE = 'Unable to subscribe to changes with given parameters.';

/**
 * Parses `config.postgres_changes`. Returns the bindings and the join reply entries; `error` is
 * set (and bindings are empty) when an entry cannot be parsed, as Realtime then subscribes none.
 */
export function parseBindings(raw: unknown): { bindings: PgBinding[]; reply: Record<string, unknown>[]; error: string | null } {
  if (raw === undefined || raw === null) return { bindings: [], reply: [], error: null };
  if (!Array.isArray(raw)) return { bindings: [], reply: [], error: `Error parsing \`postgres_changes\` params: expected a list, got ${JSON.stringify(raw)}` };
  const bindings: PgBinding[] = [];
  const reply: Record<string, unknown>[] = [];
  let error: string | null = null;
  for (const entry of raw) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      error ??= `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(entry)}`;
      continue;
    }
    const params = entry as Record<string, unknown>;
    const id = bindingId(params);
    reply.push({ ...params, id });
    const ev = typeof params.event === 'string' ? params.event.toUpperCase() : '*';
    const event: PgEvent = ev === 'INSERT' || ev === 'UPDATE' || ev === 'DELETE' ? ev : '*';
    let select: string[] | null = null;
    if (Array.isArray(params.select)) {
      const cols = params.select.filter((c): c is string => typeof c === 'string');
      select = cols.length > 0 ? cols : null;
    } else if (typeof params.select === 'string') {
      error ??= 'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]';
      continue;
    }
    const has = (k: string) => params[k] !== undefined && params[k] !== null;
    let schema: string;
    let table: string;
    let filter: FilterCondition[] = [];
    if (typeof params.schema === 'string' && typeof params.table === 'string' && typeof params.filter === 'string') {
      schema = params.schema;
      table = params.table;
      if (params.filter.trim() !== '') {
        try {
          filter = parseFilter(params.filter.trim());
        } catch (err) {
          error ??= `Error parsing \`filter\` params: ${(err as FilterError).message}`;
          continue;
        }
      }
    } else if (typeof params.schema === 'string' && typeof params.table === 'string' && !has('filter')) {
      schema = params.schema;
      table = params.table;
    } else if (typeof params.schema === 'string' && !has('table') && !has('filter')) {
      schema = params.schema;
      table = '*';
    } else if (typeof params.table === 'string' && !has('schema') && !has('filter')) {
      schema = 'public';
      table = params.table;
    } else {
      error ??= `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(params)}`;
      continue;
    }
    if (select && (schema === '*' || table === '*')) {
      error ??= 'Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.';
      continue;
    }
    bindings.push({ id, event, schema, table, filter, select, params });
  }
  return error ? { bindings: [], reply, error } : { bindings, reply, error: null };
}

const likeAll = (v: string) => (v === '*' ? '%' : v);

/**
 * Checks the bindings against the publication and the tables' columns (filter and select
 * columns must exist, filter values must cast to the column type).
 * Returns null when all are valid, else Realtime's error message.
 */
export async function validateBindings(pool: pg.Pool, bindings: PgBinding[], role = 'service_role'): Promise<string | null> {
  for (const b of bindings) {
    const tables = await pool.query<{ oid: number; readable: boolean }>(
      `select t.oid,
              coalesce((select bool_and(has_column_privilege($4, t.oid, a.attname, 'SELECT'))
                          from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                         where i.indrelid = t.oid and i.indisprimary), true) as readable
         from (select format('%I.%I', schemaname, tablename)::regclass::oid as oid from pg_publication_tables
                where pubname = $1 and schemaname like $2 escape '' and tablename like $3 escape '') t`,
      [CHANGES_PUBLICATION, likeAll(b.schema), likeAll(b.table), role],
    );
    if (tables.rowCount === 0) {
      return `${UNABLE} Please check Realtime is enabled for the given connect parameters: ${describe(b)}`;
    }
    // a role that may not read the table learns nothing about it, not even which ones exist
    if (tables.rows.some((t) => !t.readable)) return UNABLE;
    if (b.filter.length === 0 && !b.select) continue;
    for (const { oid } of tables.rows) {
      const cols = await pool.query<{ attname: string; type: string }>(
        `select attname, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped`,
        [oid],
      );
      const types = new Map(cols.rows.map((r) => [r.attname, r.type]));
      const fail = (msg: string) => `${UNABLE} An exception happened so please check your connect parameters: ${describe(b)}. Exception: ${msg}`;
      for (const f of b.filter) {
        const type = types.get(f.column);
        if (!type) return fail(`invalid column for filter ${f.column}`);
        if (f.op === 'is' || f.op === 'like' || f.op === 'ilike' || f.op === 'match' || f.op === 'imatch') continue;
        for (const v of f.values) {
          if (f.op === 'isdistinct' && v.toLowerCase() === 'null') continue;
          try {
            // `type` comes from format_type() of the catalog, not from the client.
            await pool.query(`select cast($1::text as ${type})`, [v]);
          } catch (err) {
            return fail((err as Error).message);
          }
        }
      }
      for (const c of b.select ?? []) if (!types.has(c)) return fail(`invalid column for select ${c}`);
    }
  }
  return null;
}

function bindingMatches(b: PgBinding, change: RowChange): boolean {
  if (b.event !== '*' && b.event !== change.type) return false;
  if (b.schema !== '*' && b.schema !== change.schema) return false;
  if (b.table !== '*' && b.table !== change.table) return false;
  if (b.filter.length === 0) return true;
  if (change.type === 'DELETE') {
    // a DELETE is matched on the old tuple; a filter column it lacks does not match
    // (is_visible_through_filters: count(col.name) = count(1))
    const old = change.oldRecord ?? {};
    return b.filter.every((f) => f.column in old) && matchesFilter(b.filter, old, change.types);
  }
  return matchesFilter(b.filter, change.record ?? {}, change.types);
}

const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const CACHE_MS = 1000;
const MAX_RECORD_BYTES = 1024 * 1024;

interface TableInfo {
  rls: boolean;
  pk: string[];
}

/** Delivers row changes in commit order; see module doc. */
export class PgChangesDispatcher {
  private chain: Promise<void> = Promise.resolve();
  private readonly tables = new Map<string, { at: number; info: Promise<TableInfo> }>();
  private readonly columns = new Map<string, { at: number; cols: Promise<Set<string>> }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (message: string, extra?: unknown) => void,
  ) {}

  /** Queues `change` for delivery to the matching `subscribers` (matched now, in commit order). */
  dispatch(change: RowChange, subscribers: Iterable<PgSubscriber>): void {
    const targets: { sub: PgSubscriber; bindings: PgBinding[] }[] = [];
    for (const sub of subscribers) {
      if (!sub.pgActive || sub.pgBindings.length === 0) continue;
      const bindings = sub.pgBindings.filter((b) => bindingMatches(b, change));
      if (bindings.length > 0) targets.push({ sub, bindings });
    }
    if (targets.length === 0) return;
    this.chain = this.chain
      .then(() => this.deliver(change, targets))
      .catch((err: unknown) => this.log(`postgres_changes delivery failed: ${(err as Error).message}`));
  }

  private tableInfo(change: RowChange): Promise<TableInfo> {
    const key = `${change.schema}.${change.table}`;
    const hit = this.tables.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.info;
    const info = this.pool
      .query<{ rls: boolean; pk: string[] | null }>(
        `select c.relrowsecurity as rls,
                (select array_agg(a.attname::text order by a.attnum) from pg_index i
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                  where i.indrelid = c.oid and i.indisprimary) as pk
           from pg_class c where c.oid = (quote_ident($1) || '.' || quote_ident($2))::regclass`,
        [change.schema, change.table],
      )
      .then((r) => ({ rls: r.rows[0]?.rls === true, pk: r.rows[0]?.pk ?? [] }));
    this.tables.set(key, { at: Date.now(), info });
    return info;
  }

  private selectableColumns(role: string, change: RowChange): Promise<Set<string>> {
    const key = `${role}\u0000${change.schema}.${change.table}`;
    const hit = this.columns.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.cols;
    const cols = this.pool
      .query<{ attname: string }>(
        `select attname from pg_attribute
          where attrelid = (quote_ident($2) || '.' || quote_ident($3))::regclass and attnum > 0 and not attisdropped
            and has_column_privilege($1, attrelid, attname, 'SELECT')`,
        [role, change.schema, change.table],
      )
      .then((r) => new Set(r.rows.map((x) => x.attname)))
      .catch(() => new Set<string>());
    this.columns.set(key, { at: Date.now(), cols });
    return cols;
  }

  private async deliver(change: RowChange, targets: { sub: PgSubscriber; bindings: PgBinding[] }[]): Promise<void> {
    const info = await this.tableInfo(change);
    const rlsVerdicts = new Map<string, Promise<boolean>>();
    const base = { schema: change.schema, table: change.table, type: change.type };
    for (const { sub, bindings } of targets) {
      const role = typeof sub.claims.role === 'string' ? sub.claims.role : 'anon';
      const ids = [...new Set(bindings.map((b) => b.id))];
      const selectable = await this.selectableColumns(role, change);
      if (change.type !== 'DELETE') {
        // the role may no longer read the table (grants changed after the join): no INSERT/UPDATE
        if (!info.pk.every((c) => selectable.has(c))) continue;
        if (info.pk.length === 0) {
          sub.pushPostgresChange({ ids, data: { ...base, errors: ['Error 400: Bad Request, no primary key'] } });
          continue;
        }
      }
      // DELETE: no RLS check (apply_rls: `if not is_rls_enabled or action = 'DELETE'`)
      if (info.rls && change.type !== 'DELETE') {
        const key = JSON.stringify(sub.claims);
        let verdict = rlsVerdicts.get(key);
        if (!verdict) {
          verdict = this.rlsAllows(change, info.pk, sub.claims);
          rlsVerdicts.set(key, verdict);
        }
        if (!(await verdict)) continue;
      }
      // one message per distinct column selection among the matched bindings
      const groups = new Map<string, { select: string[] | null; ids: number[] }>();
      for (const b of bindings) {
        const k = b.select ? JSON.stringify([...b.select].sort()) : '*';
        const g = groups.get(k) ?? { select: b.select, ids: [] };
        if (!g.ids.includes(b.id)) g.ids.push(b.id);
        groups.set(k, g);
      }
      for (const g of groups.values()) sub.pushPostgresChange({ ids: g.ids, data: this.payload(change, info, selectable, g.select) });
    }
  }

  private payload(change: RowChange, info: TableInfo, selectable: Set<string>, select: string[] | null): Record<string, unknown> {
    const allowed = (name: string) => selectable.has(name) && (select === null || select.includes(name) || info.pk.includes(name));
    const oversized = JSON.stringify(change.record ?? change.oldRecord ?? {}).length > MAX_RECORD_BYTES;
    const pick = (rec: Record<string, unknown> | null, extra: (n: string) => boolean = () => true) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(rec ?? {})) {
        if (!allowed(k) || !extra(k)) continue;
        if (oversized && JSON.stringify(v ?? null).length > 64) continue;
        out[k] = v;
      }
      return out;
    };
    const data: Record<string, unknown> = {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commitTimestamp,
      type: change.type,
      columns: change.columns.filter((c) => allowed(c.name)),
      errors: oversized ? ['Error 413: Payload Too Large'] : null,
    };
    if (change.type !== 'DELETE') data.record = pick(change.record);
    if (change.type === 'UPDATE') data.old_record = pick(change.oldRecord);
    if (change.type === 'DELETE') data.old_record = pick(change.oldRecord, (n) => !info.rls || info.pk.includes(n));
    return data;
  }

  /** RLS check as the subscriber: can it select the row by primary key? */
  private async rlsAllows(change: RowChange, pk: string[], claims: JwtClaims): Promise<boolean> {
    const table = `${ident(change.schema)}.${ident(change.table)}`;
    const values = pk.map((c) => change.rawRecord[c]);
    if (values.some((v) => v === undefined || v === null)) return false;
    const where = pk.map((c, i) => `${ident(c)} = $${i + 1}`).join(' and ');
    try {
      return await withClaims(
        this.pool,
        claims,
        async (client) => {
          const res = await client.query(`select 1 from ${table} where ${where} limit 1`, values);
          return (res.rowCount ?? 0) > 0;
        },
        { rollback: true },
      );
    } catch {
      return false;
    }
  }
}
