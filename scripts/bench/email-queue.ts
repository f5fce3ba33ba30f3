/**
 * Benchmark (not part of `npm test`): how many queued mails per second process-email-queue
 * sends to the local mailbox with two concurrent workers (issue 6, target ≥ 200 mails/s).
 *
 * Enqueues `--mails` welcome mails (default 2000, alternating de/en) in one insert, pauses the
 * minute cron job, then keeps two workers busy: each worker calls the deployed function
 * (`POST /functions/v1/process-email-queue` with the service role key) again until the queue
 * is empty. Prints mails/s over the whole drain (first call to last answer; rendering with React
 * Email, Resend API to the mailbox, claim/complete RPCs included) and checks that every row is
 * `sent` exactly once: one mailbox message per row and distinct provider ids.
 *
 * Usage: `npx tsx scripts/bench/email-queue.ts [--mails 2000] [--smoke]` (--smoke, npm test: 20 mails)
 * Uses the stack of TEAMWERK_STACK_OFFSET; starts it when it is not running (and stops it again).
 * Tuning of the function: EMAIL_QUEUE_BATCH_SIZE / EMAIL_QUEUE_CONCURRENCY in
 * supabase/functions/.env.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { stackConfig } from '../local-stack/config.ts';
import { startStack, stopStack } from '../local-stack/cli.ts';
import { numberArg, SMOKE } from './support.ts';

const config = stackConfig();


interface RunResult {
  processed: number;
  sent: number;
  failed: number;
  dead: number;
}

async function callWorker(): Promise<RunResult> {
  const res = await fetch(`${config.apiUrl}/functions/v1/process-email-queue`, {
    method: 'POST',
    headers: {
      apikey: config.serviceRoleKey,
      Authorization: `Bearer ${config.serviceRoleKey}`,
      'Content-Type': 'application/json',
    },
    body: '{}',
  });
  const body = (await res.json()) as RunResult & { error?: unknown };
  if (!res.ok) throw new Error(`process-email-queue ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * One worker: calls the function until a call finds nothing to do. A failed call (e.g. the
 * functions runner restarted mid-batch) is retried; its claimed rows wait for their lock.
 */
async function worker(totals: RunResult, calls: { n: number; errors: number }): Promise<void> {
  for (;;) {
    let r: RunResult;
    try {
      r = await callWorker();
    } catch (err) {
      if (++calls.errors > 20) throw err;
      console.log(`worker call failed (${String(err).slice(0, 120)}); retrying`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    calls.n++;
    totals.processed += r.processed;
    totals.sent += r.sent;
    totals.failed += r.failed;
    totals.dead += r.dead;
    if (r.processed === 0) return;
  }
}

async function main(): Promise<void> {
  const mails = SMOKE ? 20 : numberArg('mails', 2000);
  const { alreadyRunning } = await startStack(config);
  const db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const setCron = (active: boolean) =>
    db.query(`select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'process-email-queue'`, [active]);
  try {
    await setCron(false);
    // Warm-up: loads the function and sends whatever is already due.
    await callWorker();
    const tag = randomUUID().slice(0, 8);
    const inserted = await db.query(
      `insert into public.email_queue (email, email_type, lang, user_metadata)
       select 'bench-' || $1 || '-' || g || '@bench.teamwerk.de', 'welcome_email',
              case when g % 2 = 0 then 'de' else 'en' end,
              jsonb_build_object('firstname', 'Bench' || g, 'lastname', 'Mark')
       from generate_series(1, $2::int) g
       returning id`,
      [tag, mails],
    );
    const ids = inserted.rows.map((r: { id: string }) => r.id);
    console.log(`queued ${ids.length} mails; draining with 2 concurrent workers ...`);

    const totals: RunResult = { processed: 0, sent: 0, failed: 0, dead: 0 };
    const calls = { n: 0, errors: 0 };
    const t0 = performance.now();
    await Promise.all([worker(totals, calls), worker(totals, calls)]);
    const seconds = (performance.now() - t0) / 1000;
    const sentInDrain = totals.sent;

    // Rows of a call that died stay claimed until their lock expires (EMAIL_QUEUE_LOCK_SECONDS,
    // 60 s); then they are re-sent with the same idempotency key. Wait for that and check.
    const unsent = async () =>
      Number((await db.query(`select count(*) from public.email_queue where id = any($1::bigint[]) and status <> 'sent'`, [ids])).rows[0].count);
    if ((await unsent()) > 0) {
      console.log(`${await unsent()} rows were in flight in a call that died; waiting for their lock to expire ...`);
      const end = Date.now() + 120_000;
      while ((await unsent()) > 0 && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 5000));
        await worker(totals, calls);
      }
    }

    const state = await db.query(
      `select status, count(*)::int as n, count(distinct provider_message_id)::int as ids, max(attempts) as max_attempts
       from public.email_queue where id = any($1::bigint[]) group by status`,
      [ids],
    );
    const res = await fetch(`${config.mailboxUrl}/api/messages`);
    const all = (await res.json()) as { to: string[] }[];
    const mine = all.filter((m) => m.to.some((a) => a.startsWith(`bench-${tag}-`)));
    const distinct = new Set(mine.map((m) => m.to[0]));

    const sentRow = state.rows.find((r: { status: string }) => r.status === 'sent') as { n: number; ids: number } | undefined;
    console.log(`function calls: ${calls.n}; totals: ${JSON.stringify(totals)}`);
    console.log(`queue rows by status: ${JSON.stringify(state.rows)}`);
    console.log(`mailbox: ${mine.length} messages for ${distinct.size} distinct recipients`);
    console.log(`throughput: ${(sentInDrain / seconds).toFixed(0)} mails/s (${sentInDrain} mails in ${seconds.toFixed(2)} s, target >= 200/s)`);
    const duplicates = mine.length - distinct.size;
    const ok = sentRow?.n === mails && sentRow.ids === mails && mine.length === mails && duplicates === 0;
    console.log(ok ? 'OK: every mail sent exactly once' : `FAILED: duplicates=${duplicates}, sent rows=${sentRow?.n ?? 0}`);
    if (!ok) process.exitCode = 1;
    // Keep the queue table small for later runs.
    await db.query(`delete from public.email_queue where id = any($1::bigint[])`, [ids]);
  } finally {
    await setCron(true).catch(() => undefined);
    await db.end();
    if (!alreadyRunning) await stopStack(config);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
