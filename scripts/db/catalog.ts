/**
 * A canonical picture of a database, read from the Postgres catalog, for proving that two ways of
 * building the schema give the same result (scripts/db/compare.ts, supabase/tests/schema-home.test.ts,
 * scripts/db/diff.ts).
 *
 * Why our own reading next to pg-delta: pg-delta's `supabase` profile leaves out everything in the
 * platform schemas (auth, storage, realtime, cron, vault, …), so it does not see our policies on
 * `storage.objects` and `realtime.messages`, and it does not model text search configurations
 * (`private.teamwerk_de`/`_en`, reported as `unmodeled_kind`); pg_cron jobs, vault secrets, storage
 * buckets and reference rows are data, which no schema diff compares. This reading covers every
 * kind, in every schema but pg_catalog/information_schema (the bootstrap's objects are on both
 * sides alike, so only what a migration changed there can differ).
 *
 * Privileges are compared as they take effect: an object without an ACL has its owner's default
 * ACL (acldefault), so `revoke … from public` that only spells out the default changes nothing.
 *
 * Each entry is `key → canonical text`; two databases are equal when both maps are equal. Keys name
 * the object (`function private.search(text, integer)`, `column public.profiles.email`,
 * `policy storage.objects.teamwerk_objects_select`, …); texts hold every property that matters,
 * function definitions byte for byte (`pg_get_functiondef`: header, attributes, SET options and
 * the body exactly as written).
 */
import type pg from 'pg';

/** What to read besides the schema: data (reference rows, cron jobs, vault secrets, buckets, sequence positions). */
export interface CatalogOptions {
  data?: boolean;
}

/** key → canonical text of one object. */
export type Catalog = Map<string, string>;

/** Schemas never read: the system catalogs and the Supabase CLI's own migration history. */
const SKIPPED_SCHEMAS = `('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')`;
const SCHEMA_FILTER = (col: string) => `${col} not in ${SKIPPED_SCHEMAS} and ${col} !~ '^pg_temp_' and ${col} !~ '^pg_toast_temp_'`;

/** Objects that belong to an extension (created by CREATE EXTENSION) are compared through the extension. */
const NOT_EXTENSION_MEMBER = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend dep where dep.classid = '${classid}'::regclass and dep.objid = ${oid} and dep.deptype = 'e')`;

/** Table data never compared: run-time state (job runs, HTTP queue) and columns that differ per build. */
const DATA_SKIPPED_TABLES = new Set(['cron.job_run_details', 'net.http_request_queue', 'net._http_response']);
const DATA_SKIPPED_COLUMNS = new Set(['cron.job.database']);

const sortAcl = (acl: string[] | null) => (acl ? [...acl].sort().join(' ') : 'none');

/**
 * Reads the catalog of the database `client` is connected to.
 * Errors: rejects when a catalog query fails.
 */
export async function readCatalog(client: pg.Client, options: CatalogOptions = {}): Promise<Catalog> {
  const out: Catalog = new Map();
  const put = (key: string, value: unknown) => {
    if (out.has(key)) throw new Error(`catalog key read twice: ${key}`);
    out.set(key, typeof value === 'string' ? value : JSON.stringify(value, null, 1));
  };
  const q = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;

  for (const r of await q<{ name: string; owner: string; acl: string[] | null; comment: string | null }>(`
    select n.nspname as name, n.nspowner::regrole::text as owner, coalesce(n.nspacl, acldefault('n', n.nspowner))::text[] as acl,
           obj_description(n.oid, 'pg_namespace') as comment
    from pg_namespace n where ${SCHEMA_FILTER('n.nspname')}`)) {
    put(`schema ${r.name}`, { owner: r.owner, acl: sortAcl(r.acl), comment: r.comment });
  }

  for (const r of await q<{ name: string; schema: string; comment: string | null }>(`
    select e.extname as name, e.extnamespace::regnamespace::text as schema, obj_description(e.oid, 'pg_extension') as comment
    from pg_extension e`)) {
    put(`extension ${r.name}`, { schema: r.schema, comment: r.comment });
  }

  // relations: tables, views, materialized views, sequences, indexes, composite types, foreign tables
  for (const r of await q<{
    schema: string; name: string; kind: string; owner: string; acl: string[] | null; rls: boolean; force_rls: boolean;
    replident: string; options: string[] | null; persistence: string; comment: string | null; viewdef: string | null;
    indexdef: string | null; replindex: boolean | null; seq: string | null; tablespace: string | null;
  }>(`
    select n.nspname as schema, c.relname as name, c.relkind as kind, c.relowner::regrole::text as owner,
           coalesce(c.relacl, acldefault(case when c.relkind = 'S' then 's'::"char" else 'r'::"char" end, c.relowner))::text[] as acl,
           c.relrowsecurity as rls, c.relforcerowsecurity as force_rls, c.relreplident as replident, c.reloptions as options,
           c.relpersistence as persistence, obj_description(c.oid, 'pg_class') as comment,
           case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end as viewdef,
           case when c.relkind in ('i', 'I') then pg_get_indexdef(c.oid) end as indexdef,
           (select i.indisreplident from pg_index i where i.indexrelid = c.oid) as replindex,
           (select concat_ws(' ', s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle,
                   (select concat(dn.nspname, '.', dc.relname, '.', a.attname, ' ', d.deptype) from pg_depend d
                      join pg_class dc on dc.oid = d.refobjid join pg_namespace dn on dn.oid = dc.relnamespace
                      join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
                    where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i')))
              from pg_sequence s where s.seqrelid = c.oid) as seq,
           (select t.spcname from pg_tablespace t where t.oid = c.reltablespace) as tablespace
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${SCHEMA_FILTER('n.nspname')} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'i', 'I', 'c', 'f')
      and ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')}`)) {
    const kind = { r: 'table', p: 'table', v: 'view', m: 'materialized view', S: 'sequence', i: 'index', I: 'index', c: 'composite type', f: 'foreign table' }[r.kind] ?? r.kind;
    const value: Record<string, unknown> = { relkind: r.kind, owner: r.owner, acl: sortAcl(r.acl), comment: r.comment };
    if (r.kind === 'r' || r.kind === 'p') Object.assign(value, { rls: r.rls, force_rls: r.force_rls, replica_identity: r.replident, persistence: r.persistence });
    if (r.options) value.options = [...r.options].sort();
    if (r.viewdef !== null) value.definition = r.viewdef;
    if (r.indexdef !== null) Object.assign(value, { definition: r.indexdef, replica_identity: r.replindex });
    if (r.seq !== null) value.sequence = r.seq;
    if (r.tablespace) value.tablespace = r.tablespace;
    put(`${kind} ${r.schema}.${r.name}`, value);
  }

  // columns (position = rank among the live columns, so a dropped column leaves no trace)
  for (const r of await q<{
    rel: string; name: string; position: string; type: string; notnull: boolean; def: string | null; identity: string;
    generated: string; collation: string | null; acl: string[] | null; comment: string | null; options: string[] | null;
  }>(`
    select n.nspname || '.' || c.relname as rel, a.attname as name,
           row_number() over (partition by c.oid order by a.attnum) as position,
           format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
           pg_get_expr(ad.adbin, ad.adrelid) as def, a.attidentity as identity, a.attgenerated as generated,
           case when a.attcollation <> t.typcollation then (select co.collname from pg_collation co where co.oid = a.attcollation) end as collation,
           a.attacl::text[] as acl, col_description(c.oid, a.attnum) as comment, a.attoptions as options
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_type t on t.oid = a.atttypid
    left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
    where a.attnum > 0 and not a.attisdropped and ${SCHEMA_FILTER('n.nspname')}
      and c.relkind in ('r', 'p', 'v', 'm', 'c', 'f') and ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')}`)) {
    put(`column ${r.rel}.${r.name}`, {
      position: Number(r.position), type: r.type, not_null: r.notnull, default: r.def, identity: r.identity, generated: r.generated,
      collation: r.collation, acl: sortAcl(r.acl), comment: r.comment, options: r.options,
    });
  }

  // constraints of tables and domains
  for (const r of await q<{ owner: string; name: string; type: string; def: string; deferrable: boolean; deferred: boolean; validated: boolean; comment: string | null }>(`
    select coalesce(n.nspname || '.' || c.relname, tn.nspname || '.' || t.typname) as owner, k.conname as name, k.contype as type,
           pg_get_constraintdef(k.oid) as def, k.condeferrable as deferrable, k.condeferred as deferred, k.convalidated as validated,
           obj_description(k.oid, 'pg_constraint') as comment
    from pg_constraint k
    left join pg_class c on c.oid = k.conrelid left join pg_namespace n on n.oid = c.relnamespace
    left join pg_type t on t.oid = k.contypid left join pg_namespace tn on tn.oid = t.typnamespace
    where ${SCHEMA_FILTER('coalesce(n.nspname, tn.nspname)')}
      and (c.oid is null or ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')})
      and (t.oid is null or ${NOT_EXTENSION_MEMBER('pg_type', 't.oid')})`)) {
    put(`constraint ${r.owner}.${r.name}`, { type: r.type, definition: r.def, deferrable: r.deferrable, deferred: r.deferred, validated: r.validated, comment: r.comment });
  }

  for (const r of await q<{ rel: string; name: string; def: string; enabled: string; comment: string | null }>(`
    select n.nspname || '.' || c.relname as rel, t.tgname as name, pg_get_triggerdef(t.oid) as def, t.tgenabled as enabled,
           obj_description(t.oid, 'pg_trigger') as comment
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and ${SCHEMA_FILTER('n.nspname')}`)) {
    put(`trigger ${r.rel}.${r.name}`, { definition: r.def, enabled: r.enabled, comment: r.comment });
  }

  for (const r of await q<{ rel: string; name: string; permissive: boolean; roles: string[]; cmd: string; qual: string | null; check: string | null; comment: string | null }>(`
    select n.nspname || '.' || c.relname as rel, p.polname as name, p.polpermissive as permissive,
           array(select case when r = 0 then 'public' else r::regrole::text end from unnest(p.polroles) r order by 1) as roles,
           p.polcmd as cmd, pg_get_expr(p.polqual, p.polrelid) as qual, pg_get_expr(p.polwithcheck, p.polrelid) as check,
           obj_description(p.oid, 'pg_policy') as comment
    from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
    where ${SCHEMA_FILTER('n.nspname')}`)) {
    put(`policy ${r.rel}.${r.name}`, { permissive: r.permissive, roles: r.roles, command: r.cmd, using: r.qual, with_check: r.check, comment: r.comment });
  }

  for (const r of await q<{ rel: string; name: string; def: string; enabled: string; comment: string | null }>(`
    select n.nspname || '.' || c.relname as rel, w.rulename as name, pg_get_ruledef(w.oid) as def, w.ev_enabled as enabled,
           obj_description(w.oid, 'pg_rewrite') as comment
    from pg_rewrite w join pg_class c on c.oid = w.ev_class join pg_namespace n on n.oid = c.relnamespace
    where w.rulename <> '_RETURN' and ${SCHEMA_FILTER('n.nspname')}`)) {
    put(`rule ${r.rel}.${r.name}`, { definition: r.def, enabled: r.enabled, comment: r.comment });
  }

  // functions and procedures: the whole definition byte for byte; aggregates by their parts
  for (const r of await q<{ sig: string; kind: string; def: string | null; owner: string; acl: string[] | null; comment: string | null; agg: string | null }>(`
    select p.pronamespace::regnamespace::text || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as sig,
           p.prokind as kind, case when p.prokind <> 'a' then pg_get_functiondef(p.oid) end as def,
           p.proowner::regrole::text as owner, coalesce(p.proacl, acldefault('f', p.proowner))::text[] as acl,
           obj_description(p.oid, 'pg_proc') as comment,
           (select concat_ws(' ', a.aggtransfn, a.aggfinalfn, a.aggtranstype::regtype, a.agginitval) from pg_aggregate a where a.aggfnoid = p.oid) as agg
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_proc', 'p.oid')}`)) {
    put(`function ${r.sig}`, { kind: r.kind, owner: r.owner, acl: sortAcl(r.acl), comment: r.comment, ...(r.agg ? { aggregate: r.agg } : {}), definition: r.def });
  }

  // types: enums (labels in order), domains, ranges, base types (composite types are relations above)
  for (const r of await q<{ name: string; kind: string; owner: string; acl: string[] | null; comment: string | null; labels: string[] | null; domain: string | null; range: string | null }>(`
    select n.nspname || '.' || t.typname as name, t.typtype as kind, t.typowner::regrole::text as owner,
           coalesce(t.typacl, acldefault('T', t.typowner))::text[] as acl,
           obj_description(t.oid, 'pg_type') as comment,
           case when t.typtype = 'e' then array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) end as labels,
           case when t.typtype = 'd' then concat_ws(' ', format_type(t.typbasetype, t.typtypmod), t.typnotnull, t.typdefault) end as domain,
           case when t.typtype = 'r' then (select concat_ws(' ', r.rngsubtype::regtype, r.rngsubopc, r.rngcanonical, r.rngsubdiff) from pg_range r where r.rngtypid = t.oid) end as range
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where ${SCHEMA_FILTER('n.nspname')} and t.typtype in ('e', 'd', 'r', 'b', 'm')
      and not (t.typtype = 'b' and t.typelem <> 0 and t.typlen = -1 and left(t.typname, 1) = '_')
      and ${NOT_EXTENSION_MEMBER('pg_type', 't.oid')}`)) {
    put(`type ${r.name}`, { kind: r.kind, owner: r.owner, acl: sortAcl(r.acl), comment: r.comment, labels: r.labels, domain: r.domain, range: r.range });
  }

  for (const r of await q<{ name: string; owner: string; flags: string; comment: string | null }>(`
    select p.pubname as name, p.pubowner::regrole::text as owner,
           concat_ws(' ', p.puballtables, p.pubinsert, p.pubupdate, p.pubdelete, p.pubtruncate, p.pubviaroot) as flags,
           obj_description(p.oid, 'pg_publication') as comment
    from pg_publication p`)) {
    put(`publication ${r.name}`, { owner: r.owner, flags: r.flags, comment: r.comment });
  }
  for (const r of await q<{ pub: string; rel: string; cols: string[] | null; filter: string | null }>(`
    select p.pubname as pub, n.nspname || '.' || c.relname as rel,
           case when pr.prattrs is not null then array(select a.attname::text from pg_attribute a where a.attrelid = pr.prrelid and a.attnum = any (pr.prattrs) order by a.attnum) end as cols,
           pg_get_expr(pr.prqual, pr.prrelid) as filter
    from pg_publication_rel pr join pg_publication p on p.oid = pr.prpubid
    join pg_class c on c.oid = pr.prrelid join pg_namespace n on n.oid = c.relnamespace`)) {
    put(`publication member ${r.pub} ${r.rel}`, { columns: r.cols, row_filter: r.filter });
  }
  for (const r of await q<{ pub: string; schema: string }>(`
    select p.pubname as pub, n.nspname as schema from pg_publication_namespace pn
    join pg_publication p on p.oid = pn.pnpubid join pg_namespace n on n.oid = pn.pnnspid`)) {
    put(`publication schema ${r.pub} ${r.schema}`, {});
  }

  for (const r of await q<{ role: string; schema: string | null; objtype: string; acl: string[] }>(`
    select d.defaclrole::regrole::text as role, d.defaclnamespace::regnamespace::text as schema, d.defaclobjtype as objtype, d.defaclacl::text[] as acl
    from pg_default_acl d`)) {
    put(`default privileges ${r.role} ${r.schema === '-' || r.schema === null ? '(all schemas)' : r.schema} ${r.objtype}`, sortAcl(r.acl));
  }

  for (const r of await q<{ name: string; parser: string; owner: string; comment: string | null; mapping: string[] }>(`
    select n.nspname || '.' || c.cfgname as name, (select p.prsname from pg_ts_parser p where p.oid = c.cfgparser) as parser,
           c.cfgowner::regrole::text as owner, obj_description(c.oid, 'pg_ts_config') as comment,
           array(select m.maptokentype || ':' || m.mapseqno || ':' || m.mapdict::regdictionary::text
                 from pg_ts_config_map m where m.mapcfg = c.oid order by m.maptokentype, m.mapseqno) as mapping
    from pg_ts_config c join pg_namespace n on n.oid = c.cfgnamespace
    where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_ts_config', 'c.oid')}`)) {
    put(`text search configuration ${r.name}`, { parser: r.parser, owner: r.owner, comment: r.comment, mapping: r.mapping });
  }
  for (const r of await q<{ name: string; def: string; owner: string }>(`
    select n.nspname || '.' || d.dictname as name, concat_ws(' ', d.dicttemplate::regnamespace, d.dictinitoption) as def, d.dictowner::regrole::text as owner
    from pg_ts_dict d join pg_namespace n on n.oid = d.dictnamespace
    where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_ts_dict', 'd.oid')}`)) {
    put(`text search dictionary ${r.name}`, { definition: r.def, owner: r.owner });
  }

  for (const r of await q<{ name: string; event: string; fn: string; enabled: string; tags: string[] | null }>(`
    select e.evtname as name, e.evtevent as event, e.evtfoid::regprocedure::text as fn, e.evtenabled as enabled, e.evttags as tags
    from pg_event_trigger e`)) {
    put(`event trigger ${r.name}`, { event: r.event, function: r.fn, enabled: r.enabled, tags: r.tags });
  }

  // roles: attributes, settings and memberships (a migration could create or alter one)
  for (const r of await q<{ name: string; attrs: string; config: string[] | null; member_of: string[] }>(`
    select r.rolname as name,
           concat_ws(' ', r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin, r.rolreplication, r.rolbypassrls, r.rolconnlimit) as attrs,
           (select array_agg(s order by s) from unnest(r.rolconfig) s) as config,
           array(select m.roleid::regrole::text || case when m.admin_option then ' (admin)' else '' end from pg_auth_members m where m.member = r.oid order by 1) as member_of
    from pg_roles r where r.rolname !~ '^pg_'`)) {
    put(`role ${r.name}`, { attributes: r.attrs, config: r.config, member_of: r.member_of });
  }

  if (options.data) await readData(client, put);
  return out;
}

/** Adds the data entries: every table's rows (sorted), sequence positions. */
async function readData(client: pg.Client, put: (key: string, value: unknown) => void): Promise<void> {
  const tables = (await client.query<{ schema: string; name: string; oid: number }>(`
    select n.nspname as schema, c.relname as name, c.oid
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')}
    order by 1, 2`)).rows;
  for (const t of tables) {
    const rel = `${t.schema}.${t.name}`;
    if (DATA_SKIPPED_TABLES.has(rel)) continue;
    // columns whose value differs per build (defaults now(), gen_random_uuid(), nextval() of a serial
    // shared with other rows) are left out; identity columns are compared
    const cols = (await client.query<{ name: string }>(`
      select a.attname as name from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        and coalesce(pg_get_expr(d.adbin, d.adrelid), '') !~* '(now\\(\\)|current_timestamp|clock_timestamp|gen_random_uuid|uuid_generate|random\\()'
      order by a.attnum`, [t.oid])).rows.map((c) => c.name).filter((c) => !DATA_SKIPPED_COLUMNS.has(`${rel}.${c}`));
    if (!cols.length) continue;
    const list = cols.map((c) => `"${c}"`).join(', ');
    const rows = (await client.query<{ r: string }>(`select row(${list})::text as r from "${t.schema}"."${t.name}" order by 1`)).rows.map((x) => x.r);
    if (rows.length) put(`data ${rel}`, { columns: cols, rows });
  }
  const seqs = (await client.query<{ name: string; last: string | null; called: boolean }>(`
    select s.schemaname || '.' || s.sequencename as name, s.last_value::text as last, true as called
    from pg_sequences s where ${SCHEMA_FILTER('s.schemaname')} and s.last_value is not null
      and s.schemaname || '.' || s.sequencename not in ('cron.runid_seq', 'net.http_request_queue_id_seq')
    order by 1`)).rows;
  for (const s of seqs) put(`sequence position ${s.name}`, s.last);
}

/** One object that differs: its key and both canonical texts (null = absent on that side). */
export interface CatalogDifference {
  key: string;
  left: string | null;
  right: string | null;
}

/** The objects that differ between two catalogs, sorted by key. */
export function compareCatalogs(left: Catalog, right: Catalog): CatalogDifference[] {
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort();
  return keys
    .filter((k) => left.get(k) !== right.get(k))
    .map((key) => ({ key, left: left.get(key) ?? null, right: right.get(key) ?? null }));
}

/**
 * Human-readable report of differences: per object its key and, for changed ones, the first lines
 * where the two texts part. `leftName`/`rightName` label the sides.
 */
export function formatDifferences(diffs: CatalogDifference[], leftName: string, rightName: string, max = 50): string {
  const lines: string[] = [];
  for (const d of diffs.slice(0, max)) {
    if (d.left === null) lines.push(`+ ${d.key}: only in ${rightName}`);
    else if (d.right === null) lines.push(`- ${d.key}: only in ${leftName}`);
    else {
      const a = d.left.split('\n');
      const b = d.right.split('\n');
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      lines.push(`~ ${d.key}: differs from line ${i + 1}`);
      lines.push(`    ${leftName}: ${a.slice(i, i + 3).join(' ⏎ ').slice(0, 400)}`);
      lines.push(`    ${rightName}: ${b.slice(i, i + 3).join(' ⏎ ').slice(0, 400)}`);
    }
  }
  if (diffs.length > max) lines.push(`… and ${diffs.length - max} more`);
  return lines.join('\n');
}

/** The kinds of catalog keys, longest first (a key is `<kind> <object>`). */
const KINDS = [
  'text search configuration', 'text search dictionary', 'publication member', 'publication schema', 'default privileges',
  'sequence position', 'materialized view', 'composite type', 'foreign table', 'event trigger', 'extension', 'constraint',
  'publication', 'function', 'sequence', 'trigger', 'schema', 'column', 'policy', 'index', 'table', 'view', 'type', 'rule',
  'role', 'data',
];

/** Counts of a catalog's entries per kind of object. */
export function catalogSummary(catalog: Catalog): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of catalog.keys()) {
    const kind = KINDS.find((k) => key.startsWith(`${k} `)) ?? key;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
