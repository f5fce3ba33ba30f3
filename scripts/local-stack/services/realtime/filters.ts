/**
 * postgres_changes `filter` strings, as realtime-js sends them: `column=op.value`, several
 * conditions joined by commas (AND), optional `not.` prefix, values optionally double-quoted
 * PostgREST-style. Operators as Realtime supports them: eq, neq, lt, lte, gt, gte,
 * in (`in.(a,b,"c,d")`), like, ilike (SQL patterns), match, imatch (regular expressions),
 * is (`is.null|true|false`), isdistinct (NULL-safe "not equal"). Values compare with the
 * column's type (numbers numerically, booleans as booleans, everything else as text).
 * Source: Realtime `Extensions.PostgresCdcRls.Subscriptions.parse_subscription_params`.
 */

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'is' | 'like' | 'ilike' | 'match' | 'imatch' | 'isdistinct';

export interface FilterCondition {
  column: string;
  op: FilterOp;
  negate: boolean;
  /** One value, or the list for `in`. */
  values: string[];
  /** Compiled pattern for like/ilike/match/imatch. */
  regex?: RegExp;
}

export class FilterError extends Error {}

const OPS = new Set<FilterOp>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'is', 'like', 'ilike', 'match', 'imatch', 'isdistinct']);

/** SQL LIKE pattern → anchored RegExp (`%` any run, `_` one char, `\\` escapes). */
function likeToRegex(pattern: string, flags: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, flags);
}
export const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);

/** Splits on `sep` outside double quotes and parentheses. */
function splitTop(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      cur += c;
      if (c === '\\' && i + 1 < s.length) cur += s[++i];
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    if (c === sep && depth === 0) {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  if (quoted) throw new FilterError('unterminated quoted value');
  parts.push(cur);
  return parts;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return t.slice(1, -1).replace(/\\(.)/g, '$1');
  return t;
}

/**
 * Parses a filter string. Throws FilterError with a readable message on bad syntax or an
 * unknown operator.
 */
export function parseFilter(filter: string): FilterCondition[] {
  const out: FilterCondition[] = [];
  for (const raw of splitTop(filter, ',')) {
    const part = raw.trim();
    if (!part) throw new FilterError(`empty condition in filter "${filter}"`);
    const eq = part.indexOf('=');
    if (eq <= 0) throw new FilterError(`expected column=operator.value, got "${part}"`);
    const column = part.slice(0, eq).trim();
    let rest = part.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    if (dot <= 0) throw new FilterError(JSON.stringify([column, rest]));
    const op = rest.slice(0, dot) as FilterOp;
    const value = rest.slice(dot + 1);
    if (!OPS.has(op)) throw new FilterError(JSON.stringify([rest.slice(0, dot), value]));
    if (op === 'in') {
      const m = /^\((.*)\)$/s.exec(value.trim());
      if (!m) throw new FilterError('`in` filter value must be wrapped by parentheses');
      out.push({ column, op, negate, values: m[1]!.trim() === '' ? [] : splitTop(m[1]!, ',').map(unquote) });
    } else if (op === 'like' || op === 'ilike' || op === 'match' || op === 'imatch') {
      const v = unquote(value);
      const flags = op === 'ilike' || op === 'imatch' ? 'i' : '';
      let regex: RegExp;
      try {
        regex = op === 'like' || op === 'ilike' ? likeToRegex(v, flags) : new RegExp(v, flags);
      } catch {
        throw new FilterError(`invalid regular expression ${JSON.stringify(v)}`);
      }
      out.push({ column, op, negate, values: [v], regex });
    } else {
      if (op === 'is' && !['null', 'true', 'false'].includes(value.toLowerCase())) {
        throw new FilterError(`"is" expects null, true or false, got "${value}"`);
      }
      out.push({ column, op, negate, values: [unquote(value)] });
    }
  }
  return out;
}

function compare(type: string, actual: unknown, expected: string): number | null {
  if (actual === null || actual === undefined) return null;
  if (NUMERIC_TYPES.has(type)) {
    const a = typeof actual === 'number' ? actual : Number(actual);
    const b = Number(expected);
    if (Number.isNaN(a) || Number.isNaN(b)) return null;
    return a === b ? 0 : a < b ? -1 : 1;
  }
  if (type === 'bool') {
    const a = actual === true || actual === 't' || actual === 'true';
    const b = ['t', 'true'].includes(expected.toLowerCase());
    return a === b ? 0 : a ? 1 : -1;
  }
  const a = typeof actual === 'string' ? actual : JSON.stringify(actual);
  return a === expected ? 0 : a < expected ? -1 : 1;
}

function holds(cond: FilterCondition, type: string, actual: unknown): boolean {
  if (cond.regex) return cond.regex.test(typeof actual === 'string' ? actual : JSON.stringify(actual));
  if (cond.op === 'isdistinct') {
    const v = cond.values[0]!;
    if (actual === null || actual === undefined) return v.toLowerCase() !== 'null';
    return v.toLowerCase() === 'null' || compare(type, actual, v) !== 0;
  }
  if (cond.op === 'is') {
    const v = cond.values[0]!.toLowerCase();
    if (v === 'null') return actual === null || actual === undefined;
    return actual !== null && actual !== undefined && compare('bool', actual, v) === 0;
  }
  if (cond.op === 'in') return cond.values.some((v) => compare(type, actual, v) === 0);
  const c = compare(type, actual, cond.values[0]!);
  if (c === null) return false;
  switch (cond.op) {
    case 'eq':
      return c === 0;
    case 'neq':
      return c !== 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
    default:
      return false;
  }
}

/**
 * True when `record` satisfies every condition. `types` maps column name → Postgres type name.
 * A condition on a column the record lacks (e.g. a DELETE's old record holding only the
 * primary key) is not evaluated, as Realtime cannot filter deletes on such columns either.
 */
export function matchesFilter(conds: FilterCondition[], record: Record<string, unknown>, types: Map<string, string>): boolean {
  for (const cond of conds) {
    if (!(cond.column in record)) continue;
    const actual = record[cond.column];
    // SQL semantics: any comparison with NULL (negated or not) is not true.
    if ((actual === null || actual === undefined) && cond.op !== 'is' && cond.op !== 'isdistinct') return false;
    const ok = holds(cond, types.get(cond.column) ?? 'text', actual);
    if (ok === cond.negate) return false;
  }
  return true;
}
