/**
 * Parser for Stripe's form encoding (`application/x-www-form-urlencoded` with bracketed keys):
 * `a[b]=1`, `items[0][price]=x`, `expand[]=y`. Produces nested plain objects and arrays of strings.
 */
import { paramError } from './errors.ts';

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw paramError(`Invalid request: could not decode '${s.slice(0, 40)}'.`, undefined, 'parameter_invalid_string');
  }
}

/** Splits `a[b][0][]` into `['a', 'b', '0', '']`; throws 400 on malformed brackets. */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  const parts = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const m = /^\[([^[\]]*)\]/.exec(rest);
    if (!m) throw paramError(`Invalid request: malformed parameter name '${key}'.`, key, 'parameter_invalid_string');
    parts.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return parts;
}

function isIndex(seg: string): boolean {
  return seg === '' || /^\d{1,4}$/.test(seg);
}

/**
 * Parses a form-encoded string into nested objects/arrays.
 * Input: the raw body or query string. Output: `FormObject`. Errors: 400 invalid_request_error
 * for undecodable escapes, malformed brackets, or a key used both as value and as container.
 */
export function parseForm(raw: string): FormObject {
  const root: FormObject = Object.create(null) as FormObject;
  if (!raw) return root;
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    const segs = splitKey(key);
    if (!segs[0]) throw paramError(`Invalid request: empty parameter name.`, key, 'parameter_invalid_string');
    let container: FormObject | FormValue[] = root;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i]!;
      if (FORBIDDEN.has(seg)) throw paramError(`Received unknown parameter: ${key}`, key);
      const last = i === segs.length - 1;
      if (Array.isArray(container)) {
        if (!isIndex(seg)) throw paramError(`Invalid array: ${segs.slice(0, i).join('.')}`, key, 'parameter_invalid_array');
        const idx: number = seg === "" ? container.length : Number(seg);
        if (idx > container.length + 1000) throw paramError(`Invalid array index in ${key}`, key, 'parameter_invalid_array');
        if (last) {
          container[idx] = value;
        } else {
          const next = segs[i + 1]!;
          let child: FormValue | undefined = container[idx];
          if (child === undefined) {
            child = isIndex(next) ? [] : (Object.create(null) as FormObject);
            container[idx] = child;
          }
          if (typeof child === 'string') throw paramError(`Invalid hash: ${key}`, key, 'parameter_invalid_string');
          container = child;
        }
      } else {
        if (last) {
          if (typeof container[seg] === 'object') throw paramError(`Invalid string: ${key}`, key, 'parameter_invalid_string');
          container[seg] = value;
        } else {
          const next = segs[i + 1]!;
          let child: FormValue | undefined = container[seg];
          if (child === undefined) {
            child = isIndex(next) ? [] : (Object.create(null) as FormObject);
            container[seg] = child;
          }
          if (typeof child === 'string') throw paramError(`Invalid hash: ${key}`, key, 'parameter_invalid_string');
          container = child;
        }
      }
    }
  }
  return compact(root) as FormObject;
}

/** Removes holes left by sparse indexes (`a[0]`, `a[2]`) so arrays stay dense. */
function compact(v: FormValue): FormValue {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(compact);
  const out: FormObject = {};
  for (const [k, x] of Object.entries(v)) out[k] = compact(x);
  return out;
}
