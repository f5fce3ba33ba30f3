import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/routes';
import en from '../en.json';
import { cataloguePart, isShellKey, PAGE_NAMESPACES, PAGE_ROUTE_IDS, SHELL_KEYS, SHELL_NAMESPACES, SHELL_ROUTE_IDS } from '../shell';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What renders with the shell catalogue alone: the app shell, the shared components, the session
 * watch and the pages of SHELL_ROUTE_IDS (the landing feature). `lib/categories.ts` is a
 * label map of search/jobs pages only.
 */
const SHELL_SOURCES = ['app', 'components', 'lib', 'features/landing', 'features/auth/session'];
const PAGE_ONLY = new Set([path.join(SRC, 'lib/categories.ts')]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === '__tests__' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !PAGE_ONLY.has(full) ? [full] : [];
  });
}

describe('shell catalogue (issue 5: the landing page loads only these messages)', () => {
  it('every message id written in a shell file is in the shell catalogue', () => {
    const outside: string[] = [];
    for (const file of SHELL_SOURCES.flatMap((dir) => sourceFiles(path.join(SRC, dir)))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g)) {
        const id = match[1]!;
        if (id in en && !isShellKey(id)) outside.push(`${path.relative(SRC, file)}: ${id}`);
      }
    }
    expect(outside, 'add these keys (or their namespace) to src/i18n/shell.ts').toEqual([]);
  });

  it('the head tags of the shell routes use shell keys', () => {
    const routes = ROUTES.filter((route) => SHELL_ROUTE_IDS.has(route.id));
    expect(routes.map((route) => route.id).sort()).toEqual([...SHELL_ROUTE_IDS].sort());
    for (const route of routes) {
      for (const key of [route.titleKey, route.descriptionKey]) {
        if (key) expect(isShellKey(key), key).toBe(true);
      }
    }
  });

  it('lists only existing keys and namespaces, and leaves most messages for later', () => {
    const keys = Object.keys(en);
    expect(SHELL_KEYS.filter((key) => !(key in en))).toEqual([]);
    expect(SHELL_NAMESPACES.filter((ns) => !keys.some((key) => key.startsWith(`${ns}.`)))).toEqual([]);
    const shell = keys.filter(isShellKey);
    expect(shell.length).toBeGreaterThan(50);
    expect(shell.length).toBeLessThan(keys.length / 4);
  });
});

/** The module file of each route of PAGE_ROUTE_IDS (its `load` import in the feature's routes/index.ts). */
const PAGE_ROUTE_MODULES: Record<string, string> = {
  search: 'features/search/routes/search.tsx',
  prices: 'features/billing/routes/prices.tsx',
};

/** The source file an import specifier of `from` names (`@/…` or relative), or null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(SRC, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  const clean = base.replace(/\?.*$/, '');
  const file = [clean, `${clean}.ts`, `${clean}.tsx`, path.join(clean, 'index.ts'), path.join(clean, 'index.tsx')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
  return file ?? null;
}

/** Every TypeScript file reachable from `entry` through static and dynamic imports. */
function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file) || !/\.(ts|tsx)$/.test(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const target = resolveImport(file, match[1]!);
      if (target) todo.push(target);
    }
  }
  return [...seen];
}

describe('page part (issue 18: search and prices load a third of the catalogue)', () => {
  it('names a module for every route of PAGE_ROUTE_IDS, and its head tags are in the shell or page part', () => {
    expect(Object.keys(PAGE_ROUTE_MODULES).sort()).toEqual([...PAGE_ROUTE_IDS].sort());
    for (const route of ROUTES.filter((r) => PAGE_ROUTE_IDS.has(r.id))) {
      for (const key of [route.titleKey, route.descriptionKey]) if (key) expect(cataloguePart(key), key).not.toBe('rest');
    }
  });

  it('no file those pages import (directly or lazily) uses a message of the rest', () => {
    const outside: string[] = [];
    for (const [id, module] of Object.entries(PAGE_ROUTE_MODULES)) {
      const files = reachable(path.join(SRC, module));
      expect(files.length, id).toBeGreaterThan(5);
      for (const file of files) {
        for (const match of readFileSync(file, 'utf8').matchAll(/['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g)) {
          const key = match[1]!;
          if (key in en && cataloguePart(key) === 'rest') outside.push(`${id}: ${path.relative(SRC, file)}: ${key}`);
        }
      }
    }
    expect(outside, 'add these namespaces to PAGE_NAMESPACES in src/i18n/shell.ts').toEqual([]);
  });

  it('lists only existing namespaces, and leaves most messages for the rest', () => {
    const keys = Object.keys(en);
    expect(PAGE_NAMESPACES.filter((ns) => !keys.some((key) => key.startsWith(`${ns}.`)))).toEqual([]);
    const pages = keys.filter((key) => cataloguePart(key) === 'pages');
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.length).toBeLessThan(keys.filter((key) => cataloguePart(key) === 'rest').length);
  });
});
