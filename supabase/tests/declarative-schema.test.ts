/**
 * One home for every definition: the declarative schema in supabase/schemas.
 * - Every object (function by name and argument types, table, view, policy, trigger, type,
 *   index) is created in exactly one place of supabase/schemas, read from the statements (text in
 *   comments, strings and function bodies defines nothing).
 * - A table is altered only in the file that creates it, with one documented exception.
 * - Every schema file is listed in `[db.migrations] schema_paths` of supabase/config.toml.
 * - The database built from supabase/migrations equals the one built from supabase/schemas (both
 *   in scratch databases of the running stack's cluster, after the bootstrap SQL): pg-delta plans
 *   no action between them and our catalog reading (scripts/db/catalog.ts) finds no difference; a
 *   failure lists the differing objects. The comparison is shown to see a changed function body, a
 *   policy on storage.objects, a column grant, a comment, a publication member and a replica
 *   identity.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT_DIR, stackConfig } from '../../scripts/local-stack/config.ts';
import { compareCatalogs, formatDifferences, readCatalog, type CatalogDifference } from '../../scripts/db/catalog.ts';
import { planSchemaDiff } from '../../scripts/db/pg-delta.ts';
import { buildFromMigrations, buildFromSchemas, dropScratchDb, schemaFiles, withClient, type ScratchDb } from '../../scripts/db/scratch.ts';
import { alteredTable, definedObject, definitionSites, splitStatements } from '../../scripts/db/sql-statements.ts';

const SCHEMA_DIR = path.join(ROOT_DIR, 'supabase/schemas');

/** The schema files as { name, sql }, name relative to supabase/schemas. */
function readSchemaFiles(): { name: string; sql: string }[] {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8') }));
}

/**
 * `alter table` outside the creating file that are allowed, as `<table> in <file>` with the reason:
 * profiles.featured_project_id references projects while projects.owner_id references profiles, so
 * one foreign key of the cycle is declared after both tables exist.
 */
const ALLOWED_FOREIGN_ALTERS = new Set(['public.profiles in 09_public_profiles.sql']);

describe('supabase/schemas: one place per definition', () => {
  test('the statement reader keys objects by what they define, not by comments', () => {
    const sites = definitionSites([
      { name: 'a.sql', sql: `-- create table public.t (id int);\ncreate function private.f(p_id uuid, p_n integer default 1) returns int language sql as $$ select 1 $$;` },
      { name: 'b.sql', sql: `/* create function private.f(uuid, integer) */\ncreate or replace function private.f(x uuid, int) returns int language sql as $$ select 2 $$;\ncreate policy p on public.t using (true);` },
    ]);
    expect(sites.get('function private.f(uuid, integer)')).toEqual([{ file: 'a.sql', line: 2 }, { file: 'b.sql', line: 2 }]);
    expect(sites.has('table public.t')).toBe(false);
    expect(definedObject(`create unique index foo_idx on public.t (a)`)).toEqual({ kind: 'index', key: 'public.foo_idx' });
    expect(definedObject(`create trigger t_guard before update on public.t for each row execute function private.g()`)).toEqual({ kind: 'trigger', key: 't_guard on public.t' });
    expect(splitStatements(`select ';' as a; -- x;\nselect $q$;$q$;`).map((s) => s.text)).toEqual([`select ';' as a`, 'select $q$;$q$']);
  });

  test('no function, table, view, policy, trigger, type or index is created twice', () => {
    const files = readSchemaFiles();
    const sites = definitionSites(files);
    const twice = [...sites].filter(([, at]) => at.length > 1).map(([key, at]) => `${key}: ${at.map((s) => `${s.file}:${s.line}`).join(', ')}`);
    expect(twice).toEqual([]);
    // a sanity floor: the reader sees the whole schema
    expect([...sites.keys()].filter((k) => k.startsWith('function ')).length).toBeGreaterThan(250);
    expect([...sites.keys()].filter((k) => k.startsWith('table ')).length).toBeGreaterThan(50);
  });

  test('a table is altered only in the file that creates it', () => {
    const files = readSchemaFiles();
    const home = new Map<string, string>();
    for (const f of files) for (const s of splitStatements(f.sql)) {
      const object = definedObject(s.text);
      if (object?.kind === 'table') home.set(object.key, f.name);
    }
    const foreign: string[] = [];
    for (const f of files) for (const s of splitStatements(f.sql)) {
      const table = alteredTable(s.text);
      if (table && home.get(table) !== f.name && !ALLOWED_FOREIGN_ALTERS.has(`${table} in ${f.name}`)) foreign.push(`${table} in ${f.name}:${s.line}`);
    }
    expect(foreign).toEqual([]);
  });

  test('every schema file is in schema_paths, in its load order', () => {
    const listed = schemaFiles().map((f) => path.relative(SCHEMA_DIR, f));
    expect(listed).toEqual(readSchemaFiles().map((f) => f.name));
  });
});

describe('supabase/migrations build the database supabase/schemas describe', () => {
  const config = stackConfig();
  let fromMigrations: ScratchDb;
  let fromSchemas: ScratchDb;

  beforeAll(async () => {
    fromMigrations = await buildFromMigrations(config, 'test_migrations');
    fromSchemas = await buildFromSchemas(config, 'test_schemas');
  }, 300_000);
  afterAll(async () => {
    await Promise.all([fromMigrations && dropScratchDb(config, fromMigrations), fromSchemas && dropScratchDb(config, fromSchemas)]);
  });

  const differences = async (): Promise<CatalogDifference[]> =>
    compareCatalogs(await withClient(fromMigrations.url, (c) => readCatalog(c)), await withClient(fromSchemas.url, (c) => readCatalog(c)));

  test('pg-delta plans nothing and the catalogs are equal', async () => {
    const plan = await planSchemaDiff(fromMigrations.url, fromSchemas.url);
    expect(plan.sql, `pg-delta would migrate supabase/migrations to supabase/schemas with:\n${plan.sql}`).toBe('');
    const diffs = await differences();
    expect(diffs.length, `objects that differ:\n${formatDifferences(diffs, 'supabase/migrations', 'supabase/schemas')}`).toBe(0);
  }, 120_000);

  test('the comparison sees a changed function body, storage policy, column grant, comment, publication member and replica identity', async () => {
    await withClient(fromSchemas.url, async (c) => {
      await c.query(`create or replace function private.join_words(words text[]) returns text language sql immutable parallel safe
        set search_path = '' as $$
  select coalesce(pg_catalog.array_to_string(words, ' '), '')  $$`);
      await c.query(`drop policy teamwerk_chat_attachments_delete on storage.objects`);
      await c.query(`revoke select (headline) on public.profiles from anon`);
      await c.query(`comment on column public.profiles.slug is null`);
      await c.query(`alter publication supabase_realtime add table public.messages`);
      await c.query(`alter table public.messages replica identity full`);
    });
    const keys = (await differences()).map((d) => d.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'function private.join_words(words text[])',
        'policy storage.objects.teamwerk_chat_attachments_delete',
        'column public.profiles.headline',
        'column public.profiles.slug',
        'publication member supabase_realtime public.messages',
        'table public.messages',
      ]),
    );
    const plan = await planSchemaDiff(fromMigrations.url, fromSchemas.url);
    expect(plan.sql).toMatch(/DROP POLICY "teamwerk_chat_attachments_delete" ON "storage"."objects"/);
    expect(plan.sql).toMatch(/ALTER PUBLICATION "supabase_realtime" ADD TABLE "public"."messages"/);
  }, 120_000);
});
