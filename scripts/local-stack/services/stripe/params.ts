/**
 * Parameter schemas and validation with Stripe's error wording:
 * "Received unknown parameter: foo", "Missing required param: bar.", "Invalid integer: x".
 */
import { paramError, unsupportedParam } from './errors.ts';

export type Spec =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'map'
  | 'any'
  /** A real Stripe parameter the sandbox does not implement: any value gets "Received unsupported parameter". */
  | 'unsupported'
  | { enum: readonly string[] }
  | { object: Record<string, Spec>; required?: readonly string[] }
  | { array: Spec }
  /** A string id or an integer timestamp (e.g. `trial_end: 'now'`). */
  | { union: readonly Spec[] };

export type Params = Record<string, unknown>;

/** Parameters every endpoint accepts. */
const COMMON: Record<string, Spec> = { expand: { array: 'string' } };

function displayPath(path: string[]): string {
  return path.map((p, i) => (i === 0 ? p : `[${p}]`)).join('');
}

function describeEnum(values: readonly string[]): string {
  if (values.length === 1) return values[0]!;
  return `${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}`;
}

function check(spec: Spec, value: unknown, path: string[]): unknown {
  const name = displayPath(path);
  if (spec === 'any') return value;
  if (spec === 'unsupported') throw unsupportedParam(name);
  if (spec === 'string') {
    if (typeof value === 'string') return value === '' ? null : value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (value === null) return null;
    throw paramError(`Invalid string: ${name}`, name, 'parameter_invalid_string');
  }
  if (spec === 'integer') {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && value === '') return null;
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number.parseInt(value, 10);
    throw paramError(`Invalid integer: ${typeof value === 'string' ? value : JSON.stringify(value)}`, name, 'parameter_invalid_integer');
  }
  if (spec === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw paramError(`Invalid boolean: ${typeof value === 'string' ? value : JSON.stringify(value)}`, name, 'parameter_invalid_boolean');
  }
  if (spec === 'map') {
    // Metadata: string keys to string values; '' (or null) unsets a key, `metadata=` clears all.
    if (value === '' || value === null) return null;
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as [string, unknown])
      : typeof value === 'object'
        ? Object.entries(value as object)
        : [];
    if (typeof value !== 'object') throw paramError(`Invalid hash: ${name}`, name, 'parameter_invalid_object');
    if (entries.length > 50) throw paramError(`Invalid ${name}: Metadata can have at most 50 keys.`, name, 'parameter_invalid_object');
    const out: Record<string, string | null> = {};
    for (const [k, v] of entries) {
      if (k.length > 40) throw paramError(`Metadata keys can be at most 40 characters long.`, `${name}[${k}]`, 'parameter_invalid_string');
      if (v !== null && typeof v === 'object') throw paramError(`Invalid string: ${name}[${k}]`, `${name}[${k}]`, 'parameter_invalid_string');
      const s = v === null || v === '' ? null : String(v);
      if (s !== null && s.length > 500) throw paramError(`Metadata values can be at most 500 characters long.`, `${name}[${k}]`, 'parameter_invalid_string');
      out[k] = s;
    }
    return out;
  }
  if ('enum' in spec) {
    if (typeof value === 'string' && value === '') return null;
    if (typeof value !== 'string' || !spec.enum.includes(value)) {
      throw paramError(`Invalid ${path[path.length - 1]}: must be one of ${describeEnum(spec.enum)}`, name, 'parameter_invalid_string');
    }
    return value;
  }
  if ('union' in spec) {
    let last: unknown;
    for (const s of spec.union) {
      try {
        return check(s, value, path);
      } catch (e) {
        last = e;
      }
    }
    throw last;
  }
  if ('array' in spec) {
    if (value === '' || value === null) return [];
    if (!Array.isArray(value)) throw paramError(`Invalid array`, name, 'parameter_invalid_array');
    return value.map((v, i) => check(spec.array, v, [...path, String(i)]));
  }
  // object
  if (value === '' || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw paramError(`Invalid hash`, name, 'parameter_invalid_object');
  return checkObject(spec.object, value as Params, path, spec.required ?? []);
}

function checkObject(fields: Record<string, Spec>, value: Params, path: string[], required: readonly string[]): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(value)) {
    const s = fields[k];
    const p = [...path, k];
    if (!s) throw paramError(`Received unknown parameter: ${displayPath(p)}`, displayPath(p));
    out[k] = check(s, v, p);
  }
  for (const r of required) {
    if (out[r] === undefined || out[r] === null) {
      const p = displayPath([...path, r]);
      throw paramError(`Missing required param: ${p}.`, p, 'parameter_missing');
    }
  }
  return out;
}

/**
 * Validates request parameters against an endpoint's schema (plus `expand`).
 * Input: parsed form/query object. Output: the parameters with integers/booleans converted and
 * empty strings turned into `null` ("unset"). Errors: 400 invalid_request_error with Stripe's
 * wording for unknown, missing or ill-typed parameters.
 */
export function validate(fields: Record<string, Spec>, value: Params, required: readonly string[] = []): Params {
  return checkObject({ ...COMMON, ...fields }, value, [], required);
}

/** Schema fragments reused by several endpoints. */
export const LIST_PARAMS: Record<string, Spec> = {
  limit: 'integer',
  starting_after: 'string',
  ending_before: 'string',
  created: { union: ['integer', { object: { gt: 'integer', gte: 'integer', lt: 'integer', lte: 'integer' } }] },
};
export const SEARCH_PARAMS: Record<string, Spec> = { query: 'string', limit: 'integer', page: 'string' };
export const RECURRING: Spec = {
  object: {
    interval: { enum: ['day', 'week', 'month', 'year'] },
    interval_count: 'integer',
    usage_type: { enum: ['licensed', 'metered'] },
    trial_period_days: 'integer',
    aggregate_usage: 'string',
    meter: 'string',
  },
  required: ['interval'],
};
export const ADDRESS: Spec = {
  object: { line1: 'string', line2: 'string', city: 'string', state: 'string', postal_code: 'string', country: 'string' },
};
