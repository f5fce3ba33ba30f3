/**
 * Request handler of the `health` Edge Function (issue 17 "Operations"): is the product working,
 * not only the functions runtime? Free of Deno globals so it can be tested with a fixed clock and
 * a fake report source (handler_test.ts); index.ts wires it to `rpc/health_report`.
 *
 * GET (or POST, as supabase-js `functions.invoke` sends) /functions/v1/health →
 *   200 `{ status: 'ok', function: 'health', time, checks }` or 503 with `status: 'stuck'`, where `checks`
 *   holds `database`, `queue` and `cron`, each `{ ok: boolean, … }`:
 *   - database: the report query answered (`latency_ms`); unreachable → not ok;
 *   - queue: the oldest due mail waits at most `queueMaxAgeSeconds` (default 600 s; the queue is
 *     drained every minute) and no claim expired more than 5 minutes ago (a worker died and none
 *     reclaimed it);
 *   - cron: no active job missed two of its scheduled runs in a row (counted from its last
 *     successful run, or from the database start when it never ran), with 120 s of grace for a
 *     run in progress, and the Vault secrets the jobs that call functions need (`project_url`,
 *     `service_role_key`) exist (without them those jobs fail at once; issue 29 §4).
 *     `last_success_at` is the newest successful run of any job.
 *   Anyone (monitors, the stack's status) gets the statuses; only the service role (its key as
 *   bearer) also gets the numbers and the per-job details, which name internal jobs.
 * OPTIONS → 204 with CORS headers. Never throws. Deployed with `verify_jwt = false`.
 */
import { CronExpressionParser } from 'cron-parser';

/** CORS headers for browser callers (supabase-js sends authorization, apikey, x-client-info). */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

/** The answer of `rpc/health_report` (supabase/schemas/21_operations.sql). */
export interface HealthReport {
  checked_at: string;
  database_started_at: string;
  /** Which of the Vault secrets of the function-calling cron jobs exist (name → present). */
  cron_secrets?: Record<string, boolean>;
  queue: { pending: number; oldest_due_seconds: number; processing_expired: number; failed_24h: number };
  cron: { job: string | null; schedule: string; active: boolean; last_success_at: string | null; last_failure_at: string | null; last_status: string | null }[];
}

/** Dependencies: the report source (throws when the database is unreachable), clock, limits. */
export interface HealthDeps {
  report: () => Promise<HealthReport>;
  /** true when the request carries the service role key (details are shown) */
  isServiceRole?: (request: Request) => boolean;
  now?: () => Date;
  /** oldest due mail allowed to wait this long (seconds); default 600 */
  queueMaxAgeSeconds?: number;
}

/** Grace for a run that is due but still in progress (seconds). */
const CRON_GRACE_SECONDS = 120;

/** One cron job's verdict. */
export interface CronJobHealth {
  job: string | null;
  schedule: string;
  ok: boolean;
  last_success_at: string | null;
  /** scheduled runs since the last success (or the database start) that did not succeed */
  missed_runs: number;
}

/**
 * Scheduled times of `schedule` after `from` and up to `until` (at most `limit`), for 5-field
 * cron expressions (UTC, like pg_cron) and pg_cron's `'N seconds'`.
 * Errors: throws on a schedule neither form parses.
 */
export function occurrencesBetween(schedule: string, from: Date, until: Date, limit = 3): number {
  const seconds = /^\s*(\d+)\s+seconds?\s*$/i.exec(schedule);
  if (seconds) {
    const step = Number(seconds[1]) * 1000;
    return step > 0 ? Math.min(limit, Math.max(0, Math.floor((until.getTime() - from.getTime()) / step))) : 0;
  }
  const expression = CronExpressionParser.parse(schedule, { currentDate: from, endDate: until, tz: 'UTC' });
  let n = 0;
  while (n < limit && expression.hasNext()) {
    expression.next();
    n += 1;
  }
  return n;
}

/** Judges every active job of the report at time `now` (inactive jobs are always ok). */
export function judgeCron(report: HealthReport, now: Date): CronJobHealth[] {
  const started = new Date(report.database_started_at);
  const until = new Date(now.getTime() - CRON_GRACE_SECONDS * 1000);
  return report.cron.map((job) => {
    const lastSuccess = job.last_success_at ? new Date(job.last_success_at) : null;
    const from = lastSuccess && lastSuccess > started ? lastSuccess : started;
    let missed = 0;
    if (job.active && until > from) {
      try {
        missed = occurrencesBetween(job.schedule, from, until);
      } catch {
        missed = 0; // a schedule we cannot read is pg_cron's business, not a stuck job
      }
    }
    return { job: job.job, schedule: job.schedule, ok: missed < 2, last_success_at: job.last_success_at, missed_runs: missed };
  });
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

/** Answers a health request; never throws. */
export async function handleHealth(request: Request, deps: HealthDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (!['GET', 'HEAD', 'POST'].includes(request.method)) return json({ error: 'method_not_allowed' }, 405);
  const now = (deps.now ?? (() => new Date()))();
  const details = deps.isServiceRole?.(request) ?? false;
  const maxAge = deps.queueMaxAgeSeconds ?? 600;
  const started = performance.now();
  let report: HealthReport;
  try {
    report = await deps.report();
  } catch (err) {
    const checks = {
      database: { ok: false, ...(details ? { error: err instanceof Error ? err.message : String(err) } : {}) },
      queue: { ok: false },
      cron: { ok: false },
    };
    return json({ status: 'stuck', function: 'health', time: now.toISOString(), checks }, 503);
  }
  const latency = Math.round(performance.now() - started);
  const queueOk = report.queue.oldest_due_seconds <= maxAge && report.queue.processing_expired === 0;
  const jobs = judgeCron(report, now);
  const missingSecrets = Object.entries(report.cron_secrets ?? {}).filter(([, present]) => !present).map(([name]) => name);
  const cronOk = jobs.every((j) => j.ok) && missingSecrets.length === 0;
  const lastSuccess = jobs.map((j) => j.last_success_at).filter((t): t is string => t !== null).sort().at(-1) ?? null;
  const checks = {
    database: { ok: true, ...(details ? { latency_ms: latency } : {}) },
    queue: { ok: queueOk, ...(details ? { ...report.queue, max_age_seconds: maxAge } : {}) },
    cron: {
      ok: cronOk,
      last_success_at: lastSuccess,
      ...(missingSecrets.length ? { missing_secrets: missingSecrets } : {}),
      ...(details ? { jobs } : { stuck_jobs: jobs.filter((j) => !j.ok).length }),
    },
  };
  const ok = queueOk && cronOk;
  return json({ status: ok ? 'ok' : 'stuck', function: 'health', time: now.toISOString(), checks }, ok ? 200 : 503);
}
