/**
 * Proves that two builds of the database are the same, object by object and row by row
 * (scripts/db/catalog.ts: every table, column, constraint, index, view, type, policy, grant incl.
 * column grants, trigger, function byte for byte, comment, publication member, replica identity,
 * default privilege, text search configuration; with `--data` also cron jobs, vault secrets,
 * storage buckets, every table's rows and sequence positions).
 *
 * Usage (the local stack of TEAMWERK_STACK_OFFSET must run; scratch databases are made in its cluster
 * and dropped afterwards):
 *   npx tsx scripts/db/compare.ts --base <git rev> [--head <git rev>]
 *                                                        migrations of <base> vs the working tree's (or
 *                                                        <head>'s) migrations, schema and data; the squash
 *                                                        proof: `--base 0c32f6f --head <squash commit>`
 *   npx tsx scripts/db/compare.ts --schemas               working tree: migrations vs supabase/schemas
 *                                                        (schema only; what supabase/tests/schema-home.test.ts checks)
 *   npx tsx scripts/db/compare.ts --save <file> [--base <rev>]   writes the catalog (with data) of a
 *                                                        migrations build to a JSON file
 *   npx tsx scripts/db/compare.ts --against <file>       working tree's migrations vs a saved catalog
 *   --keep                                               keeps the scratch databases (names printed)
 *
 * Output: per kind the number of objects compared, then every difference (`-` only in the first,
 * `+` only in the second, `~` changed, with the first differing lines). Exit code 0 when equal,
 * 1 when anything differs, 2 on a usage or build error.
 */
import fs from 'node:fs';
import { stackConfig } from '../local-stack/config.ts';
import { catalogSummary, compareCatalogs, formatDifferences, readCatalog, type Catalog } from './catalog.ts';
import { applyMigrationsTo, applySchemaFilesTo, createScratchDb, dropScratchDb, withClient, workdirAtRevision, type ScratchDb } from './scratch.ts';
import { runIfMain } from './run.ts';

const config = stackConfig();

/** How one side is built. */
type Source = { kind: 'migrations'; rev?: string } | { kind: 'schemas' } | { kind: 'file'; file: string };

function describe(source: Source): string {
  if (source.kind === 'file') return source.file;
  if (source.kind === 'schemas') return 'supabase/schemas';
  return source.rev ? `migrations@${source.rev}` : 'supabase/migrations';
}

/**
 * Builds `source` in a scratch database (or reads a saved catalog) and returns its catalog.
 * `keep` collects the scratch databases to leave in place.
 */
export async function buildCatalog(source: Source, data: boolean, keep?: ScratchDb[]): Promise<Catalog> {
  if (source.kind === 'file') return new Map(Object.entries(JSON.parse(fs.readFileSync(source.file, 'utf8')) as Record<string, string>));
  const db = await createScratchDb(config, source.kind === 'schemas' ? 'schemas' : source.rev ? `rev_${source.rev}` : 'migrations');
  let workdir: string | undefined;
  try {
    if (source.kind === 'schemas') await applySchemaFilesTo(db);
    else {
      workdir = source.rev ? workdirAtRevision(source.rev) : undefined;
      await applyMigrationsTo(db, workdir);
    }
    return await withClient(db.url, (c) => readCatalog(c, { data }));
  } finally {
    if (workdir) fs.rmSync(workdir, { recursive: true, force: true });
    if (keep) {
      keep.push(db);
      console.log(`kept scratch database ${db.name} (${describe(source)})`);
    } else await dropScratchDb(config, db);
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const base = arg('--base');
  const head = arg('--head');
  const save = arg('--save');
  const against = arg('--against');
  const keep = process.argv.includes('--keep') ? [] : undefined;
  if (save) {
    const catalog = await buildCatalog({ kind: 'migrations', rev: base }, true, keep);
    fs.writeFileSync(save, JSON.stringify(Object.fromEntries(catalog), null, 1));
    console.log(`wrote ${catalog.size} entries to ${save}`, catalogSummary(catalog));
    return 0;
  }
  let left: Source;
  let right: Source;
  let data = true;
  if (process.argv.includes('--schemas')) {
    left = { kind: 'migrations' };
    right = { kind: 'schemas' };
    data = false;
  } else if (against) {
    left = { kind: 'file', file: against };
    right = { kind: 'migrations' };
  } else if (base) {
    left = { kind: 'migrations', rev: base };
    right = { kind: 'migrations', rev: head };
  } else {
    console.error('usage: compare.ts --base <rev> [--head <rev>] | --schemas | --save <file> [--base <rev>] | --against <file> [--keep]');
    return 2;
  }
  const t0 = Date.now();
  const [a, b] = [await buildCatalog(left, data, keep), await buildCatalog(right, data, keep)];
  const summary = catalogSummary(a);
  console.log(`compared in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${a.size} entries of ${describe(left)}:`);
  console.log(Object.entries(summary).map(([k, n]) => `  ${k}: ${n}`).join('\n'));
  const diffs = compareCatalogs(a, b);
  if (!diffs.length) {
    console.log(`${describe(left)} and ${describe(right)} are equal: 0 differences`);
    return 0;
  }
  console.log(`${diffs.length} difference(s) between ${describe(left)} (-) and ${describe(right)} (+):`);
  console.log(formatDifferences(diffs, describe(left), describe(right), 200));
  return 1;
}

runIfMain(import.meta.url, main);
