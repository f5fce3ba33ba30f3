/** Deno tests of the `health` handler (run with `deno test supabase/functions`). */
import assert from 'node:assert/strict';
import { handleHealth, judgeCron, occurrencesBetween, type HealthReport } from './handler.ts';

const NOW = new Date('2026-11-25T12:00:30Z');
const at = (iso: string) => new Date(iso);

function report(over: Partial<HealthReport> = {}): HealthReport {
  return {
    checked_at: NOW.toISOString(),
    database_started_at: '2026-11-25T08:00:00Z',
    queue: { pending: 3, oldest_due_seconds: 20, processing_expired: 0, failed_24h: 1 },
    cron: [
      { job: 'process-email-queue', schedule: '* * * * *', active: true, last_success_at: '2026-11-25T12:00:01Z', last_failure_at: null, last_status: 'succeeded' },
      { job: 'purge-retention', schedule: '40 3 * * *', active: true, last_success_at: null, last_failure_at: null, last_status: null },
    ],
    ...over,
  };
}

const service = (req: Request) => req.headers.get('authorization') === 'Bearer service-key';
const get = (auth?: string) => new Request('http://localhost/health', { headers: auth ? { authorization: auth } : {} });

Deno.test('occurrencesBetween counts cron and pg_cron "N seconds" schedules (UTC), capped', () => {
  assert.equal(occurrencesBetween('* * * * *', at('2026-11-25T12:00:00Z'), at('2026-11-25T12:02:30Z')), 2);
  assert.equal(occurrencesBetween('*/5 * * * *', at('2026-11-25T12:00:00Z'), at('2026-11-25T12:04:59Z')), 0);
  assert.equal(occurrencesBetween('40 3 * * *', at('2026-11-24T03:41:00Z'), at('2026-11-25T03:40:00Z')), 1);
  assert.equal(occurrencesBetween('30 seconds', at('2026-11-25T12:00:00Z'), at('2026-11-25T12:01:31Z')), 3);
  assert.equal(occurrencesBetween('* * * * *', at('2026-11-25T00:00:00Z'), at('2026-11-25T12:00:00Z')), 3);
  assert.throws(() => occurrencesBetween('every tuesday', NOW, NOW));
});

Deno.test('all fine: 200 ok; anonymous callers get statuses without numbers or job names', async () => {
  const response = await handleHealth(get(), { report: () => Promise.resolve(report()), isServiceRole: service, now: () => NOW });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const body = await response.json();
  assert.deepEqual(body, {
    status: 'ok',
    function: 'health',
    time: NOW.toISOString(),
    checks: { database: { ok: true }, queue: { ok: true }, cron: { ok: true, last_success_at: '2026-11-25T12:00:01Z', stuck_jobs: 0 } },
  });
});

Deno.test('the service role sees queue numbers and each job', async () => {
  const response = await handleHealth(get('Bearer service-key'), { report: () => Promise.resolve(report()), isServiceRole: service, now: () => NOW });
  const body = await response.json();
  assert.equal(body.checks.queue.pending, 3);
  assert.equal(body.checks.queue.max_age_seconds, 600);
  assert.equal(typeof body.checks.database.latency_ms, 'number');
  assert.deepEqual(body.checks.cron.jobs.map((j: { job: string; missed_runs: number }) => [j.job, j.missed_runs]), [['process-email-queue', 0], ['purge-retention', 0]]);
});

Deno.test('a queue whose oldest due mail waits too long, or a claim left expired, is stuck: 503', async () => {
  for (const queue of [
    { pending: 9, oldest_due_seconds: 601, processing_expired: 0, failed_24h: 0 },
    { pending: 0, oldest_due_seconds: 0, processing_expired: 2, failed_24h: 0 },
  ]) {
    const response = await handleHealth(get(), { report: () => Promise.resolve(report({ queue })), now: () => NOW });
    assert.equal(response.status, 503);
    const body = await response.json();
    assert.equal(body.status, 'stuck');
    assert.deepEqual([body.checks.queue.ok, body.checks.cron.ok, body.checks.database.ok], [false, true, true]);
  }
  const relaxed = await handleHealth(get(), { report: () => Promise.resolve(report({ queue: { pending: 9, oldest_due_seconds: 601, processing_expired: 0, failed_24h: 0 } })), now: () => NOW, queueMaxAgeSeconds: 900 });
  assert.equal(relaxed.status, 200);
});

Deno.test('a job that missed two runs is stuck; one late run is not; inactive jobs and a fresh database are fine', () => {
  const base = report();
  const job = (over: Partial<HealthReport['cron'][number]>) => ({ ...base.cron[0]!, ...over });
  const verdict = (cron: HealthReport['cron'], started = base.database_started_at) => judgeCron({ ...base, cron, database_started_at: started }, NOW).map((j) => j.ok);
  // every minute, now 12:00:30, 120 s of grace: last success 11:56:01 misses 11:57 and 11:58
  assert.deepEqual(verdict([job({ last_success_at: '2026-11-25T11:56:01Z' })]), [false]);
  // last success 11:57:01: only 11:58 is missed (11:59 and 12:00 may still be running), not stuck
  assert.deepEqual(verdict([job({ last_success_at: '2026-11-25T11:57:01Z' })]), [true]);
  // failing since the morning: judged from its last success
  assert.deepEqual(verdict([job({ last_success_at: '2026-11-25T09:00:05Z', last_status: 'failed' })]), [false]);
  assert.deepEqual(verdict([job({ last_success_at: null, active: false })]), [true]);
  // never ran, but the database started 3.5 minutes ago: judged from the start, one run missed
  assert.deepEqual(verdict([job({ last_success_at: null })], '2026-11-25T11:57:00Z'), [true]);
  assert.deepEqual(verdict([job({ last_success_at: null })], '2026-11-25T11:50:00Z'), [false]);
  assert.deepEqual(verdict([job({ schedule: 'not a schedule', last_success_at: null })], '2026-11-25T11:50:00Z'), [true]);
});

Deno.test('an unreachable database answers 503 with every check failed; the error only for the service role', async () => {
  const report = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:54322'));
  const anon = await (await handleHealth(get(), { report, isServiceRole: service, now: () => NOW })).json();
  assert.deepEqual(anon.checks, { database: { ok: false }, queue: { ok: false }, cron: { ok: false } });
  const response = await handleHealth(get('Bearer service-key'), { report, isServiceRole: service, now: () => NOW });
  assert.equal(response.status, 503);
  assert.match((await response.json()).checks.database.error, /ECONNREFUSED/);
});

Deno.test('health answers a CORS preflight without a body, GET and POST, nothing else', async () => {
  const deps = { report: () => Promise.resolve(report()), now: () => NOW };
  const preflight = await handleHealth(new Request('http://localhost/health', { method: 'OPTIONS' }), deps);
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  assert.equal(await preflight.text(), '');
  assert.equal((await handleHealth(new Request('http://localhost/health', { method: 'POST' }), deps)).status, 200);
  assert.equal((await handleHealth(new Request('http://localhost/health', { method: 'DELETE' }), deps)).status, 405);
});

Deno.test('a missing Vault secret of the function-calling cron jobs is stuck: 503, named for the service role (issue 29 §4)', async () => {
  const missing = report({ cron_secrets: { project_url: true, service_role_key: false } });
  const anonymous = await handleHealth(get(), { report: () => Promise.resolve(missing), isServiceRole: service, now: () => NOW });
  assert.equal(anonymous.status, 503);
  assert.equal((await anonymous.json()).checks.cron.ok, false);
  const detailed = await (await handleHealth(get('Bearer service-key'), { report: () => Promise.resolve(missing), isServiceRole: service, now: () => NOW })).json();
  assert.deepEqual(detailed.checks.cron.missing_secrets, ['service_role_key']);
  const present = await handleHealth(get(), { report: () => Promise.resolve(report({ cron_secrets: { project_url: true, service_role_key: true } })), now: () => NOW });
  assert.equal(present.status, 200);
});
