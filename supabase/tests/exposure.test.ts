/**
 * Column-level exposure matrix (issue 12 finding 1, "The tests that keep it closed").
 *
 * 1. The catalogue: every table, view and function of the API schema is declared in
 *    supabase/exposure.ts with its columns, and the column privileges of anon and authenticated
 *    are exactly the declared ones (an undeclared table, column or function fails). Personal
 *    columns are never readable where other people's rows are visible.
 * 2. Through PostgREST as each role (anon, signed-in stranger, accepted contact, blocked user,
 *    owner, admin, service_role): the columns each can read of every relation equal the declared
 *    list, every function answers to exactly the declared roles, and the owner's private values
 *    (e-mail, street, house number, zipcode, Stripe customer id, role) reach only the owner, admins
 *    and the service role, whichever path they take.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { functions, relations, type ApiRole } from '../exposure.ts';
import {
  MATRIX_ROLES, config, createFixtures, isPrivilegeDenied, pool, rest, type Fixtures, type MatrixRole,
} from './exposure-support.ts';

let db: pg.Client;
let fx: Fixtures;

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  fx = await createFixtures();
});
afterAll(async () => {
  await fx?.close();
  await db?.end();
});

const sorted = (xs: Iterable<string>) => [...xs].sort();
/**
 * Tables the local stack's own contract tests create and drop while they run (scripts/local-stack
 * tests: `test_*`, `rt_test_*`), possibly in parallel with this file; not part of the product.
 */
const STACK_TEST_FIXTURE = `c.relname !~ '^(test_|rt_test_)'`;
/** Trigger functions those stack tests create for their fixtures (`rt_test_*_notify`, `fail_at_commit_*`, `test_*`). */
const STACK_TEST_FUNCTION = `p.proname !~ '^(test_|rt_test_|fail_at_commit_)'`;
const API_ROLES: ApiRole[] = ['anon', 'authenticated'];

describe('catalogue = declaration (supabase/exposure.ts)', () => {
  test('every table and view of the API schema is declared, with exactly its columns', async () => {
    const { rows } = await db.query<{ relname: string; relkind: string; columns: string[] }>(
      `select c.relname, c.relkind::text, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p') and ${STACK_TEST_FIXTURE}
       group by c.relname, c.relkind`,
    );
    expect(sorted(rows.map((r) => r.relname))).toEqual(sorted(Object.keys(relations)));
    for (const r of rows) {
      const declared = relations[r.relname]!;
      expect({ relation: r.relname, columns: sorted(r.columns) }).toEqual({ relation: r.relname, columns: sorted(declared.columns) });
      expect({ relation: r.relname, kind: r.relkind === 'v' ? 'view' : 'table' }).toEqual({ relation: r.relname, kind: declared.kind });
    }
  });

  test('column privileges of anon and authenticated are exactly the declared ones', async () => {
    const { rows } = await db.query<{ relname: string; role: string; priv: string; columns: string[] | null }>(
      `select c.relname, r.role, p.priv,
              array_agg(a.attname::text order by a.attnum) filter (where has_column_privilege(r.role, c.oid, a.attnum, p.priv)) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       cross join (values ('anon'), ('authenticated')) r(role)
       cross join (values ('SELECT'), ('INSERT'), ('UPDATE')) p(priv)
       where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p') and ${STACK_TEST_FIXTURE}
       group by c.relname, r.role, p.priv`,
    );
    const mismatches: string[] = [];
    for (const r of rows) {
      const d = relations[r.relname];
      if (!d) continue; // reported by the test above
      const key = r.priv === 'SELECT' ? 'select' : r.priv === 'INSERT' ? 'insert' : 'update';
      const want = sorted(d[key]?.[r.role as ApiRole] ?? []);
      const got = sorted(r.columns ?? []);
      if (JSON.stringify(want) !== JSON.stringify(got)) {
        mismatches.push(`${r.relname} ${r.role} ${r.priv}: declared [${want.join(', ')}], database [${got.join(', ')}]`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  test('DELETE only where declared; no TRUNCATE, REFERENCES or TRIGGER for API roles', async () => {
    const { rows } = await db.query<{ relname: string; role: string; del: boolean; other: boolean }>(
      `select c.relname, r.role, has_table_privilege(r.role, c.oid, 'DELETE') as del,
              has_table_privilege(r.role, c.oid, 'TRUNCATE') or has_table_privilege(r.role, c.oid, 'REFERENCES')
                or has_table_privilege(r.role, c.oid, 'TRIGGER') as other
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join (values ('anon'), ('authenticated')) r(role)
       where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p') and ${STACK_TEST_FIXTURE}`,
    );
    const wrong = rows.filter((r) => relations[r.relname] && (r.other || r.del !== (relations[r.relname]!.delete ?? []).includes(r.role as ApiRole)));
    expect(wrong.map((r) => `${r.relname} ${r.role} delete=${r.del} other=${r.other}`)).toEqual([]);
  });

  test('personal columns are never readable where other people\'s rows are visible', () => {
    const leaks: string[] = [];
    for (const [name, d] of Object.entries(relations)) {
      for (const col of d.personal ?? []) {
        expect(d.columns, `${name}.${col} is declared personal but is not a column`).toContain(col);
        if (d.select.anon?.includes(col)) leaks.push(`${name}.${col} readable by anon`);
        if ((d.rows === 'public' || d.rows === 'participants') && d.select.authenticated?.includes(col)) {
          leaks.push(`${name}.${col} readable by authenticated on ${d.rows} rows`);
        }
      }
    }
    for (const [name, f] of Object.entries(functions)) {
      if (f.personal?.length && (f.rows === 'public' || f.rows === 'participants')) leaks.push(`${name} returns personal data on ${f.rows} rows`);
      if (f.personal?.length && f.execute.includes('anon')) leaks.push(`${name} returns personal data to anon`);
    }
    expect(leaks).toEqual([]);
  });

  test('every function of the API schema is declared: who may execute it and what it returns', async () => {
    const { rows } = await db.query<{ sig: string; result: string; out: string[] | null; anon: boolean; auth: boolean }>(
      `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as sig,
              pg_get_function_result(p.oid) as result,
              (select array_agg(p.proargnames[i]::text order by i) from generate_subscripts(p.proargmodes, 1) i
               where p.proargmodes[i] in ('t', 'o', 'b')) as out,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as auth
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and ${STACK_TEST_FUNCTION}`,
    );
    expect(sorted(rows.map((r) => r.sig))).toEqual(sorted(Object.keys(functions)));
    const wrong: string[] = [];
    for (const r of rows) {
      const d = functions[r.sig];
      if (!d) continue;
      const execute = API_ROLES.filter((role) => (role === 'anon' ? r.anon : r.auth));
      if (JSON.stringify(execute) !== JSON.stringify(API_ROLES.filter((x) => d.execute.includes(x)))) {
        wrong.push(`${r.sig}: execute [${execute.join(', ')}], declared [${d.execute.join(', ')}]`);
      }
      const returns = r.out ? sorted(r.out) : r.result;
      const declared = typeof d.returns === 'string' ? d.returns : sorted(d.returns);
      if (JSON.stringify(returns) !== JSON.stringify(declared)) wrong.push(`${r.sig}: returns ${JSON.stringify(returns)}, declared ${JSON.stringify(declared)}`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Arguments for calling an API function by its parameter types (random ids, short texts, zero,
 * the first enum label): enough for PostgREST to resolve it and for the function to answer with
 * a business error at most. The point is who gets in, not what it does.
 */
async function sampleArgs(): Promise<Map<string, Record<string, unknown>>> {
  const { rows } = await db.query<{ sig: string; names: string[] | null; types: string[] | null; labels: (string | null)[] | null }>(
    `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as sig,
            p.proargnames[1:p.pronargs]::text[] as names,
            (select array_agg(format_type(t, null) order by i) from unnest(p.proargtypes) with ordinality u(t, i)) as types,
            (select array_agg((select e.enumlabel::text from pg_enum e where e.enumtypid = t order by e.enumsortorder limit 1) order by i)
             from unnest(p.proargtypes) with ordinality u(t, i)) as labels
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
  );
  const value = (type: string, label: string | null): unknown => {
    if (label) return label;
    if (type.endsWith('[]')) return [];
    if (type === 'uuid') return randomUUID();
    if (/^(integer|bigint|smallint|numeric)$/.test(type)) return 1;
    if (type === 'boolean') return false;
    if (type === 'date') return '2000-01-01';
    if (type.startsWith('timestamp')) return '2000-01-01T00:00:00Z';
    if (type === 'jsonb' || type === 'json') return {};
    return 'exposure-test';
  };
  return new Map(rows.map((r) => [r.sig, Object.fromEntries((r.names ?? []).map((n, i) => [n, value(r.types![i]!, r.labels![i] ?? null)]))]));
}

describe('what each role gets through PostgREST', () => {
  test('readable columns of every relation, per role, equal the declaration', async () => {
    const cells = Object.entries(relations).flatMap(([rel, d]) =>
      MATRIX_ROLES.flatMap((role) => d.columns.map((col) => ({ rel, d, role, col }))));
    const answers = await pool(cells.map((c) => () => rest(`${c.rel}?select=${c.col}&limit=1`, fx.headers(c.role))), 12);
    const readable = new Map<string, string[]>();
    const unexpected: string[] = [];
    cells.forEach((c, i) => {
      const a = answers[i]!;
      const key = `${c.rel} ${c.role}`;
      if (!readable.has(key)) readable.set(key, []);
      if (a.status === 200) readable.get(key)!.push(c.col);
      else if (!isPrivilegeDenied(a)) unexpected.push(`${key} ${c.col}: ${a.status} ${a.code} ${a.message}`);
    });
    expect(unexpected).toEqual([]);
    const wrong: string[] = [];
    for (const [rel, d] of Object.entries(relations)) {
      for (const role of MATRIX_ROLES) {
        const want = role === 'service_role' ? d.columns : role === 'anon' ? (d.select.anon ?? []) : (d.select.authenticated ?? []);
        const got = readable.get(`${rel} ${role}`) ?? [];
        if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want))) {
          wrong.push(`${rel} as ${role}: reads [${sorted(got).join(', ')}], declared [${sorted(want).join(', ')}]`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test('every API function answers to exactly the declared roles', async () => {
    const samples = await sampleArgs();
    const wrong: string[] = [];
    for (const [sig, d] of Object.entries(functions)) {
      const name = sig.slice(0, sig.indexOf('('));
      for (const role of MATRIX_ROLES) {
        // service-only functions change state (queue, ledger, subscriptions): their function tests cover the service role
        if (role === 'service_role' && d.execute.length === 0) continue;
        const a = await rest(`rpc/${name}`, fx.headers(role), samples.get(sig) ?? {});
        const allowed = role === 'service_role' ? d.serviceRole !== false : d.execute.includes(role === 'anon' ? 'anon' : 'authenticated');
        const refused = isPrivilegeDenied(a) && /function/i.test(a.message ?? '');
        if (allowed === refused) wrong.push(`${name} as ${role}: ${a.status} ${a.code ?? ''} ${a.message ?? ''}`);
        expect(a.status, `${name} as ${role}: ${JSON.stringify(a.body)}`).toBeLessThan(500);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  test('the owner\'s private values reach only the owner, admins and the service role, on every path', async () => {
    const secretValues = Object.values(fx.secrets);
    const paths = [
      `profiles?id=eq.${fx.owner.id}&select=${relations.profiles!.select.anon!.join(',')}`,
      `public_profiles?id=eq.${fx.owner.id}`,
      `visible_profiles?id=eq.${fx.owner.id}`,
    ];
    const found = new Map<MatrixRole, Set<string>>();
    for (const role of MATRIX_ROLES) {
      const seen = new Set<string>();
      const texts: string[] = [];
      for (const p of paths) texts.push(JSON.stringify((await rest(p, fx.headers(role))).body));
      texts.push(JSON.stringify((await rest('rpc/my_profile', fx.headers(role), {})).body));
      texts.push(JSON.stringify((await rest('rpc/admin_list_users', fx.headers(role), { p_search: fx.owner.email })).body));
      texts.push(JSON.stringify((await rest('rpc/search', fx.headers(role), { q: 'Exposure matrix owner' })).body));
      if (role === 'service_role') texts.push(JSON.stringify((await rest(`profiles?id=eq.${fx.owner.id}&select=*`, fx.headers(role))).body));
      for (const v of secretValues) if (texts.some((t) => t.includes(v))) seen.add(v);
      found.set(role, seen);
    }
    for (const role of ['anon', 'stranger', 'contact', 'blocked'] as const) {
      expect({ role, leaked: [...found.get(role)!] }).toEqual({ role, leaked: [] });
    }
    for (const role of ['owner', 'service_role'] as const) {
      expect({ role, values: sorted(found.get(role)!) }).toEqual({ role, values: sorted(secretValues) });
    }
    // admins see e-mail (and role/state) in the user list; address and Stripe id stay in the owner's record
    expect(found.get('admin')!.has(fx.secrets.email)).toBe(true);
    // the role of the owner (premium) is part of what only owner/admin/service_role may learn
    const roleOf = async (role: MatrixRole) => JSON.stringify((await rest(`rpc/my_profile?select=id,user_role`, fx.headers(role), {})).body);
    expect(await roleOf('owner')).toContain('premium');
    expect(await roleOf('stranger')).not.toContain(fx.owner.id);
  });
});

describe('documented errors answer with their HTTP status (finding 11), through PostgREST', () => {
  test('start_direct_conversation: own id 400, unknown id 404, a free caller 402; never 500', async () => {
    const own = await rest('rpc/start_direct_conversation', fx.headers('owner'), { p_other_user_id: fx.owner.id });
    expect([own.status, own.message]).toEqual([400, 'cannot_message_self']);
    const unknown = await rest('rpc/start_direct_conversation', fx.headers('owner'), { p_other_user_id: '00000000-0000-4000-8000-00000000beef' });
    expect([unknown.status, unknown.message]).toEqual([404, 'user_not_found']);
    const bad = await rest('rpc/start_direct_conversation', fx.headers('owner'), { p_other_user_id: 'not-a-uuid' });
    expect(bad.status).toBe(400);
  });

  test('a free caller gets 402 for a payment-required write', async () => {
    await db.query(`delete from public.subscriptions where user_id = $1`, [fx.blocked.id]);
    await db.query(`update public.profiles set user_role = 'free' where id = $1`, [fx.blocked.id]);
    const refused = await rest('rpc/start_direct_conversation', fx.headers('blocked'), { p_other_user_id: fx.stranger.id });
    expect([refused.status, refused.message]).toEqual([402, 'payment_required']);
  });
});
