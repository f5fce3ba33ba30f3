/**
 * Contract tests of the pg_cron / pg_net emulation (issue 2 item 7), driven with `pg` as a
 * migration or the SQL editor would: cron.schedule / unschedule / alter_job with pg_cron's
 * signatures, jobs running on their schedule as their username with run details recorded,
 * net.http_get / http_post / http_delete queued and executed after commit with responses in
 * net._http_response, and failures (bad command, refused connection, timeout) recorded, not
 * crashing the worker. Also: the API roles may not use cron or net.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, superuserDb, uniqueEmail } from '../../test-support/clients.ts';

const schema = `contract_cron_${randomUUID().slice(0, 8)}`;
let db: pg.Client;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a truthy value; throws after `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(200);
  }
}

interface ResponseRow {
  id: string;
  status_code: number | null;
  content_type: string | null;
  headers: Record<string, string> | null;
  content: string | null;
  timed_out: boolean | null;
  error_msg: string | null;
}

async function responseOf(id: string, timeoutMs = 10_000): Promise<ResponseRow> {
  return eventually(async () => {
    const { rows } = await db.query<ResponseRow>('select id::text, status_code, content_type, headers, content, timed_out, error_msg from net._http_response where id = $1', [id]);
    return rows[0];
  }, timeoutMs);
}

beforeAll(async () => {
  db = await superuserDb();
  await db.query(`create schema ${schema}`);
  await db.query(`create table ${schema}.ticks (id bigserial primary key, job text not null, who text not null default current_user, at timestamptz not null default now())`);
});

afterAll(async () => {
  await db.query(`delete from cron.job where jobname like $1`, [`${schema}%`]);
  await db.query(`drop schema if exists ${schema} cascade`);
  await db.end();
});

describe('pg_cron', () => {
  it("runs a '1 seconds' job repeatedly, records succeeded runs, and stops after unschedule", async () => {
    const name = `${schema}_every_second`;
    const command = `insert into ${schema}.ticks (job) values ('every_second')`;
    const { rows } = await db.query<{ jobid: string }>(`select cron.schedule($1, '1 seconds', $2)::text as jobid`, [name, command]);
    const jobid = rows[0]!.jobid;

    const job = await db.query('select schedule, command, username, database, active, jobname from cron.job where jobid = $1', [jobid]);
    expect(job.rows[0]).toEqual({ schedule: '1 seconds', command, username: 'postgres', database: 'postgres', active: true, jobname: name });

    await eventually(async () => {
      const { rows: c } = await db.query<{ n: number }>(`select count(*)::int as n from ${schema}.ticks where job = 'every_second'`);
      return c[0]!.n >= 2;
    });
    const runs = await db.query(
      `select status, return_message, username, command, start_time <= end_time as ordered from cron.job_run_details where jobid = $1 and status = 'succeeded'`,
      [jobid],
    );
    expect(runs.rows.length).toBeGreaterThanOrEqual(2);
    expect(runs.rows[0]).toEqual({ status: 'succeeded', return_message: 'INSERT 0 1', username: 'postgres', command, ordered: true });

    const un = await db.query<{ ok: boolean }>(`select cron.unschedule($1) as ok`, [name]);
    expect(un.rows[0]!.ok).toBe(true);
    await sleep(1500);
    const before = (await db.query<{ n: number }>(`select count(*)::int as n from ${schema}.ticks where job = 'every_second'`)).rows[0]!.n;
    await sleep(2000);
    const after = (await db.query<{ n: number }>(`select count(*)::int as n from ${schema}.ticks where job = 'every_second'`)).rows[0]!.n;
    expect(after).toBe(before);
    expect((await db.query('select 1 from cron.job where jobid = $1', [jobid])).rowCount).toBe(0);
  }, 30_000);

  it('upserts by job name, unschedules by id, and rejects unknown jobs and invalid schedules like pg_cron', async () => {
    const name = `${schema}_upsert`;
    const a = await db.query<{ id: string }>(`select cron.schedule($1, '*/5 * * * *', 'select 1')::text as id`, [name]);
    const b = await db.query<{ id: string }>(`select cron.schedule($1, '0 3 $ * *', 'select 2')::text as id`, [name]);
    expect(b.rows[0]!.id).toBe(a.rows[0]!.id);
    const row = await db.query('select schedule, command from cron.job where jobid = $1', [a.rows[0]!.id]);
    expect(row.rows[0]).toEqual({ schedule: '0 3 $ * *', command: 'select 2' });

    await db.query(`select cron.alter_job($1, schedule := '@hourly', active := false)`, [a.rows[0]!.id]);
    const altered = await db.query('select schedule, command, active from cron.job where jobid = $1', [a.rows[0]!.id]);
    expect(altered.rows[0]).toEqual({ schedule: '@hourly', command: 'select 2', active: false });

    const unnamed = await db.query<{ id: string }>(`select cron.schedule('0 0 1 1 *', 'select 3')::text as id`);
    expect((await db.query<{ ok: boolean }>('select cron.unschedule($1::bigint) as ok', [unnamed.rows[0]!.id])).rows[0]!.ok).toBe(true);

    await expect(db.query(`select cron.unschedule($1::bigint)`, [unnamed.rows[0]!.id])).rejects.toThrow(/could not find valid entry for job/);
    await expect(db.query(`select cron.unschedule($1::text)`, [`${schema}_nope`])).rejects.toThrow(/could not find valid entry for job/);
    for (const bad of ['every minute', '* * * *', '61 seconds', '0 seconds', '* * * * * *']) {
      await expect(db.query(`select cron.schedule($1, $2, 'select 1')`, [`${schema}_bad`, bad])).rejects.toThrow(/invalid schedule/);
    }
    await db.query(`select cron.unschedule($1::text)`, [name]);
  });

  it('records a failing command as failed with the error, runs jobs as their username, and keeps running others', async () => {
    const bad = `${schema}_bad_command`;
    const asRole = `${schema}_as_service_role`;
    const badId = (await db.query<{ id: string }>(`select cron.schedule($1, '1 seconds', 'select * from no_such_table_here')::text as id`, [bad])).rows[0]!.id;
    await db.query(`grant usage on schema ${schema} to service_role; grant insert on ${schema}.ticks to service_role; grant usage on all sequences in schema ${schema} to service_role`);
    const roleId = (
      await db.query<{ id: string }>(
        `select cron.schedule_in_database($1, '1 seconds', $2, 'postgres', 'service_role')::text as id`,
        [asRole, `insert into ${schema}.ticks (job) values ('as_role')`],
      )
    ).rows[0]!.id;

    const failed = await eventually(async () => {
      const { rows } = await db.query(`select status, return_message from cron.job_run_details where jobid = $1 and status = 'failed' limit 1`, [badId]);
      return rows[0];
    });
    expect(failed).toEqual({ status: 'failed', return_message: expect.stringMatching(/relation "no_such_table_here" does not exist/) as unknown as string });

    const who = await eventually(async () => {
      const { rows } = await db.query<{ who: string }>(`select who from ${schema}.ticks where job = 'as_role' limit 1`);
      return rows[0];
    });
    expect(who.who).toBe('service_role');
    const runUser = await db.query(`select username from cron.job_run_details where jobid = $1 limit 1`, [roleId]);
    expect(runUser.rows[0]).toEqual({ username: 'service_role' });

    await db.query(`select cron.unschedule($1::bigint), cron.unschedule($2::bigint)`, [badId, roleId]);
  }, 20_000);
});

describe('pg_net', () => {
  let silent: http.Server;
  let silentPort: number;
  let closedPort: number;

  beforeAll(async () => {
    // A server that accepts and never answers (timeouts), and a port nobody listens on.
    silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as AddressInfo).port;
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('reports the worker as up', async () => {
    await expect(db.query('select net.check_worker_is_up()')).resolves.toBeTruthy();
  });

  it('http_post to the mailbox (Resend API) records a 200 response and the mail arrives', async () => {
    const to = uniqueEmail('pgnet');
    const { rows } = await db.query<{ id: string }>(
      `select net.http_post(
         url := $1,
         body := jsonb_build_object('from', 'Teamwerk <noreply@teamwerk.de>', 'to', $2::text, 'subject', 'Aus der Datenbank', 'text', 'pg_net'),
         headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || $3::text)
       )::text as id`,
      [`${config.mailboxUrl}/emails`, to, config.resendApiKey],
    );
    const response = await responseOf(rows[0]!.id);
    expect(response.status_code).toBe(200);
    expect(response.content_type).toMatch(/application\/json/);
    expect(response.timed_out).toBe(false);
    expect(response.error_msg).toBeNull();
    const id = (JSON.parse(response.content!) as { id: string }).id;
    expect(response.headers?.['content-type']).toMatch(/application\/json/);

    const inbox = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`)).json()) as { id: string; subject: string }[];
    expect(inbox).toEqual([expect.objectContaining({ id, subject: 'Aus der Datenbank' })]);
  });

  it('http_post to an Edge Function through the gateway records its answer', async () => {
    const { rows } = await db.query<{ id: string }>(
      `select net.http_post(url := $1, headers := jsonb_build_object('Authorization', 'Bearer ' || $2::text)) ::text as id`,
      [`${config.apiUrl}/functions/v1/health`, config.serviceRoleKey],
    );
    const response = await responseOf(rows[0]!.id);
    expect(response.status_code).toBe(200);
    expect(JSON.parse(response.content!)).toMatchObject({ status: 'ok', function: 'health' });
  });

  it('http_get url-encodes params; http_delete is executed too', async () => {
    // A '+' in the address survives only if pg_net-style encoding turns it into %2B.
    const to = `pg+net-${randomUUID().slice(0, 6)}@test.teamwerk.local`;
    const sent = await fetch(`${config.mailboxUrl}/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.resendApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'noreply@teamwerk.de', to, subject: 'encoded', text: 'x' }),
    });
    expect(sent.status).toBe(200);

    const get = await db.query<{ id: string }>(`select net.http_get($1, params := jsonb_build_object('to', $2::text))::text as id`, [
      `${config.mailboxUrl}/api/messages`,
      to,
    ]);
    const got = await responseOf(get.rows[0]!.id);
    expect(got.status_code).toBe(200);
    expect(JSON.parse(got.content!)).toEqual([expect.objectContaining({ subject: 'encoded', to: [to] })]);

    const del = await db.query<{ id: string }>(`select net.http_delete($1, params := jsonb_build_object('to', $2::text))::text as id`, [
      `${config.mailboxUrl}/api/messages`,
      to,
    ]);
    const deleted = await responseOf(del.rows[0]!.id);
    expect(deleted.status_code).toBe(200);
    expect(JSON.parse(deleted.content!)).toEqual({ deleted: 1 });
  });

  it('records a refused connection as an error without a status', async () => {
    const { rows } = await db.query<{ id: string }>(`select net.http_get($1)::text as id`, [`http://127.0.0.1:${closedPort}/`]);
    const response = await responseOf(rows[0]!.id);
    expect(response).toMatchObject({ status_code: null, timed_out: false, error_msg: "Couldn't connect to server" });
  });

  it('records a timeout after timeout_milliseconds', async () => {
    const started = Date.now();
    const { rows } = await db.query<{ id: string }>(`select net.http_get($1, timeout_milliseconds := 300)::text as id`, [`http://127.0.0.1:${silentPort}/`]);
    const response = await responseOf(rows[0]!.id);
    expect(response).toMatchObject({ status_code: null, timed_out: true });
    expect(response.error_msg).toMatch(/Timeout of 300 ms reached/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('sends nothing for a rolled-back transaction', async () => {
    await db.query('begin');
    const { rows } = await db.query<{ id: string }>(`select net.http_get($1)::text as id`, [`${config.apiUrl}/functions/v1/health`]);
    await db.query('rollback');
    await sleep(1500);
    const res = await db.query('select 1 from net._http_response where id = $1', [rows[0]!.id]);
    expect(res.rowCount).toBe(0);
  });

  it('rejects a non-JSON Content-Type for http_post like pg_net', async () => {
    await expect(
      db.query(`select net.http_post('http://127.0.0.1:1/', '{}'::jsonb, headers := '{"Content-Type": "text/plain"}'::jsonb)`),
    ).rejects.toThrow(/Content-Type header must be "application\/json"/);
  });
});

describe('extensions', () => {
  it('accepts create extension pg_cron / pg_net as hosted migrations write it, keeping the objects', async () => {
    await db.query('begin');
    try {
      await db.query('create extension if not exists pg_cron with schema pg_catalog');
      await db.query('create extension if not exists pg_net with schema extensions');
      const { rows } = await db.query(
        `select extname, extnamespace::regnamespace::text as schema from pg_extension where extname in ('pg_cron', 'pg_net') order by extname`,
      );
      expect(rows).toEqual([
        { extname: 'pg_cron', schema: 'pg_catalog' },
        { extname: 'pg_net', schema: 'extensions' },
      ]);
      const id = await db.query(`select cron.schedule($1, '0 0 1 1 *', 'select 1') as id`, [`${schema}_ext`]);
      expect(id.rows[0]).toBeTruthy();
    } finally {
      await db.query('rollback');
    }
  });
});

describe('grants', () => {
  it('denies anon and authenticated the cron and net functions and tables', async () => {
    for (const role of ['anon', 'authenticated']) {
      await db.query('begin');
      try {
        await db.query(`set local role ${role}`);
        await expect(db.query(`select cron.schedule('1 seconds', 'select 1')`)).rejects.toThrow(/permission denied/);
      } finally {
        await db.query('rollback');
      }
      await db.query('begin');
      try {
        await db.query(`set local role ${role}`);
        await expect(db.query(`select net.http_get('http://127.0.0.1:1/')`)).rejects.toThrow(/permission denied/);
      } finally {
        await db.query('rollback');
      }
      await db.query('begin');
      try {
        await db.query(`set local role ${role}`);
        await expect(db.query('select * from net._http_response limit 1')).rejects.toThrow(/permission denied/);
      } finally {
        await db.query('rollback');
      }
    }
  });
});
