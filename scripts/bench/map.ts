/**
 * Benchmark of the map (issue 14; not part of `npm test`). Prints
 * 1. the latency of public.map_items through PostgREST (the gateway, anon key or a user JWT) on the
 *    large data set of db-queries (scripts/bench/large-data.ts) for typical views: p50/p95 in ms,
 *    the items, the grid cells of wide views and the items they count (issue 34), and the answer's
 *    size; target p95 ≤ 20 ms on 2 cores;
 * 2. the gzip size of the JavaScript the /map route loads beyond the landing page's, of the
 *    basemap file, and whether the landing page's JavaScript holds any of maplibre;
 * 3. the time to the first markers on /de/map in Debian Chromium with 4× CPU throttling (DevTools
 *    Emulation.setCPUThrottlingRate; caches cold), median of 5 runs, with the local network and
 *    with Lighthouse's slow 4G: the first markers the visitor sees (the placeholder's, drawn while
 *    maplibre loads, or the map's own), and separately when the placeholder drew its dots, when the
 *    map drew its markers and when the data, the maplibre chunk and the basemap had arrived.
 *
 * Every latency is printed with its ratio to a trivial PostgREST request of the same run.
 *
 * Usage: `npx tsx scripts/bench/map.ts [--keep] [--reuse] [--no-browser] [--no-build] [--projects N] [--smoke]`
 * Uses TEAMWERK_STACK_OFFSET (default 6100), RESETS that stack first (fresh data folder) unless
 * --reuse finds it running with the data set; stops it at the end unless --keep. --no-build
 * skips the sizes and the browser (no SPA build). --smoke (npm test): the running stack as it is,
 * a data set of 200 projects, 3 runs per view, no build and no browser.
 */
import type { Manifest } from './spa-size.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';

process.env.TEAMWERK_STACK_OFFSET ??= '6100';
const { stackConfig } = await import('../local-stack/config.ts');
const { stopStack } = await import('../local-stack/cli.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { startWithLargeDataSet } = await import('./large-data.ts');
const { chunkFiles, landingFiles, startPreview } = await import('./spa-size.ts');
const { default: fs } = await import('node:fs');
const { default: os } = await import('node:os');
const { default: path } = await import('node:path');
const { spawnSync } = await import('node:child_process');
const { gzipSync } = await import('node:zlib');
const { SMOKE, measureBaseline, rpcGetQuery, withRatio, percentile } = await import('./support.ts');
const { benchProjects } = await import('./large-data.ts');

let config = stackConfig();
const RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 60);
const keep = SMOKE || process.argv.includes('--keep');
const reuse = SMOKE || process.argv.includes('--reuse');
const build = !SMOKE && !process.argv.includes('--no-build');
const browser = build && !process.argv.includes('--no-browser');
const FRONTEND = path.join(config.dataDir, '../../frontend');
const outDir = () => path.join(config.dataDir, 'bench-map-dist');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface View { name: string; as: 'anon' | 'user'; body: Record<string, unknown> }

/** Rows per layer the SPA asks for (frontend/src/features/map/api/map.ts MAP_MAX_ROWS). */
const SPA_ROWS = 200;
const GERMANY = { west: 5.5, south: 47.2, east: 15.5, north: 55.1, zoom: 6 };

/** Typical map requests as the SPA sends them: Germany, a region, a city, filtered and single-layer views. */
const VIEWS: View[] = [
  { name: 'Germany, all layers (zoom 6)', as: 'anon', body: { ...GERMANY, max_rows: SPA_ROWS } },
  { name: 'Germany, all layers, signed in (blocks)', as: 'user', body: { ...GERMANY, max_rows: SPA_ROWS } },
  { name: 'Germany, projects of one category', as: 'anon', body: { ...GERMANY, layers: ['projects'], category: 'science', max_rows: SPA_ROWS } },
  { name: 'Germany, events in the next 30 days', as: 'anon', body: { ...GERMANY, layers: ['events'], date_from: new Date().toISOString().slice(0, 10), date_to: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), max_rows: SPA_ROWS } },
  { name: 'North Rhine-Westphalia (zoom 8)', as: 'anon', body: { west: 5.8, south: 50.3, east: 9.5, north: 52.6, zoom: 8, max_rows: SPA_ROWS } },
  { name: 'Köln, city view (zoom 12)', as: 'anon', body: { west: 6.85, south: 50.88, east: 7.05, north: 51.0, zoom: 12, max_rows: SPA_ROWS } },
  { name: 'a small town, nothing much (zoom 13)', as: 'anon', body: { west: 9.6, south: 49.6, east: 9.65, north: 49.63, zoom: 13, max_rows: SPA_ROWS } },
  { name: 'Germany, all layers, 500 rows (for comparison)', as: 'anon', body: { ...GERMANY, max_rows: 500 } },
];

async function prepare(): Promise<{ user: { id: string; email: string } }> {
  const started = await startWithLargeDataSet(reuse, SMOKE ? 200 : benchProjects());
  config = started.config;
  const admin = started.admin;
  try {
    const counts = (await admin.query(`select (select count(*) from public.profiles where listed and latitude is not null) people,
      (select count(*) from public.projects where status = 'published' and latitude is not null) projects,
      (select count(*) from public.events where latitude is not null) events, (select count(*) from public.jobs where latitude is not null) jobs`)).rows[0];
    console.log(`data set ready in ${started.seconds.toFixed(1)} s; on the map:`, counts);
    const user = (await admin.query(`select id, email from public.profiles where user_role = 'premium' and email like 'bench%' order by id limit 1`)).rows[0] as { id: string; email: string };
    // the signed-in caller blocks a few people and is blocked by a few (hidden_user_ids is not empty)
    await admin.query(`insert into public.user_blocks (blocker_id, blocked_id)
      select $1, id from public.profiles where email like 'bench%' and id <> $1 order by id limit 5 on conflict do nothing`, [user.id]);
    return { user };
  } finally {
    await admin.end();
  }
}

async function latency(user: { id: string; email: string }): Promise<void> {
  const userJwt = await signJwt({ sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email }, config.jwtSecret, 3600);
  const base = await measureBaseline(config.apiUrl, config.anonKey, Math.max(RUNS, 20));
  const rows: string[] = [`${'trivial request (cities, 1 row, anon)'.padEnd(48)} ${withRatio(base.p50, base.p95, base)}`];
  let worst = 0;
  for (const v of VIEWS) {
    const headers = { apikey: config.anonKey, Authorization: `Bearer ${v.as === 'user' ? userJwt : config.anonKey}`, 'Content-Type': 'application/json' };
    let bytes = 0;
    let items = 0;
    let cells = 0;
    let inCells = 0;
    let capped = false;
    const run = async () => {
      const t = performance.now();
      // GET, as the SPA calls it (read replicas serve GET only)
      const res = await fetch(`${config.apiUrl}/rest/v1/rpc/map_items?${rpcGetQuery(v.body)}`, { headers });
      const text = await res.text();
      if (!res.ok) throw new Error(`${v.name}: HTTP ${res.status} ${text.slice(0, 300)}`);
      const ms = performance.now() - t;
      const body = JSON.parse(text) as { items: Record<string, unknown[]>; cells?: Record<string, { count: number }[]>; capped: boolean };
      bytes = text.length;
      items = Object.values(body.items).reduce((n, list) => n + list.length, 0);
      // wide views (issue 34): layers with more than max_rows items come as counts per grid cell
      const cellLists = Object.values(body.cells ?? {});
      cells = cellLists.reduce((n, list) => n + list.length, 0);
      inCells = cellLists.reduce((n, list) => n + list.reduce((m, c) => m + c.count, 0), 0);
      capped = body.capped;
      return ms;
    };
    for (let i = 0; i < (SMOKE ? 1 : 5); i++) await run();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await run());
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    worst = Math.max(worst, p95);
    rows.push(`${v.name.padEnd(48)} ${withRatio(percentile(times, 50), p95, base)}   ${String(items).padStart(4)} items${capped ? ' (capped)' : '          '} ${String(cells).padStart(4)} cells (${String(inCells).padStart(6)} items)  ${(bytes / 1024).toFixed(0).padStart(4)} KB`);
  }
  console.log(`\n=== map_items through PostgREST (${RUNS} runs each, sequential; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores) ===`);
  console.log(rows.join('\n'));
  console.log(`worst p95: ${worst.toFixed(1)} ms (target <= 20 ms) -> ${worst <= 20 ? 'OK' : 'OVER TARGET'}`);
}

/** Files (relative to the build) the /map route loads: its chunk, the lazy map chunk, maplibre (react-map-gl imports it dynamically) and their stylesheets. */
function mapFiles(manifest: Manifest): string[] {
  const keys = ['src/features/map/routes/map.tsx', 'src/features/map/components/map-canvas.tsx'];
  const base = chunkFiles(manifest, keys);
  const maplibre = Object.values(manifest)
    .filter((chunk) => base.has(chunk.file))
    .flatMap((chunk) => (chunk.dynamicImports ?? []).filter((dyn) => /maplibre-gl/.test(dyn)));
  const files = chunkFiles(manifest, [...keys, ...maplibre]);
  const css = Object.values(manifest).filter((chunk) => files.has(chunk.file)).flatMap((chunk) => chunk.css ?? []);
  return [...files, ...css].filter((f) => f.endsWith('.js') || f.endsWith('.css'));
}

function sizes(): void {
  const build = spawnSync('npx', ['vite', 'build', '--mode', 'stack', '--manifest', '--outDir', outDir(), '--emptyOutDir'], { cwd: FRONTEND, stdio: 'ignore', env: process.env });
  if (build.status !== 0) throw new Error('vite build failed');
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir(), '.vite/manifest.json'), 'utf8')) as Manifest;
  const gz = (file: string) => gzipSync(fs.readFileSync(path.join(outDir(), file)), { level: 9 }).length;
  // the landing page's JavaScript and the entry's stylesheet are loaded before any route
  const landing = new Set([...landingFiles(manifest), ...(manifest['index.html']?.css ?? [])]);
  const map = mapFiles(manifest).filter((f) => !landing.has(f));
  console.log('\n=== /map route beyond the landing page (gzip) ===');
  let total = 0;
  for (const f of map) {
    const size = gz(f);
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${f}`);
  }
  console.log(`map route JavaScript and CSS beyond the landing page: ${(total / 1024).toFixed(1)} KB gzip`);
  console.log(`basemap (map/basemap.json): ${(gz('map/basemap.json') / 1024).toFixed(1)} KB gzip, ${(fs.statSync(path.join(outDir(), 'map/basemap.json')).size / 1024).toFixed(0)} KB raw`);
  const maplibreInLanding = [...landing].some((f) => /maplibre|WebGL2RenderingContext/.test(fs.readFileSync(path.join(outDir(), f), 'utf8')));
  console.log(`landing page JavaScript contains maplibre: ${maplibreInLanding ? 'YES (regression)' : 'no'}`);
}

/** Lighthouse's mobile network (slow 4G): 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1_638_400 / 8) * 0.9, uploadThroughput: (750_000 / 8) * 0.9 };

/**
 * Time to the first markers on /de/map, median of 5 cold visits at 4× CPU throttling, once with
 * the local network as it is and once with `SLOW_4G`: when the placeholder draws its dots, when the
 * map draws its markers, and when each piece had arrived (ms after navigation start).
 */
async function firstMarkers(): Promise<void> {
  const { chromium } = await import('playwright-core');
  const { base, preview } = await startPreview(outDir());
  const chrome = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  try {
    for (const network of ['local', 'slow 4G'] as const) {
      const timeline: Record<string, number[]> = {};
      for (let run = 0; run < 5; run++) {
        const context = await chrome.newContext({ viewport: { width: 412, height: 915 }, locale: 'de-DE' });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        if (network === 'slow 4G') {
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
        }
        // record the moments the placeholder draws its dots and the map its first markers (no polling delay)
        await page.addInitScript(() => {
          const w = window as unknown as { __firstMarkers?: number; __previewMarkers?: number };
          new MutationObserver((_, observer) => {
            if (w.__previewMarkers === undefined && document.querySelector('[data-preview-markers="true"]')) w.__previewMarkers = performance.now();
            if (document.querySelector('[data-markers-ready="true"]')) {
              w.__firstMarkers = performance.now();
              observer.disconnect();
            }
          }).observe(document, { subtree: true, attributes: true, childList: true });
        });
        let basemapAt = NaN;
        page.on('requestfinished', (request) => {
          if (request.url().includes('basemap.json')) basemapAt = Date.now();
        });
        await page.goto(`${base}/de/map`);
        await page.waitForFunction(() => (window as unknown as { __firstMarkers?: number }).__firstMarkers !== undefined, null, { timeout: 60_000 });
        // plain data out of the page (tsx would wrap named helpers inside evaluate in a __name call the page lacks)
        const entries = await page.evaluate(() => ({
          markers: (window as unknown as { __firstMarkers: number }).__firstMarkers,
          preview: (window as unknown as { __previewMarkers?: number }).__previewMarkers ?? NaN,
          origin: performance.timeOrigin,
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
          resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({ name: e.name, size: e.encodedBodySize, end: e.responseEnd })),
        }));
        const endOf = (match: (name: string) => boolean) => Math.max(...entries.resources.filter((e) => match(e.name)).map((e) => e.end));
        const moments = {
          // what the visitor sees first: the placeholder's markers (the same clusters and pins, drawn
          // while maplibre loads) or the map's own
          first: Math.min(entries.markers, Number.isFinite(entries.preview) ? entries.preview : Infinity),
          markers: entries.markers,
          preview: entries.preview,
          heading: entries.fcp,
          data: endOf((n) => n.includes('/rpc/map_items')),
          // the lazy chunk that holds maplibre is the largest script of the page
          maplibre: entries.resources.filter((e) => e.name.endsWith('.js')).sort((a, b) => b.size - a.size)[0]?.end ?? NaN,
          // maplibre's worker fetches the basemap: not in the page's resource timing, so taken from the request
          basemap: basemapAt - entries.origin,
        };
        for (const [k, v] of Object.entries(moments)) (timeline[k] ??= []).push(v);
        await context.close();
      }
      const med = (key: string) => {
        const known = (timeline[key] ?? []).filter(Number.isFinite);
        return known.length ? `${median(known).toFixed(0)} ms` : 'n/a';
      };
      const runs = (key: string) => (timeline[key] ?? []).map((t) => (Number.isFinite(t) ? t.toFixed(0) : '–')).join(' / ');
      console.log(`\n=== time to first markers on /de/map, Chromium, 4x CPU throttling, ${network} network, 412 x 915, cold cache ===`);
      console.log(`first markers (the placeholder's or the map's): median ${med('first')} (runs: ${runs('first')} ms)`);
      console.log(`markers on the map: median ${med('markers')} (runs: ${runs('markers')} ms)`);
      console.log(`dots on the placeholder while maplibre loads: median ${med('preview')} (runs: ${runs('preview')} ms; – when the map came first)`);
      console.log(`medians: first contentful paint ${med('heading')}, map_items answered ${med('data')}, maplibre chunk received ${med('maplibre')}, basemap received ${med('basemap')} (n/a: after the first markers)`);
    }
  } finally {
    await chrome.close();
    preview.kill();
  }
}

async function main(): Promise<void> {
  const { user } = await prepare();
  try {
    await latency(user);
    if (build) sizes();
    if (browser) await firstMarkers();
  } finally {
    if (!keep) await stopStack(config);
  }
}

await main();
