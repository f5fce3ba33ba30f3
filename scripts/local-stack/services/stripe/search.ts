/**
 * A subset of Stripe's Search Query Language (https://stripe.com/docs/search):
 * clauses `field:'value'` (exact, case-insensitive for strings), `field~'value'` (substring,
 * at least 3 characters), `-field:'value'` (negation), `metadata['key']:'value'`,
 * `field>n`, `field<n`, `field>=n`, `field<=n` for numbers, joined by `AND` or by `OR`
 * (not mixed, as in Stripe). `null` matches a missing value.
 */
import { invalidRequest } from './errors.ts';
import type { Obj } from './store.ts';

interface Clause {
  negate: boolean;
  field: string;
  metaKey: string | null;
  op: ':' | '~' | '>' | '<' | '>=' | '<=';
  value: string | number | null;
}

const CLAUSE =
  /^\s*(-)?([a-z_]+)(?:\[(?:'([^']*)'|"([^"]*)")\])?\s*(>=|<=|:|~|>|<)\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)|(null))\s*/;

/**
 * Parses a query for a resource whose searchable fields are `fields`.
 * Errors: 400 invalid_request_error for syntax errors or unsupported fields.
 */
export function parseQuery(query: string, resource: string, fields: readonly string[]): { mode: 'AND' | 'OR'; clauses: Clause[] } {
  const clauses: Clause[] = [];
  let rest = query.trim();
  let mode: 'AND' | 'OR' | null = null;
  if (!rest) throw invalidRequest('Missing required param: query.', 'query', 'parameter_missing');
  while (rest.length > 0) {
    const m = CLAUSE.exec(rest);
    if (!m) throw invalidRequest(`Invalid query: could not parse '${rest.slice(0, 60)}'. Please see https://stripe.com/docs/search#search-query-language.`, 'query');
    const field = m[2]!;
    if (!fields.includes(field)) throw invalidRequest(`Field \`${field}\` is an unsupported search field for resource \`${resource}\`. See https://stripe.com/docs/search#query-fields-for-${resource.replace(/_/g, '-')} for a list of supported fields.`, 'query');
    const metaKey = m[3] ?? m[4] ?? null;
    if (field === 'metadata' && metaKey === null) throw invalidRequest("Invalid query: metadata requires a key, e.g. metadata['key']:'value'.", 'query');
    const raw = m[6] ?? m[7];
    const value = raw !== undefined ? raw.replace(/\\(.)/g, '$1') : m[8] !== undefined ? Number(m[8]) : null;
    const op = m[5] as Clause['op'];
    if (op === '~' && (typeof value !== 'string' || value.length < 3)) throw invalidRequest('Invalid query: substring match (~) needs at least 3 characters.', 'query');
    clauses.push({ negate: Boolean(m[1]), field, metaKey, op, value });
    rest = rest.slice(m[0].length);
    if (!rest) break;
    const j = /^(AND|OR)\s+/.exec(rest);
    if (!j) throw invalidRequest(`Invalid query: expected AND or OR before '${rest.slice(0, 40)}'.`, 'query');
    if (mode && mode !== j[1]) throw invalidRequest('Invalid query: AND and OR cannot be combined in one query.', 'query');
    mode = j[1] as 'AND' | 'OR';
    rest = rest.slice(j[0].length);
  }
  return { mode: mode ?? 'AND', clauses };
}

function test(c: Clause, obj: Obj): boolean {
  const actual: unknown = c.field === 'metadata' ? (obj.metadata as Obj | undefined)?.[c.metaKey!] : obj[c.field];
  let ok: boolean;
  if (c.value === null) ok = actual === null || actual === undefined;
  else if (c.op === ':') {
    ok =
      typeof actual === 'string'
        ? actual.toLowerCase() === String(c.value).toLowerCase()
        : typeof actual === 'boolean'
          ? String(actual) === String(c.value)
          : actual === c.value || String(actual) === String(c.value);
  } else if (c.op === '~') ok = typeof actual === 'string' && actual.toLowerCase().includes(String(c.value).toLowerCase());
  else {
    const a = Number(actual);
    const v = Number(c.value);
    ok = c.op === '>' ? a > v : c.op === '<' ? a < v : c.op === '>=' ? a >= v : a <= v;
  }
  return c.negate ? !ok : ok;
}

/** Whether an object matches a parsed query. */
export function matches(q: { mode: 'AND' | 'OR'; clauses: Clause[] }, obj: Obj): boolean {
  return q.mode === 'AND' ? q.clauses.every((c) => test(c, obj)) : q.clauses.some((c) => test(c, obj));
}
