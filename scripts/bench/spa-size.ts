/**
 * Benchmark: builds the SPA and prints the gzip size of the JavaScript the landing page loads
 * before its first paint (entry chunk + its static imports + the landing route chunk + the English
 * messages it loads), target ≤ 150 KB (issue 18; 180 KB since issue 5), and, apart from it, the
 * live sections' module that loads together with the landing data after the first paint. With `--lighthouse` it also runs Lighthouse (mobile settings, Debian
 * Chromium) against `vite preview` for the pages of LIGHTHOUSE_PAGES and prints the four category
 * scores, median of three runs (targets: performance ≥ 90, accessibility ≥ 95, SEO ≥ 95, best practices ≥ 95).
 *
 * Usage: npx tsx scripts/bench/spa-size.ts [--no-build] [--lighthouse]
 * Env: TEAMWERK_STACK_OFFSET shifts the preview port (5173 + offset).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FRONTEND = path.join(ROOT, 'frontend');
const DIST = path.join(FRONTEND, 'dist');
const TARGET_KB = 150;
/** The module that draws the landing page's live sections (loaded with the data, after the first paint). */
const LIVE_SECTIONS = 'src/features/landing/components/live-sections.tsx';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * Files (relative to dist) that the given manifest entries load: their chunks and, transitively,
 * the chunks they import statically.
 */
export function chunkFiles(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return files;
}

/** Files (relative to dist) the landing page loads: entry graph + landing route + en messages. */
export function landingFiles(manifest: Manifest): string[] {
  // the English messages the landing page loads: the shell catalogue since issue 5's split
  // (src/i18n/shell.ts), the whole catalogue before it
  const messages = manifest['src/i18n/en.json?shell'] ? 'src/i18n/en.json?shell' : 'src/i18n/en.json';
  return [...chunkFiles(manifest, ['index.html', 'src/features/landing/routes/landing.tsx', messages])].filter((f) => f.endsWith('.js'));
}

/** The slice of the lighthouse / chrome-launcher APIs this script uses. */
type LighthouseRun = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<
  | { lhr: { categories: Record<string, { score: number | null } | undefined>; audits: Record<string, { numericValue?: number } | undefined> } }
  | undefined
>;

/** The Core Web Vitals and load metrics printed beside the scores (ms, CLS unitless). */
const METRICS: [string, string][] = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
];
interface ChromeLauncher {
  launch(options: { chromePath: string; chromeFlags: string[] }): Promise<{ port: number; kill(): void }>;
}

/** Gzip size in bytes (level 9, like a static host's precompression). */
const gzipBytes = (file: string): number => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;

function build(): void {
  const result = spawnSync('npx', ['vite', 'build', '--mode', 'stack', '--manifest'], { cwd: FRONTEND, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build failed');
}

/**
 * Serves a build with `vite preview` on 127.0.0.1:(5173 + TEAMWERK_STACK_OFFSET) and waits up to
 * 30 s until it answers.
 * @param outDir the build folder (default frontend/dist)
 * @returns the base URL and the server process (the caller kills it)
 */
export async function startPreview(outDir?: string): Promise<{ base: string; preview: ChildProcess }> {
  const offset = Number.parseInt(process.env.TEAMWERK_STACK_OFFSET ?? '0', 10) || 0;
  // run vite's own entry with node (not through npx) so kill() reaches the server itself
  const viteBin = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const args = [viteBin, 'preview', '--strictPort', ...(outDir ? ['--outDir', outDir] : [])];
  const preview = spawn(process.execPath, args, { cwd: FRONTEND, stdio: 'ignore', env: process.env });
  const base = `http://127.0.0.1:${5173 + offset}`;
  for (let i = 0; i < 60; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return { base, preview };
}

/**
 * The pages Lighthouse scores (issue 34: the map, 30–39 on a loaded machine, and the German events
 * list belong beside the landing page, the prices and the search).
 */
const LIGHTHOUSE_PAGES = ['/', '/prices', '/search', '/map', '/de/events'] as const;

async function lighthouseScores(): Promise<void> {
  const { base, preview } = await startPreview();
  try {
    // lighthouse is optional (large, not a project dependency): imported by name only when asked for
    const lighthouseName = 'lighthouse';
    const launcherName = 'chrome-launcher';
    const lighthouse = ((await import(lighthouseName)) as { default: LighthouseRun }).default;
    const chromeLauncher = (await import(launcherName)) as ChromeLauncher;
    // a fresh browser and profile for every run, as the Lighthouse CLI does: one browser kept for
    // all runs keeps localStorage (Lighthouse clears only caches), so every run after the first
    // would measure a returning visitor (issue 18: app/brand-font.ts), and it stays warm
    const launch = () =>
      chromeLauncher.launch({
        chromePath: CHROMIUM_PATH,
        chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
      });
    const RUNS = 3; // the machine is shared: report the median of three runs per page
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (const page of LIGHTHOUSE_PAGES) {
      const scores: Record<string, number[]> = { performance: [], accessibility: [], 'best-practices': [], seo: [] };
      const metrics: Record<string, number[]> = Object.fromEntries(METRICS.map(([, short]) => [short, []]));
      for (let run = 0; run < RUNS; run++) {
        const chrome = await launch();
        const result = await lighthouse(`${base}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: Object.keys(scores),
          formFactor: 'mobile',
        }).finally(() => chrome.kill());
        const categories = result?.lhr.categories ?? {};
        for (const id of Object.keys(scores)) scores[id]!.push(Math.round((categories[id]?.score ?? 0) * 100));
        for (const [audit, short] of METRICS) metrics[short]!.push(result?.lhr.audits[audit]?.numericValue ?? Number.NaN);
      }
      console.log(
        `lighthouse ${page.padEnd(10)} ` +
          Object.entries(scores)
            .map(([id, values]) => `${id} ${median(values)} (${values.join('/')})`)
            .join('  '),
      );
      console.log(
        `           ${''.padEnd(10)} ` +
          Object.entries(metrics)
            .map(([id, values]) => `${id} ${id === 'CLS' ? median(values).toFixed(3) : `${Math.round(median(values))} ms`}`)
            .join('  '),
      );
    }
  } finally {
    preview.kill();
  }
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (!args.has('--no-build')) build();
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const files = landingFiles(manifest);
  let total = 0;
  for (const file of files) {
    const size = gzipBytes(file);
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
  }
  const kb = total / 1024;
  console.log(`landing page JavaScript before the first paint (gzip): ${kb.toFixed(1)} KB (target ≤ ${TARGET_KB} KB) ${kb <= TARGET_KB ? 'OK' : 'OVER'}`);
  if (manifest[LIVE_SECTIONS]) {
    const before = new Set(files);
    const live = [...chunkFiles(manifest, [LIVE_SECTIONS])].filter((f) => f.endsWith('.js') && !before.has(f));
    const liveBytes = live.reduce((sum, f) => sum + gzipBytes(f), 0);
    console.log(`live sections, loaded with the data after the first paint (gzip): ${(liveBytes / 1024).toFixed(1)} KB in ${live.length} file(s); landing total ${((total + liveBytes) / 1024).toFixed(1)} KB`);
  }
  if (args.has('--lighthouse')) await lighthouseScores();
}

// run only as a script (scripts/bench/map.ts imports landingFiles)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
