import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/routes';
import en from '../en.json';
import { isShellKey, SHELL_KEYS, SHELL_NAMESPACES, SHELL_ROUTE_IDS } from '../shell';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What renders with the shell catalogue alone: the app shell, the shared components, the session
 * watch and the pages of SHELL_ROUTE_IDS (the landing feature). `lib/category-labels.ts` is a
 * label map of search/jobs pages only.
 */
const SHELL_SOURCES = ['app', 'components', 'lib', 'features/landing', 'features/auth/session'];
const PAGE_ONLY = new Set([path.join(SRC, 'lib/category-labels.ts')]);

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
