/**
 * Property-based fuzzing of every API function (PostgREST RPC) and every Edge Function with
 * generated bad input (issue 12 "The tests that keep it closed"): as an anonymous visitor and as
 * a signed-in stranger without a subscription, no answer is a 5xx, and nothing in the database
 * changes. Runs as its own step of `npm test` (after the contract and database tests), because it
 * compares a fingerprint of the whole database before and after; the pg_cron jobs are paused
 * meanwhile and restored afterwards.
 *
 * Inputs are bad by construction: values of any JSON type under the real parameter names, unknown
 * keys, non-objects, malformed JSON, wrong methods. Strings never contain '@', so no generated
 * value is a deliverable e-mail address (a sign-up or reset would be legitimate, not a defect).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR } from '../../scripts/local-stack/config.ts';
import { config, mintToken } from '../tests/exposure-support.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

let db: pg.Client;
let stranger: { id: string; email: string; token: string };
let pausedJobs: number[] = [];

/** Per table: row count and an order-independent digest of every row (public, auth, storage). */
async function fingerprint(): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and (n.nspname in ('public', 'private') or (n.nspname, c.relname) in
       (('auth', 'users'), ('auth', 'identities'), ('auth', 'refresh_tokens'), ('storage', 'objects'), ('net', 'http_request_queue')))
     order by 1`);
  const out: Record<string, string> = {};
  // rate-limit counters count attempts by design (they are the protection, not a change of data)
  for (const { name } of tables.filter((t) => !/rate_limit|throttle|attempt/.test(t.name))) {
    const { rows } = await db.query<{ n: string; digest: string | null }>(
      `select count(*)::text as n, md5(string_agg(md5(t::text), '' order by md5(t::text))) as digest from ${name} t`);
    out[name] = `${rows[0]!.n}:${rows[0]!.digest ?? ''}`;
  }
  return out;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const { rows: jobs } = await db.query<{ jobid: number }>(`update cron.job set active = false where active returning jobid`);
  pausedJobs = jobs.map((j) => j.jobid);
  await db.query(`notify cron_job_cache_invalidate`);
  const email = `fuzz-stranger-${Date.now().toString(36)}@tests.teamwerk.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', '{"firstname":"Fuzz","lastname":"Stranger"}', now(), now(), '', '', '', '')
     returning id`, [email]);
  stranger = { id: rows[0]!.id, email, token: await mintToken(rows[0]!.id, email) };
  // let a running cron batch finish before the first fingerprint
  await new Promise((r) => setTimeout(r, 1500));
});

afterAll(async () => {
  if (stranger) await db.query(`delete from auth.users where id = $1`, [stranger.id]);
  if (pausedJobs.length) await db.query(`update cron.job set active = true where jobid = any($1::bigint[])`, [pausedJobs]);
  await db.query(`notify cron_job_cache_invalidate`);
  await db?.end();
});

const headersFor = (who: 'anon' | 'stranger'): Record<string, string> => ({
  apikey: config.anonKey,
  Authorization: `Bearer ${who === 'anon' ? config.anonKey : stranger.token}`,
});

/** Any JSON value whose strings hold no '@' (so no generated value is an e-mail address). */
const noAt = fc.string({ maxLength: 40 }).map((s) => s.replaceAll('@', '_'));
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  noAt,
  fc.string({ minLength: 2000, maxLength: 6000 }).map((s) => s.replaceAll('@', '_')),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, -1, 0, 2 ** 53, '', ' ', '0', 'null', "'; drop table profiles; --", '../../etc/passwd', '<script>x</script>',
    '00000000-0000-0000-0000-000000000000', 'not-a-uuid', '2000-13-45', 'javascript:alert(1)', '\u0000', '💥'.repeat(50)),
  fc.array(noAt, { maxLength: 5 }),
  fc.dictionary(noAt, noAt, { maxKeys: 4 }),
);
/** An object with the real parameter names (some left out) plus unknown keys, each with a bad value. */
const badObject = (keys: string[]) =>
  fc.tuple(fc.subarray(keys), fc.dictionary(noAt, badValue, { maxKeys: 3 }), fc.array(badValue, { minLength: keys.length, maxLength: keys.length }))
    .map(([chosen, extra, values]) => ({ ...extra, ...Object.fromEntries(chosen.map((k, i) => [k, values[i]])) }));
/** A request body: a bad object, a non-object JSON value, or text that is not JSON at all. */
const badBody = (keys: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: badObject(keys).map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: badValue.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'null', '', 'x=1&y=2', '{"__proto__": {"admin": true}}') },
  );

interface Answer { status: number; text: string }
let calls = 0;
async function call(url: string, init: RequestInit): Promise<Answer> {
  calls += 1;
  const res = await fetch(url, init);
  return { status: res.status, text: (await res.text()).slice(0, 300) };
}

describe('RPCs of the API schema', () => {
  test('no bad input gives a 5xx or changes the database', async () => {
    const { rows: fns } = await db.query<{ name: string; args: string[] | null; anon: boolean; auth: boolean }>(
      `select p.proname as name, p.proargnames[1:p.pronargs]::text[] as args,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon, has_function_privilege('authenticated', p.oid, 'EXECUTE') as auth
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`);
    const targets = fns.filter((f) => f.anon || f.auth);
    expect(targets.length).toBeGreaterThan(10);
    const before = await fingerprint();
    const failures: string[] = [];
    calls = 0;
    for (const f of targets) {
      for (const who of ['anon', 'stranger'] as const) {
        await fc.assert(
          fc.asyncProperty(badBody(f.args ?? []), async (body) => {
            const a = await call(`${config.apiUrl}/rest/v1/rpc/${f.name}`, {
              method: 'POST', headers: { ...headersFor(who), 'Content-Type': 'application/json' }, body,
            });
            if (a.status >= 500) failures.push(`${f.name} as ${who}: ${a.status} ${a.text} <- ${body.slice(0, 200)}`);
            return a.status < 500;
          }),
          { numRuns: RUNS },
        ).catch(() => undefined);
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(targets.length * 2 * RUNS);
    expect(await fingerprint()).toEqual(before);
  }, 600_000);
});

describe('Edge Functions', () => {
  const functionsDir = path.join(ROOT_DIR, 'supabase/functions');
  const names = fs.readdirSync(functionsDir).filter((d) => !d.startsWith('_') && fs.existsSync(path.join(functionsDir, d, 'index.ts')));
  /** Field names each function reads, from its handler source (so new fields are fuzzed too). */
  const keysOf = (name: string): string[] => {
    const file = path.join(functionsDir, name, 'handler.ts');
    if (!fs.existsSync(file)) return [];
    const src = fs.readFileSync(file, 'utf8');
    return [...new Set([...src.matchAll(/^\s{2}([a-zA-Z_]+): z\./gm)].map((m) => m[1]!))];
  };

  test('every function exists and is fuzzed', () => {
    expect(names.length).toBeGreaterThan(10);
  });

  test('no bad input, method or body gives a 5xx or changes the database', async () => {
    const before = await fingerprint();
    const failures: string[] = [];
    calls = 0;
    for (const name of names) {
      const keys = keysOf(name);
      for (const who of ['anon', 'stranger'] as const) {
        await fc.assert(
          fc.asyncProperty(
            badBody(keys),
            fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'PATCH'),
            fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
            fc.constantFrom('', '/extra/path', '?token=' + 'x'.repeat(20)),
            async (body, method, contentType, suffix) => {
              const a = await call(`${config.apiUrl}/functions/v1/${name}${suffix}`, {
                method,
                headers: { ...headersFor(who), 'Content-Type': contentType, 'Stripe-Signature': 't=1,v1=deadbeef' },
                body: method === 'GET' ? undefined : body,
              });
              if (a.status >= 500) failures.push(`${name} ${method}${suffix} as ${who}: ${a.status} ${a.text} <- ${body.slice(0, 200)}`);
              return a.status < 500;
            },
          ),
          { numRuns: RUNS },
        ).catch(() => undefined);
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(names.length * 2 * RUNS);
    expect(await fingerprint()).toEqual(before);
  }, 600_000);
});
