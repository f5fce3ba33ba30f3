/** A compiled route pattern. */
export interface CompiledPattern {
  regex: RegExp;
  names: string[];
  /** react-router path: every dynamic segment becomes `:_s<index>`, so patterns that differ only
   * inside a segment (e.g. `/:id-:slug` vs `/:slug`) share one router entry. */
  routerPath: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Compiles `/user/projects/create-project-:id` style patterns. A parameter runs to the next
 * literal character of its segment (or the segment end); parameters never span `/`.
 */
export function compilePattern(pattern: string): CompiledPattern {
  const names: string[] = [];
  const segments = pattern.split('/').filter(Boolean);
  const regexParts: string[] = [];
  const routerParts: string[] = [];
  segments.forEach((segment, index) => {
    if (!segment.includes(':')) {
      regexParts.push(escape(segment));
      routerParts.push(segment);
      return;
    }
    routerParts.push(`:_s${index}`);
    let source = '';
    const tokens = segment.split(/(:[A-Za-z_][A-Za-z0-9_]*)/).filter(Boolean);
    tokens.forEach((token, i) => {
      if (token.startsWith(':')) {
        names.push(token.slice(1));
        const nextLiteral = tokens[i + 1];
        source += nextLiteral && !nextLiteral.startsWith(':') ? `([^/]+?)` : '([^/]+)';
      } else {
        source += escape(token);
      }
    });
    regexParts.push(source);
  });
  return {
    regex: new RegExp(`^/${regexParts.join('/')}/?$`),
    names,
    routerPath: `/${routerParts.join('/')}`,
  };
}

/** Matches a plain path against a compiled pattern; returns decoded parameters or null. */
export function matchPattern(compiled: CompiledPattern, path: string): Record<string, string> | null {
  const m = compiled.regex.exec(path);
  if (!m) return null;
  const params: Record<string, string> = {};
  compiled.names.forEach((name, i) => {
    const raw = m[i + 1] ?? '';
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      params[name] = raw;
    }
  });
  return params;
}
