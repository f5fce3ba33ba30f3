/**
 * The generated column facts (frontend/src/lib/database.checks.ts, issue 30: forms take their
 * limits from the database, not from a copy) say what the database enforces: a text column at its
 * maxLength is accepted and one character more is refused by one of the column's CHECK
 * constraints (23514); a column with `oneOf` accepts each listed value and refuses another.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { config } from '../../scripts/test-support/clients.ts';
import { Checks } from '../../frontend/src/lib/database.checks.ts';
import { readColumnChecks } from '../../scripts/db/column-checks.ts';

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

/**
 * Whether the column's own (single-column) CHECK constraints accept `value`: they are copied onto a
 * one-column temporary table of the column's type, where the value is inserted in a rolled-back
 * transaction (no rows, triggers or other columns of the real table take part).
 */
async function probe(table: string, col: string, value: string): Promise<'accepted' | 'refused'> {
  const { rows } = await db.query<{ type: string; def: string }>(
    `select format_type(a.atttypid, a.atttypmod) as type, pg_get_constraintdef(k.oid) as def
     from pg_constraint k join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
     where k.conrelid = $1::regclass and a.attname = $2 and k.contype = 'c' and cardinality(k.conkey) = 1`,
    [`public.${table}`, col],
  );
  await db.query('begin');
  try {
    await db.query(`create temp table column_probe (${col} ${rows[0]!.type}) on commit drop`);
    for (const [i, r] of rows.entries()) await db.query(`alter table column_probe add constraint c${i} ${r.def}`);
    await db.query(`insert into column_probe values ($1)`, [value]);
    return 'accepted';
  } catch (err) {
    if ((err as { code?: string }).code === '23514') return 'refused';
    throw err;
  } finally {
    await db.query('rollback');
  }
}

/**
 * A value of exactly `n` characters that passes the column's other checks: an e-mail address or an
 * https URL where a constraint asks for one, lowercase letters otherwise (slug and id patterns).
 */
async function valueOfLength(table: string, col: string, n: number): Promise<string> {
  const { rows } = await db.query<{ def: string }>(
    `select pg_get_constraintdef(k.oid) as def from pg_constraint k join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any (k.conkey)
     where k.conrelid = $1::regclass and a.attname = $2 and k.contype = 'c'`,
    [`public.${table}`, col],
  );
  const defs = rows.map((r) => r.def).join(' ');
  if (defs.includes('is_http_url')) return `https://example.org/${'a'.repeat(n - 20)}`;
  if (defs.includes('@')) return `${'a'.repeat(n - 12)}@example.org`;
  return 'a'.repeat(n);
}


describe('database.checks.ts', () => {
  test('is what the migrated database says (npm run gen:types)', async () => {
    expect(JSON.parse(JSON.stringify(Checks))).toEqual(await readColumnChecks(config.dbUrl));
  });

  test('maxLength: the limit is accepted, one character more is a check violation', async () => {
    let probed = 0;
    for (const [table, columns] of Object.entries(Checks)) {
      for (const [col, facts] of Object.entries(columns)) {
        if (!('maxLength' in facts)) continue;
        const atLimit = await valueOfLength(table, col, facts.maxLength);
        const over = await valueOfLength(table, col, facts.maxLength + 1);
        expect([atLimit.length, over.length]).toEqual([facts.maxLength, facts.maxLength + 1]);
        expect(await probe(table, col, atLimit), `${table}.${col} at ${facts.maxLength}`).toBe('accepted');
        expect(await probe(table, col, over), `${table}.${col} at ${facts.maxLength + 1}`).toBe('refused');
        probed += 1;
      }
    }
    expect(probed).toBeGreaterThan(20);
  });

  test('oneOf: each listed value is accepted, another is a check violation', async () => {
    let probed = 0;
    for (const [table, columns] of Object.entries(Checks)) {
      for (const [col, facts] of Object.entries(columns)) {
        if (!('oneOf' in facts)) continue;
        for (const value of facts.oneOf) expect(await probe(table, col, value), `${table}.${col} = ${value}`).toBe('accepted');
        expect(await probe(table, col, 'not-a-listed-value'), `${table}.${col}`).toBe('refused');
        probed += 1;
      }
    }
    expect(probed).toBeGreaterThan(3);
  });
});
