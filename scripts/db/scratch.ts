/**
 * Scratch databases in the local stack's Postgres cluster, for comparing two ways of building the
 * schema: `supabase/migrations` (applied with the Supabase CLI, as the stack applies them) and the
 * declarative files of `supabase/schemas` (in the order `[db.migrations] schema_paths` of
 * `supabase/config.toml` lists them). Every scratch database first gets the stack's bootstrap SQL
 * (`scripts/local-stack/bootstrap`), i.e. what a Supabase project has before its first migration.
 *
 * The cluster is the one of the current TEAMWERK_STACK_OFFSET (`stackConfig()`); it must run.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse as parseToml } from 'smol-toml';
import { ROOT_DIR, type StackConfig } from '../local-stack/config.ts';
import { applyBootstrap, runSupabaseCli } from '../local-stack/migrate.ts';

/** Name prefix of every scratch database (so a leftover one is recognisable). */
export const SCRATCH_PREFIX = 'teamwerk_scratch_';

/** A scratch database: its name and superuser URL. */
export interface ScratchDb {
  name: string;
  url: string;
}

/** `config.dbUrl` with its database name replaced by `database`. */
export function databaseUrl(config: StackConfig, database: string): string {
  const url = new URL(config.dbUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `fn` with a client connected to `url`; always disconnects. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Bootstraps run one at a time: they re-grant roles and re-set role options, cluster-wide rows
 * that two concurrent runs could update at once ("tuple concurrently updated"). */
let bootstrapQueue: Promise<unknown> = Promise.resolve();

/**
 * Creates an empty database `<SCRATCH_PREFIX><label>_<random>` in the stack's cluster and applies the
 * bootstrap SQL to it. Returns its name and URL.
 * Errors: rejects when the cluster does not answer or the bootstrap fails (the database is dropped).
 */
export async function createScratchDb(config: StackConfig, label: string): Promise<ScratchDb> {
  const name = `${SCRATCH_PREFIX}${label.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  await withClient(config.dbUrl, (c) => c.query(`create database "${name}"`));
  const scratch = { name, url: databaseUrl(config, name) };
  try {
    const run = bootstrapQueue.then(() => applyBootstrap({ ...config, dbUrl: scratch.url }));
    bootstrapQueue = run.catch(() => undefined);
    await run;
  } catch (err) {
    await dropScratchDb(config, scratch);
    throw err;
  }
  return scratch;
}

/** Drops a scratch database (ending its connections). Never throws. */
export async function dropScratchDb(config: StackConfig, db: ScratchDb): Promise<void> {
  if (!db.name.startsWith(SCRATCH_PREFIX)) throw new Error(`refusing to drop ${db.name}: not a scratch database`);
  await withClient(config.dbUrl, (c) => c.query(`drop database if exists "${db.name}" with (force)`)).catch((err: unknown) => {
    console.warn(`could not drop ${db.name}: ${(err as Error).message}`);
  });
}

/**
 * Applies the migrations of `workdir/supabase/migrations` to `db` with the Supabase CLI, exactly as
 * the stack does (`supabase migration up --include-all`). `workdir` defaults to the repository.
 * Errors: rejects with the CLI's output when a migration fails.
 */
export async function applyMigrationsTo(db: ScratchDb, workdir = ROOT_DIR): Promise<void> {
  const dir = path.join(workdir, 'supabase/migrations');
  if (!fs.existsSync(dir) || !fs.readdirSync(dir).some((f) => f.endsWith('.sql'))) return;
  await runSupabaseCli(['migration', 'up', `--remote=${db.url}`, '--yes', '--include-all', '--workdir', workdir], 600_000);
}

/**
 * The declarative schema files, in load order: `[db.migrations] schema_paths` of
 * `supabase/config.toml` (paths relative to `supabase/`, as the Supabase CLI reads them; a `*` in
 * the file name part matches files of that folder in name order). Returns absolute paths.
 * Errors: throws when a listed path matches no file.
 */
export function schemaFiles(root = ROOT_DIR): string[] {
  const supabaseDir = path.join(root, 'supabase');
  const config = parseToml(fs.readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8')) as {
    db?: { migrations?: { schema_paths?: string[] } };
  };
  const files: string[] = [];
  for (const entry of config.db?.migrations?.schema_paths ?? []) {
    const abs = path.resolve(supabaseDir, entry);
    let matches: string[];
    if (path.basename(abs).includes('*')) {
      const pattern = new RegExp(`^${path.basename(abs).split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      const dir = path.dirname(abs);
      matches = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => path.join(dir, f)) : [];
    } else {
      matches = fs.existsSync(abs) ? [abs] : [];
    }
    if (!matches.length) throw new Error(`schema_paths entry ${entry} matches no file`);
    for (const m of matches) if (!files.includes(m)) files.push(m);
  }
  return files;
}

/**
 * Loads the declarative schema files into `db`, one file per statement batch, in `schemaFiles()`
 * order, with function bodies checked at creation (the server default).
 * Errors: rejects naming the file whose statement failed.
 */
export async function applySchemaFilesTo(db: ScratchDb, files = schemaFiles()): Promise<void> {
  await withClient(db.url, async (client) => {
    for (const file of files) {
      try {
        await client.query(fs.readFileSync(file, 'utf8'));
      } catch (err) {
        const e = err as Error & { position?: string };
        throw new Error(`${path.relative(ROOT_DIR, file)}: ${e.message}${e.position ? ` (at character ${e.position})` : ''}`, { cause: err });
      }
    }
  });
}

/**
 * A temporary Supabase workdir (`<tmp>/supabase/{config.toml,migrations}`) holding the migrations
 * of git revision `rev`, for building the database an older commit described. Returns the
 * directory; the caller removes it.
 * Errors: throws when `rev` is unknown to git.
 */
export function workdirAtRevision(rev: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamwerk-rev-'));
  const archive = execFileSync('git', ['archive', '--format=tar', rev, 'supabase/config.toml', 'supabase/migrations'], {
    cwd: ROOT_DIR,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  return dir;
}

/**
 * A scratch database built from `workdir/supabase/migrations` (default: the repository's).
 * The caller drops it. Errors: rejects (after dropping it) when a migration fails.
 */
export async function buildFromMigrations(config: StackConfig, label = 'migrations', workdir?: string): Promise<ScratchDb> {
  const db = await createScratchDb(config, label);
  try {
    await applyMigrationsTo(db, workdir);
    return db;
  } catch (err) {
    await dropScratchDb(config, db);
    throw err;
  }
}

/**
 * A scratch database built from the declarative schema files. The caller drops it.
 * Errors: rejects (after dropping it) when a file fails to load.
 */
export async function buildFromSchemas(config: StackConfig, label = 'schemas'): Promise<ScratchDb> {
  const db = await createScratchDb(config, label);
  try {
    await applySchemaFilesTo(db);
    return db;
  } catch (err) {
    await dropScratchDb(config, db);
    throw err;
  }
}
