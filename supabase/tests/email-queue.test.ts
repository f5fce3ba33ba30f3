/**
 * claim_email_batch under concurrency (issue 6: "concurrent workers never sending a row
 * twice"): two workers claiming at the same time on separate connections never get the same
 * row. Rows are committed (other connections must see them) and removed afterwards.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import pg from 'pg';
import { stackConfig } from '../../scripts/local-stack/config.ts';

const config = stackConfig();
const admin = new pg.Client({ connectionString: config.dbUrl });
const marker = `claim-${Date.now()}`;

beforeAll(async () => {
  await admin.connect();
  await admin.query(
    `insert into public.email_queue (email, email_type, payload)
     select 'w' || g || '@tests.teamwerk.test', 'welcome_email', jsonb_build_object('marker', $1::text)
     from generate_series(1, 40) g`, [marker]);
});
afterAll(async () => {
  await admin.query(`delete from public.email_queue where payload ->> 'marker' = $1`, [marker]);
  await admin.end();
});

/** A worker: own connection, service_role, claims inside an open transaction. */
async function worker(): Promise<{ client: pg.Client; claim: (n: number) => Promise<string[]> }> {
  const client = new pg.Client({ connectionString: config.dbUrl });
  await client.connect();
  await client.query(`begin; set local role service_role; select set_config('request.jwt.claims', '{"role":"service_role"}', true)`);
  return {
    client,
    claim: async (n) => (await client.query(`select id from public.claim_email_batch($1, 60)`, [n])).rows.map((r) => String(r.id)),
  };
}

test('two concurrent claimers never get the same row, and a committed claim is not handed out again', async () => {
  const [a, b] = await Promise.all([worker(), worker()]);
  try {
    const [ra, rb] = await Promise.all([a.claim(15), b.claim(15)]);
    expect(ra.length).toBeGreaterThan(0);
    expect(rb.length).toBeGreaterThan(0);
    expect(ra.filter((id) => rb.includes(id))).toEqual([]);
    await a.client.query('commit');
    const c = await worker();
    try {
      const rc = await c.claim(100);
      expect(rc.filter((id) => ra.includes(id) || rb.includes(id))).toEqual([]);
    } finally {
      await c.client.query('rollback');
      await c.client.end();
    }
    const states = await admin.query(`select status, count(*)::int as n from public.email_queue where id = any($1::bigint[]) group by 1`, [ra]);
    expect(states.rows).toEqual([{ status: 'processing', n: ra.length }]);
  } finally {
    await b.client.query('rollback').catch(() => undefined);
    await a.client.end();
    await b.client.end();
  }
});

test('a claim whose lock expired (worker died) is handed out again with attempts + 1', async () => {
  const w = await worker();
  try {
    // the expired lock is written in the claimer's own transaction (committed, the stack's queue
    // worker could claim the row first), first in claim order (other files may leave more due
    // mails than one batch)
    await w.client.query('reset role');
    const { rows } = await w.client.query<{ id: string }>(
      `update public.email_queue set status = 'processing', attempts = 1, locked_until = now() - interval '1 second',
         priority = 0, next_attempt_at = now() - interval '1 day'
       where id = (select id from public.email_queue where payload ->> 'marker' = $1 order by id desc limit 1) returning id`, [marker]);
    await w.client.query('set local role service_role');
    const claimed = await w.client.query(`select id, attempts from public.claim_email_batch(1000, 60) where id = $1`, [rows[0]!.id]);
    expect(claimed.rows).toEqual([{ id: rows[0]!.id, attempts: 2 }]);
  } finally {
    await w.client.query('rollback');
    await w.client.end();
  }
});
