/**
 * A small SQL reader for the declarative schema files: splits a file into statements (aware of
 * quotes, dollar quotes and comments) and names the object a `create` statement defines. It reads
 * statements, never comments: text inside `--`/`/* … *\/` comments, string literals and function
 * bodies cannot define anything.
 */

/** One statement of a file: its text without leading comments, and the line it starts on (1-based). */
export interface SqlStatement {
  text: string;
  line: number;
}

/**
 * Splits SQL into statements at top-level semicolons. Comments are dropped from the statement
 * text (replaced by a space); quoted strings, quoted identifiers and dollar-quoted bodies are
 * kept verbatim. Input: SQL text. Output: the non-empty statements in order.
 */
export function splitStatements(sql: string): SqlStatement[] {
  const out: SqlStatement[] = [];
  let current = '';
  let line = 1;
  let startLine = 0;
  let i = 0;
  const push = (s: string) => {
    if (!startLine && s.trim()) startLine = line;
    current += s;
  };
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      current += ' ';
      continue;
    }
    if (ch === '/' && next === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        if (sql[j] === '/' && sql[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (sql[j] === '*' && sql[j + 1] === '/') {
          depth--;
          j += 2;
        } else {
          if (sql[j] === '\n') line++;
          j++;
        }
      }
      i = j;
      current += ' ';
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j++;
      }
      const piece = sql.slice(i, j + 1);
      push(piece);
      line += piece.split('\n').length - 1;
      i = j + 1;
      continue;
    }
    if (ch === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? ' ')) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        const stop = end < 0 ? sql.length : end + tag[0].length;
        const piece = sql.slice(i, stop);
        push(piece);
        line += piece.split('\n').length - 1;
        i = stop;
        continue;
      }
    }
    if (ch === ';') {
      if (current.trim()) out.push({ text: current.trim(), line: startLine });
      current = '';
      startLine = 0;
      i++;
      continue;
    }
    if (ch === '\n') line++;
    if (/\s/.test(ch)) current += ch;
    else push(ch);
    i++;
  }
  if (current.trim()) out.push({ text: current.trim(), line: startLine });
  return out;
}

/** Multi-word type names, so `double precision` is not read as a parameter named `double`. */
const MULTI_WORD_TYPES = [
  'double precision', 'character varying', 'bit varying', 'timestamp with time zone', 'timestamp without time zone',
  'time with time zone', 'time without time zone',
];

const TYPE_ALIASES: Record<string, string> = {
  int: 'integer', int4: 'integer', int8: 'bigint', int2: 'smallint', bool: 'boolean', float8: 'double precision',
  float4: 'real', varchar: 'character varying', timestamptz: 'timestamp with time zone', timestamp: 'timestamp without time zone',
  timetz: 'time with time zone', decimal: 'numeric',
};

/** Splits at top-level commas (not inside parentheses or quotes). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

/** Normalises one type name: lower case, single spaces, pg_catalog/aliases folded, `[]` kept. */
export function normaliseType(type: string): string {
  let t = type.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\s*\[\s*\]/g, '[]').replace(/"/g, '');
  t = t.replace(/^pg_catalog\./, '');
  const array = t.endsWith('[]') ? '[]' : '';
  const base = array ? t.slice(0, -2) : t;
  const noMod = base.replace(/\s*\(.*\)$/, '');
  return (TYPE_ALIASES[noMod] ?? noMod) + array;
}

/**
 * Identity argument types of a parameter list (`p_id uuid, p_limit integer default 20, out x int`
 * → `uuid, integer`): names, defaults and OUT parameters dropped, types normalised.
 */
export function identityArguments(params: string): string {
  const types: string[] = [];
  for (const raw of splitTopLevel(params)) {
    let p = raw.replace(/\s+(default\b|=).*$/is, '').trim();
    if (!p) continue;
    const mode = /^(in|out|inout|variadic)\s+/i.exec(p);
    if (mode) {
      if (/^out$/i.test(mode[1] as string)) continue;
      p = p.slice(mode[0].length);
    }
    const lower = p.toLowerCase().replace(/\s+/g, ' ');
    const isBareType = MULTI_WORD_TYPES.some((t) => lower === t || lower.startsWith(`${t}[`) || lower.startsWith(`${t} [`)) || !/\s/.test(p.trim());
    types.push(normaliseType(isBareType ? p : p.replace(/^("[^"]+"|\S+)\s+/, '')));
  }
  return types.join(', ');
}

/** Strips the double quotes of a (possibly qualified) name and lower-cases unquoted parts. */
function normaliseName(name: string): string {
  return name
    .split('.')
    .map((part) => (part.startsWith('"') ? part.slice(1, -1) : part.toLowerCase()))
    .join('.');
}

const NAME = String.raw`((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)`;

/** What a `create` statement defines: kind and a key that is unique per object of that kind. */
export interface DefinedObject {
  kind: 'function' | 'procedure' | 'table' | 'view' | 'materialized view' | 'policy' | 'trigger' | 'type' | 'index';
  key: string;
}

/**
 * The object a statement creates, or null when it creates none of function, procedure, table,
 * view, materialized view, policy, trigger, type (incl. domain) or index. Functions are keyed by
 * name and identity argument types, policies and triggers by name and table.
 */
export function definedObject(statement: string): DefinedObject | null {
  const s = statement.replace(/\s+/g, ' ').trim();
  let m = new RegExp(String.raw`^create (?:or replace )?(function|procedure) ${NAME} ?\(`, 'i').exec(s);
  if (m) {
    // the parameter list: up to the parenthesis that closes the one after the name
    let depth = 1;
    let j = m[0].length;
    while (j < s.length && depth > 0) {
      if (s[j] === '(') depth++;
      else if (s[j] === ')') depth--;
      j++;
    }
    const kind = (m[1] as string).toLowerCase() as 'function' | 'procedure';
    return { kind, key: `${normaliseName(m[2] as string)}(${identityArguments(s.slice(m[0].length, j - 1))})` };
  }
  m = new RegExp(String.raw`^create (?:(?:global |local )?(?:temporary |temp |unlogged )?)table (?:if not exists )?${NAME}`, 'i').exec(s);
  if (m) return { kind: 'table', key: normaliseName(m[1] as string) };
  m = new RegExp(String.raw`^create (?:or replace )?(?:temp |temporary )?(?:recursive )?(materialized )?view (?:if not exists )?${NAME}`, 'i').exec(s);
  if (m) return { kind: m[1] ? 'materialized view' : 'view', key: normaliseName(m[2] as string) };
  m = new RegExp(String.raw`^create policy ${NAME} on ${NAME}`, 'i').exec(s);
  if (m) return { kind: 'policy', key: `${normaliseName(m[1] as string)} on ${normaliseName(m[2] as string)}` };
  m = new RegExp(String.raw`^create (?:or replace )?(?:constraint )?trigger ${NAME} .*? on ${NAME}`, 'i').exec(s);
  if (m) return { kind: 'trigger', key: `${normaliseName(m[1] as string)} on ${normaliseName(m[2] as string)}` };
  m = new RegExp(String.raw`^create (?:type|domain) ${NAME}`, 'i').exec(s);
  if (m) return { kind: 'type', key: normaliseName(m[1] as string) };
  m = new RegExp(String.raw`^create (?:unique )?index (?:concurrently )?(?:if not exists )?${NAME} on (?:only )?${NAME}`, 'i').exec(s);
  if (m) {
    const table = normaliseName(m[2] as string);
    const schema = table.includes('.') ? `${table.split('.')[0]}.` : '';
    return { kind: 'index', key: `${schema}${normaliseName(m[1] as string)}` };
  }
  return null;
}

/** The table an `alter table` statement changes (schema-qualified as written), or null. */
export function alteredTable(statement: string): string | null {
  const m = new RegExp(String.raw`^alter table (?:only )?(?:if exists )?${NAME}`, 'i').exec(statement.replace(/\s+/g, ' ').trim());
  return m ? normaliseName(m[1] as string) : null;
}

/** Where an object is defined: file (as given) and line. */
export interface DefinitionSite {
  file: string;
  line: number;
}

/**
 * Every object the given SQL files create, keyed `<kind> <key>` (see definedObject), with all the
 * places that create it. Input: files as { name, sql }. Output: key → sites, in file order.
 */
export function definitionSites(files: { name: string; sql: string }[]): Map<string, DefinitionSite[]> {
  const sites = new Map<string, DefinitionSite[]>();
  for (const file of files) {
    for (const statement of splitStatements(file.sql)) {
      const object = definedObject(statement.text);
      if (!object) continue;
      const key = `${object.kind} ${object.key}`;
      sites.set(key, [...(sites.get(key) ?? []), { file: file.name, line: statement.line }]);
    }
  }
  return sites;
}
