/**
 * Reads the column facts that CHECK constraints of the `public` tables state (lengths, list sizes,
 * allowed values, numeric bounds) from the database catalog and renders them as a TypeScript module,
 * `frontend/src/lib/database.checks.ts`, generated beside `database.types.ts` by
 * `scripts/gen-types.ts` (issue 30: a fact the database decides reaches the SPA from the database,
 * not from a copy). Forms validate with these numbers before sending; the constraints stay the
 * authority.
 *
 * Only single-column constraints are read, and only these shapes (as `pg_get_constraintdef`
 * prints them), alone or joined by AND, optionally behind `(col IS NULL) OR`:
 * `char_length(col) <=|>= n` and `char_length(btrim(col)) …` (then `trimmed: true`),
 * `cardinality(col) <=|>= n` (and `jsonb_array_length`), `col = ANY (ARRAY['a'::text, …])`, `col <@ ARRAY['a'::text, …]`, and
 * `col >=|<=|>|< n` for numbers. Anything else in a constraint (regular expressions, function
 * calls, ORs) is left out of the module; the constraint still holds.
 */
import pg from 'pg';

/** What the CHECK constraints say about one column; every field optional. */
export interface ColumnCheck {
  /** Characters (char_length), of the trimmed value when `trimmed`. */
  minLength?: number;
  maxLength?: number;
  trimmed?: boolean;
  /** Array elements (cardinality, jsonb_array_length). */
  minItems?: number;
  maxItems?: number;
  /** Inclusive numeric bounds (>=, <=); exclusive ones as `gt`/`lt`. */
  min?: number;
  max?: number;
  gt?: number;
  lt?: number;
  /** Allowed values of a text column (`= ANY (ARRAY[…])`), in the constraint's order. */
  oneOf?: string[];
  /** Allowed elements of a text[] column (`<@ ARRAY[…]`). */
  itemsOneOf?: string[];
}

/** table → column → facts. */
export type ColumnChecks = Record<string, Record<string, ColumnCheck>>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const textValues = (list: string) => [...list.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1]!.replace(/''/g, "'"));

/**
 * The facts one constraint definition states about column `col` (pure; exported for its test).
 * @param def the text of `pg_get_constraintdef`, e.g. `CHECK ((char_length(bio) <= 5000))`
 * @returns the facts, or null when the definition has another shape (see the module comment)
 */
export function parseCheck(def: string, col: string): ColumnCheck | null {
  let body = def.replace(/^CHECK \(/, '').replace(/\)$/, '');
  const nullable = new RegExp(`^\\(\\(${escape(col)} IS NULL\\) OR `);
  if (nullable.test(body)) body = body.replace(nullable, '(');
  if (/ OR /.test(body)) return null;
  const c = escape(col);
  const out: ColumnCheck = {};
  let found = false;
  const set = (key: keyof ColumnCheck, value: number) => {
    (out as Record<string, number>)[key] = value;
    found = true;
  };
  for (const m of body.matchAll(new RegExp(`char_length\\((btrim\\()?${c}\\)?\\) (<=|>=) (\\d+)`, 'g'))) {
    if (m[1]) out.trimmed = true;
    set(m[2] === '<=' ? 'maxLength' : 'minLength', Number(m[3]));
  }
  for (const m of body.matchAll(new RegExp(`(?:cardinality|jsonb_array_length)\\(${c}\\) (<=|>=) (\\d+)`, 'g'))) set(m[1] === '<=' ? 'maxItems' : 'minItems', Number(m[2]));
  for (const m of body.matchAll(new RegExp(`\\(${c} (>=|<=|>|<) [(']*(-?\\d+(?:\\.\\d+)?)`, 'g'))) {
    set(({ '>=': 'min', '<=': 'max', '>': 'gt', '<': 'lt' } as const)[m[1] as '>=' | '<=' | '>' | '<'], Number(m[2]));
  }
  const any = body.match(new RegExp(`\\(${c} = ANY \\(ARRAY\\[(.*?)\\]\\)\\)`));
  if (any && textValues(any[1]!).length > 0) {
    out.oneOf = textValues(any[1]!);
    found = true;
  }
  const within = body.match(new RegExp(`\\(${c} <@ ARRAY\\[(.*?)\\]\\)`));
  if (within && textValues(within[1]!).length > 0) {
    out.itemsOneOf = textValues(within[1]!);
    found = true;
  }
  return found ? out : null;
}

/**
 * Reads the facts of every single-column CHECK constraint on tables of schema `public`.
 * @param dbUrl connection string of the database to read (the stack's superuser URL)
 * Errors: connection and query errors unchanged.
 */
export async function readColumnChecks(dbUrl: string): Promise<ColumnChecks> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tbl: string; col: string; def: string }>(`
      select c.relname as tbl, a.attname as col, pg_get_constraintdef(k.oid) as def
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.contype = 'c' and k.connamespace = 'public'::regnamespace and c.relkind = 'r'
        and cardinality(k.conkey) = 1
      order by c.relname, a.attname, k.conname`);
    const out: ColumnChecks = {};
    for (const r of rows) {
      const facts = parseCheck(r.def, r.col);
      if (!facts) continue;
      const table = (out[r.tbl] ??= {});
      table[r.col] = { ...table[r.col], ...facts };
    }
    return out;
  } finally {
    await client.end();
  }
}

/** The module text of `database.checks.ts` for `checks` (stable order: tables and columns sorted). */
export function renderColumnChecks(checks: ColumnChecks, header: string): string {
  const lines = [
    header,
    '/** What the CHECK constraints of the public tables say about single columns (scripts/db/column-checks.ts). */',
    'export const Checks = {',
  ];
  for (const table of Object.keys(checks).sort()) {
    lines.push(`  ${table}: {`);
    for (const [col, facts] of Object.entries(checks[table]!).sort(([a], [b]) => a.localeCompare(b))) {
      const order: (keyof ColumnCheck)[] = ['minLength', 'maxLength', 'trimmed', 'minItems', 'maxItems', 'min', 'max', 'gt', 'lt', 'oneOf', 'itemsOneOf'];
      const parts = order.filter((k) => facts[k] !== undefined).map((k) => `${k}: ${JSON.stringify(facts[k]).replace(/","/g, '", "')}`);
      lines.push(`    ${col}: { ${parts.join(', ')} },`);
    }
    lines.push('  },');
  }
  lines.push('} as const;', '');
  return lines.join('\n');
}
