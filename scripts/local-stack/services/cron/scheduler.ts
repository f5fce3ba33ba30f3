/**
 * The pg_cron scheduler of the local stack: reads `cron.job`, runs each active job of this
 * database when due (UTC), as the job's `username`, in a session of its own (as pg_cron does),
 * and records the run in `cron.job_run_details` (status running → succeeded | failed,
 * return_message = command tag or error message). A job still running is not started again.
 */
import pg from 'pg';
import type { StackConfig } from '../../config.ts';
import { nextRun, parseSchedule, type Schedule } from './schedule.ts';

interface JobRow {
  jobid: string;
  schedule: string;
  command: string;
  username: string;
  database: string;
}

interface JobState {
  row: JobRow;
  schedule: Schedule | null;
  /** Epoch ms of the next run; null = never (unparsable schedule or @reboot already done). */
  nextAt: number | null;
  running: boolean;
}

/** Logger of the cron/net worker (message, optional structured extra). */
export type Log = (message: string, extra?: unknown) => void;

/** Runs due `cron.job` rows; drive it with `tick()` (every 250 ms) and `invalidate()` (NOTIFY). */
export class CronScheduler {
  private jobs = new Map<string, JobState>();
  private firstLoad = true;
  private running = new Set<Promise<void>>();
  private lastLoad = 0;
  private dirty = true;
  private closed = false;
  private ticking = false;

  constructor(
    private readonly config: StackConfig,
    private readonly pool: pg.Pool,
    private readonly log: Log,
  ) {}

  /** Marks the job list stale (NOTIFY cron_job_cache_invalidate). */
  invalidate(): void {
    this.dirty = true;
  }

  /** One scheduler step: reload jobs when stale (at least every second), start due jobs. */
  async tick(now = Date.now()): Promise<void> {
    if (this.closed || this.ticking) return;
    this.ticking = true;
    try {
      if (this.dirty || now - this.lastLoad >= 1000) await this.load(now);
      for (const job of this.jobs.values()) {
        if (job.nextAt === null || job.nextAt > now || job.running) continue;
        const scheduledFor = job.nextAt;
        job.nextAt =
          job.schedule?.kind === 'seconds'
            ? Math.max(scheduledFor + job.schedule.seconds * 1000, now + 1)
            : job.schedule
              ? nextRun(job.schedule, Math.max(now, scheduledFor))
              : null;
        this.start(job);
      }
    } catch (err) {
      this.log(`scheduler step failed: ${(err as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private async load(now: number): Promise<void> {
    const { rows } = await this.pool.query<JobRow>(
      `select jobid::text, schedule, command, username, database
         from cron.job where active and database = current_database()`,
    );
    this.dirty = false;
    this.lastLoad = now;
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.jobid);
      const existing = this.jobs.get(row.jobid);
      if (existing && existing.row.schedule === row.schedule) {
        existing.row = row;
        continue;
      }
      const schedule = parseSchedule(row.schedule);
      if (!schedule) this.log(`job ${row.jobid}: cannot parse schedule "${row.schedule}"; not run`);
      let nextAt: number | null = null;
      if (schedule?.kind === 'reboot') nextAt = this.firstLoad ? now : null;
      else if (schedule) nextAt = nextRun(schedule, now);
      this.jobs.set(row.jobid, { row, schedule, nextAt, running: existing?.running ?? false });
    }
    for (const id of [...this.jobs.keys()]) if (!seen.has(id)) this.jobs.delete(id);
    this.firstLoad = false;
  }

  private start(job: JobState): void {
    job.running = true;
    const run = this.runJob(job.row)
      .catch((err: unknown) => this.log(`job ${job.row.jobid} bookkeeping failed: ${(err as Error).message}`))
      .finally(() => {
        job.running = false;
        this.running.delete(run);
      });
    this.running.add(run);
  }

  /** Runs one job in its own session as its username; never throws for a bad command. */
  private async runJob(row: JobRow): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.dbUrl, application_name: 'pg_cron' });
    client.on('error', () => undefined);
    let runid: string | null = null;
    try {
      await client.connect();
      const pid = (client as unknown as { processID?: number }).processID ?? null;
      const inserted = await this.pool.query<{ runid: string }>(
        `insert into cron.job_run_details (jobid, job_pid, database, username, command, status, start_time)
         values ($1, $2, $3, $4, $5, 'running', now()) returning runid::text`,
        [row.jobid, pid, row.database, row.username, row.command],
      );
      runid = inserted.rows[0]!.runid;
      await client.query(`set session authorization ${pg.escapeIdentifier(row.username)}`);
      const result = (await client.query(row.command)) as pg.QueryResult | pg.QueryResult[];
      await this.finish(runid, 'succeeded', commandTag(result));
    } catch (err) {
      const message = (err as Error).message;
      if (runid) await this.finish(runid, 'failed', `ERROR:  ${message}`);
      else this.log(`job ${row.jobid} could not start: ${message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async finish(runid: string, status: 'succeeded' | 'failed', message: string): Promise<void> {
    await this.pool.query(
      `update cron.job_run_details set status = $2, return_message = $3, end_time = now() where runid = $1`,
      [runid, status, message],
    );
  }

  /** Stops scheduling and waits (up to `timeoutMs`) for running jobs. */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, timeoutMs))]);
  }
}

/** pg_cron's return_message: "<n> row(s)" for queries returning rows, else the command tag. */
export function commandTag(result: pg.QueryResult | pg.QueryResult[]): string {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  if (!last) return '';
  if (last.command === 'SELECT' || (last.fields && last.fields.length > 0)) {
    const n = last.rowCount ?? last.rows.length;
    return `${n} row${n === 1 ? '' : 's'}`;
  }
  if (last.command === 'INSERT') return `INSERT 0 ${last.rowCount ?? 0}`;
  if (last.rowCount !== null && last.rowCount !== undefined && ['UPDATE', 'DELETE', 'MERGE', 'COPY', 'FETCH', 'MOVE'].includes(last.command)) {
    return `${last.command} ${last.rowCount}`;
  }
  return last.command ?? '';
}
