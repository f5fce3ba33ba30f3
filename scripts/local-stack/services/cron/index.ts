/**
 * pg_cron / pg_net emulation of the local stack (issue 2 item 7), over the SQL surface created
 * by bootstrap/60-cron-net.sql:
 * - scheduler.ts runs due `cron.job` rows and records `cron.job_run_details`;
 * - net-worker.ts executes queued `net.http_request_queue` rows into `net._http_response`.
 *
 * One listening session (application_name 'pg_net worker', which `net.check_worker_is_up()`
 * looks for) receives NOTIFY `pg_net_wake` (sent by net.http_* on commit) and
 * `cron_job_cache_invalidate` (cron.job changed); timers poll as a fallback, so a lost
 * connection only delays work. Bad commands and unreachable URLs are recorded, never thrown.
 */
import pg from 'pg';
import type { BackgroundService, StackContext } from '../../types.ts';
import { createPool } from '../../db.ts';
import { CronScheduler } from './scheduler.ts';
import { NetWorker } from './net-worker.ts';
import { installExtensionStubs } from './extension-stubs.ts';

// Runs when the daemon loads this module, i.e. before Postgres starts and migrations run, so a
// migration's `create extension pg_cron` / `pg_net` finds the (empty) stub extensions.
installExtensionStubs((m) => process.stderr.write(`${m}\n`));

const TICK_MS = 250;
const NET_POLL_MS = 1000;
const TTL_SWEEP_MS = 10 * 60 * 1000;

/**
 * Starts the scheduler and the net worker. Resolves once the listening session is connected
 * (rejects when Postgres is unreachable). `close()` stops timers and waits briefly for running
 * jobs and requests.
 */
export async function createCronWorker(ctx: StackContext): Promise<BackgroundService> {
  const log = (message: string, extra?: unknown) => ctx.log('cron', message, extra);
  const pool = createPool(ctx.config, 5);
  pool.on('error', (err) => log(`pool: ${err.message}`));
  const scheduler = new CronScheduler(ctx.config, pool, log);
  const net = new NetWorker(pool, log);
  let closed = false;
  let listener: pg.Client | null = null;

  const connectListener = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: ctx.config.dbUrl, application_name: 'pg_net worker' });
    client.on('notification', (msg) => {
      if (msg.channel === 'pg_net_wake') void net.wake();
      else if (msg.channel === 'cron_job_cache_invalidate') scheduler.invalidate();
    });
    client.on('error', (err) => {
      log(`listener connection lost: ${err.message}`);
      client.end().catch(() => undefined);
      if (listener === client) listener = null;
      if (!closed) reconnectLater();
    });
    await client.connect();
    await client.query('listen pg_net_wake; listen cron_job_cache_invalidate');
    listener = client;
  };
  // keeps trying every second until the database answers again (e.g. after a restart)
  const reconnectLater = (): void => {
    setTimeout(() => {
      if (closed || listener) return;
      connectListener().then(
        () => log('listener reconnected'),
        (e: Error) => {
          log(`listener reconnect failed: ${e.message}`);
          reconnectLater();
        },
      );
    }, 1000).unref();
  };
  await connectListener();

  const tick = setInterval(() => void scheduler.tick(), TICK_MS);
  const poll = setInterval(() => void net.wake(), NET_POLL_MS);
  const sweep = setInterval(() => void net.expire(), TTL_SWEEP_MS);
  void net.wake();
  void net.expire();
  log('pg_cron scheduler and pg_net worker running');

  return {
    async close() {
      closed = true;
      clearInterval(tick);
      clearInterval(poll);
      clearInterval(sweep);
      await Promise.all([scheduler.close(), net.close()]);
      await listener?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
