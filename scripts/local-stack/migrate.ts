/**
 * Schema setup of the local stack:
 * 1. the Supabase bootstrap SQL (`bootstrap/NN-*.sql`, name order) on a fresh cluster,
 * 2. the project's migrations with the official Supabase CLI
 *    (`supabase migration up --remote=<db-url> --yes`), on every start (only pending ones run),
 * 3. `supabase/seed.sql` on a fresh cluster (or on reset).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import pg from 'pg';
import { ROOT_DIR, type StackConfig } from './config.ts';

const exec = promisify(execFile);
const require = createRequire(import.meta.url);
const BOOTSTRAP_DIR = path.join(ROOT_DIR, 'scripts/local-stack/bootstrap');

/** Path of the Supabase CLI binary from the `supabase` npm package (platform package). */
export function supabaseCliBinary(): string {
  const pkg = require.resolve(`@supabase/cli-${process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}/package.json`);
  return path.join(path.dirname(pkg), 'bin', 'supabase');
}

/**
 * Runs the Supabase CLI with `args` in the repository root; returns stdout.
 * Errors: throws with the CLI's stderr when it exits non-zero.
 */
export async function runSupabaseCli(args: string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await exec(supabaseCliBinary(), args, {
      cwd: ROOT_DIR,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', SUPABASE_YES: '1' },
    });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`supabase ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`, { cause: err });
  }
}

/** Runs a SQL file (may hold many statements) as the postgres superuser. */
async function runSqlFile(client: pg.Client, file: string): Promise<void> {
  const sql = fs.readFileSync(file, 'utf8');
  try {
    await client.query(sql);
  } catch (err) {
    throw new Error(`${path.relative(ROOT_DIR, file)}: ${(err as Error).message}`, { cause: err });
  }
}

/** Applies the bootstrap SQL files in name order. */
export async function applyBootstrap(config: StackConfig): Promise<void> {
  const client = new pg.Client({ connectionString: config.dbUrl });
  await client.connect();
  try {
    const files = fs.readdirSync(BOOTSTRAP_DIR).filter((f) => f.endsWith('.sql')).sort();
    for (const f of files) await runSqlFile(client, path.join(BOOTSTRAP_DIR, f));
  } finally {
    await client.end();
  }
}

/** Applies pending migrations with the Supabase CLI. */
export async function applyMigrations(config: StackConfig): Promise<string> {
  const dir = path.join(ROOT_DIR, 'supabase/migrations');
  if (!fs.existsSync(dir) || fs.readdirSync(dir).every((f) => !f.endsWith('.sql'))) return 'no migrations';
  return runSupabaseCli(['migration', 'up', `--remote=${config.dbUrl}`, '--yes', '--include-all']);
}

/** Loads `supabase/seed.sql` when present. */
export async function applySeed(config: StackConfig): Promise<boolean> {
  const file = path.join(ROOT_DIR, 'supabase/seed.sql');
  if (!fs.existsSync(file)) return false;
  const client = new pg.Client({ connectionString: config.dbUrl });
  await client.connect();
  try {
    await runSqlFile(client, file);
  } finally {
    await client.end();
  }
  return true;
}

/** Description of the vault secret the stack keeps in step with its generated key. */
const VAULT_KEY_DESCRIPTION =
  'The local stack’s generated service_role key of this data folder (scripts/local-stack/secrets.ts), stored at every start. Set the real key in production.';

/**
 * Stores this stack's service_role key as the vault secret `service_role_key`, which the pg_cron
 * jobs that call Edge Functions (process-email-queue, process-ticket-refunds; see
 * supabase/migrations/20261121000100_reference_data.sql) send as their key (as Supabase recommends
 * for scheduled functions). Runs at every start after the migrations, so a data folder whose secrets
 * were (re)generated calls its functions with the key the gateway accepts. Idempotent.
 */
export async function storeVaultSecrets(config: StackConfig): Promise<void> {
  const client = new pg.Client({ connectionString: config.dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; secret: string }>(`select id, secret from vault.secrets where name = 'service_role_key'`);
    const row = rows[0];
    if (!row) {
      await client.query(`select vault.create_secret($1, 'service_role_key', $2)`, [config.serviceRoleKey, VAULT_KEY_DESCRIPTION]);
    } else if (row.secret !== config.serviceRoleKey) {
      await client.query(`select vault.update_secret($1, $2, null, $3)`, [row.id, config.serviceRoleKey, VAULT_KEY_DESCRIPTION]);
    }
  } finally {
    await client.end();
  }
}
