/**
 * `health` Edge Function (issue 17): database, e-mail queue and cron in one answer; 503 when
 * something is stuck. Wiring only; the rules live in handler.ts. The report comes from
 * `rpc/health_report` as the service role, with a 5 s timeout (a database that does not answer
 * is "stuck", not a hanging probe). Without a service key every check fails (503).
 */
import { adminClient } from '../_shared/supabase.ts';
import { bearer } from '../_shared/http.ts';
import { env } from '../_shared/env.ts';
import { isServiceKey } from '../_shared/keys.ts';
import { handleHealth, type HealthReport } from './handler.ts';

const REPORT_TIMEOUT_MS = 5000;

async function report(): Promise<HealthReport> {
  const { data, error } = await adminClient().rpc('health_report').abortSignal(AbortSignal.timeout(REPORT_TIMEOUT_MS));
  if (error) throw new Error(error.message || 'health_report failed');
  return data as HealthReport;
}

Deno.serve((request: Request) =>
  handleHealth(request, {
    report,
    isServiceRole: (req) => isServiceKey(bearer(req)),
    queueMaxAgeSeconds: Number.parseInt(env('HEALTH_QUEUE_MAX_AGE_SECONDS', '600'), 10) || 600,
  }),
);
