/**
 * Operations (issue 17): /functions/v1/health on the live stack (database, queue age, cron) and
 * the retention purge (DSGVO: delivered mails after 30 days, used tokens, unconfirmed newsletter
 * invitations, …), through the real Postgres and the real functions runner.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';
import { TestDb } from './support.ts';

const config = stackConfig();
const healthUrl = `${config.apiUrl}/functions/v1/health`;

interface HealthBody {
  status: string;
  checks: {
    database: { ok: boolean; latency_ms?: number };
    queue: { ok: boolean; pending?: number; oldest_due_seconds?: number };
    cron: { ok: boolean; last_success_at: string | null; stuck_jobs?: number; jobs?: { job: string; ok: boolean }[] };
  };
}

async function health(asServiceRole: boolean): Promise<{ status: number; body: HealthBody }> {
  const response = await fetch(healthUrl, asServiceRole ? { headers: { Authorization: `Bearer ${config.serviceRoleKey}` } } : {});
  return { status: response.status, body: (await response.json()) as HealthBody };
}

/** Waits until the current minute has at least `margin` seconds left and `margin` behind it, so the
 * every-minute queue job (which would drain a due mail) does not run in the middle of a check. */
async function awayFromMinuteBoundary(margin = 5): Promise<void> {
  for (;;) {
    const s = new Date().getUTCSeconds();
    if (s >= margin && s <= 60 - 3 * margin) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('/functions/v1/health', () => {
  const admin = new pg.Client({ connectionString: config.dbUrl });
  const marker = `health-${Date.now()}`;
  beforeAll(() => admin.connect());
  afterAll(async () => {
    await admin.query(`delete from public.email_queue where payload ->> 'marker' = $1`, [marker]);
    await admin.end();
  });

  test('a working stack answers 200 ok; anyone gets the statuses, only the service role the numbers and jobs', async () => {
    const anon = await health(false);
    expect(anon.status).toBe(200);
    expect(anon.body.status).toBe('ok');
    expect(anon.body.checks.database).toEqual({ ok: true });
    expect(anon.body.checks.queue).toEqual({ ok: true });
    expect(anon.body.checks.cron).toMatchObject({ ok: true, stuck_jobs: 0 });
    expect(anon.body.checks.cron.jobs).toBeUndefined();

    const service = await health(true);
    expect(service.status).toBe(200);
    expect(typeof service.body.checks.database.latency_ms).toBe('number');
    expect(typeof service.body.checks.queue.pending).toBe('number');
    const jobs = (service.body.checks.cron.jobs ?? []).map((j) => j.job);
    expect(jobs).toEqual(expect.arrayContaining(['process-email-queue', 'purge-retention', 'purge-rate-limits']));
  });

  test('a mail due for 20 minutes makes the queue stuck (503) until it is gone', async () => {
    await awayFromMinuteBoundary();
    await admin.query(
      `insert into public.email_queue (email, email_type, payload, next_attempt_at)
       values ('stuck@tests.teamwerk.test', 'welcome_email', jsonb_build_object('marker', $1::text), now() - interval '20 minutes')`,
      [marker],
    );
    try {
      const stuck = await health(true);
      expect(stuck.status).toBe(503);
      expect(stuck.body.status).toBe('stuck');
      expect(stuck.body.checks.queue.ok).toBe(false);
      expect(stuck.body.checks.queue.oldest_due_seconds).toBeGreaterThanOrEqual(1200);
      expect(stuck.body.checks.database.ok).toBe(true);
    } finally {
      await admin.query(`delete from public.email_queue where payload ->> 'marker' = $1`, [marker]);
    }
    expect((await health(false)).status).toBe(200);
  });

  test('health_report itself is for the service role only', async () => {
    for (const key of [config.anonKey]) {
      const response = await fetch(`${config.apiUrl}/rest/v1/rpc/health_report`, {
        method: 'POST',
        headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
    }
  });
});

describe('retention purge (private.purge_retention, pg_cron daily)', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await TestDb.open();
  });
  afterAll(() => db.close());

  test('deletes each kind after its period and keeps everything younger', async () => {
    const user = await db.user();
    const tag = `purge-${Date.now()}`;
    // e-mail queue: sent 31 / 29 days ago, failed 91 / 89 days ago, pending for 40 days (kept: not delivered)
    await db.sql(
      `insert into public.email_queue (email, email_type, payload, status, sent_at)
       values ('a@tests.teamwerk.test', 'welcome_email', jsonb_build_object('tag', $1::text, 'n', 'sent-old'), 'sent', now() - interval '31 days'),
              ('b@tests.teamwerk.test', 'welcome_email', jsonb_build_object('tag', $1::text, 'n', 'sent-new'), 'sent', now() - interval '29 days'),
              ('c@tests.teamwerk.test', 'welcome_email', jsonb_build_object('tag', $1::text, 'n', 'failed-old'), 'failed', null),
              ('d@tests.teamwerk.test', 'welcome_email', jsonb_build_object('tag', $1::text, 'n', 'failed-new'), 'failed', null),
              ('e@tests.teamwerk.test', 'welcome_email', jsonb_build_object('tag', $1::text, 'n', 'pending-old'), 'pending', null)`,
      [tag],
    );
    // updated_at is set by a trigger on update; the failed rows' age is their last update
    await db.sql(`alter table public.email_queue disable trigger email_queue_updated_at`);
    await db.sql(
      `update public.email_queue set updated_at = now() - case payload ->> 'n' when 'failed-old' then interval '91 days' when 'failed-new' then interval '89 days' else interval '40 days' end,
         created_at = now() - interval '100 days'
       where payload ->> 'tag' = $1 and payload ->> 'n' in ('failed-old', 'failed-new', 'pending-old')`,
      [tag],
    );
    await db.sql(`alter table public.email_queue enable trigger email_queue_updated_at`);
    await db.sql(
      `insert into private.consumed_auth_tokens (nonce, user_id, purpose, expires_at)
       values ($1 || 'old-token-nonce', $2, 'reset', now() - interval '2 days'), ($1 || 'new-token-nonce', $2, 'reset', now() - interval '1 hour')`,
      [tag, user.id],
    );
    await db.sql(
      `insert into public.newsletter_subscribers (email, status, created_at, confirmed_at, unsubscribed_at)
       values ($1 || '-p-old@tests.teamwerk.test', 'pending', now() - interval '31 days', null, null),
              ($1 || '-p-new@tests.teamwerk.test', 'pending', now() - interval '29 days', null, null),
              ($1 || '-u-old@tests.teamwerk.test', 'unsubscribed', now() - interval '90 days', now() - interval '89 days', now() - interval '31 days'),
              ($1 || '-u-new@tests.teamwerk.test', 'unsubscribed', now() - interval '90 days', now() - interval '89 days', now() - interval '2 days'),
              ($1 || '-c-old@tests.teamwerk.test', 'confirmed', now() - interval '400 days', now() - interval '399 days', null)`,
      [tag],
    );

    const [result] = await db.sql<{ purge_retention: Record<string, number> }>(`select private.purge_retention()`);
    const counts = result!.purge_retention;
    expect(counts.email_queue_sent).toBeGreaterThanOrEqual(1);
    expect(counts.email_queue_failed).toBeGreaterThanOrEqual(1);
    expect(counts.consumed_auth_tokens).toBeGreaterThanOrEqual(1);
    expect(counts.newsletter_unconfirmed).toBeGreaterThanOrEqual(1);
    expect(counts.newsletter_unsubscribed).toBeGreaterThanOrEqual(1);

    const queue = await db.sql<{ n: string }>(`select payload ->> 'n' as n from public.email_queue where payload ->> 'tag' = $1 order by 1`, [tag]);
    expect(queue.map((r) => r.n)).toEqual(['failed-new', 'pending-old', 'sent-new']);
    const tokens = await db.sql<{ nonce: string }>(`select nonce from private.consumed_auth_tokens where nonce like $1 || '%'`, [tag]);
    expect(tokens.map((r) => r.nonce)).toEqual([`${tag}new-token-nonce`]);
    const newsletter = await db.sql<{ email: string }>(`select email from public.newsletter_subscribers where email like $1 || '%' order by 1`, [tag]);
    expect(newsletter.map((r) => r.email.slice(tag.length))).toEqual(['-c-old@tests.teamwerk.test', '-p-new@tests.teamwerk.test', '-u-new@tests.teamwerk.test']);
  });

  test('is scheduled daily, and no API role may run it', async () => {
    const [job] = await db.sql<{ schedule: string; active: boolean }>(`select schedule, active from cron.job where jobname = 'purge-retention'`);
    expect(job).toEqual({ schedule: '40 3 * * *', active: true });
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const [row] = await db.sql<{ allowed: boolean }>(`select has_function_privilege($1, 'private.purge_retention()', 'execute') as allowed`, [role]);
      expect(row?.allowed, role).toBe(false);
    }
  });
});

describe('e-mail priority (claim order after an outage)', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await TestDb.open();
  });
  afterAll(() => db.close());

  test('each queued mail takes its kind\'s priority, and claims take account mails first, then by due time', async () => {
    const tag = `prio-${Date.now()}`;
    // everything else due is pushed out of the way inside this transaction
    await db.sql(`update public.email_queue set next_attempt_at = now() + interval '1 day' where status = 'pending'`);
    await db.sql(
      `insert into public.email_queue (email, email_type, payload, next_attempt_at)
       values ('n1@tests.teamwerk.test', 'newsletter_welcome', jsonb_build_object('tag', $1::text), now() - interval '10 minutes'),
              ('c1@tests.teamwerk.test', 'chat_unread', jsonb_build_object('tag', $1::text), now() - interval '9 minutes'),
              ('p1@tests.teamwerk.test', 'password_reset', jsonb_build_object('tag', $1::text), now() - interval '1 minute'),
              ('s1@tests.teamwerk.test', 'subscription_activated', jsonb_build_object('tag', $1::text), now() - interval '5 minutes'),
              ('c2@tests.teamwerk.test', 'chat_unread', jsonb_build_object('tag', $1::text), now() - interval '20 minutes'),
              ('x1@tests.teamwerk.test', 'password_reset', jsonb_build_object('tag', $1::text), now() + interval '1 hour')`,
      [tag],
    );
    const priorities = await db.sql<{ email: string; priority: number }>(`select email, priority from public.email_queue where payload ->> 'tag' = $1 order by email`, [tag]);
    expect(Object.fromEntries(priorities.map((r) => [r.email.split('@')[0], r.priority]))).toEqual({ c1: 5, c2: 5, n1: 7, p1: 0, s1: 1, x1: 0 });
    const claimed = await db.sql<{ email: string }>(`select email from public.claim_email_batch(10, 60)`);
    expect(claimed.map((r) => r.email.split('@')[0])).toEqual(['p1', 's1', 'c2', 'c1', 'n1']);
  });
});
