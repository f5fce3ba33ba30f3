/**
 * Benchmark: the main thread's long tasks after the first paint of `/`, `/prices` and `/search`
 * (issue 18: Lighthouse's Total Blocking Time, the figure where those pages lost points).
 *
 * Builds the SPA (unless --no-build), serves it with `vite preview` and loads each page in a fresh
 * Debian Chromium (mobile viewport 412 × 823, new profile, no CPU throttling: Lighthouse's
 * simulated mode also records an unthrottled trace and multiplies task durations by 4). From a
 * DevTools trace of the first 6 s it prints, per page and run:
 * - first contentful paint (ms after navigation start, unthrottled);
 * - every main-thread task after it longer than 12.5 ms (50 ms at 4×), with the longest events in
 *   it (script by file, layout, style, timers, idle callbacks, module evaluation);
 * - the estimated blocking time Σ max(0, 4 × duration − 50) ms over those tasks.
 * and the median estimate per page. The figure is comparable between builds on one machine; it is
 * not Lighthouse's TBT (no simulated network, no interactive-time window).
 *
 * Usage: npx tsx scripts/bench/long-tasks.ts [--no-build] [--runs N] [--pages /,/prices,/search]
 * Needs the local stack of TEAMWERK_STACK_OFFSET running (the pages load their data from it); the
 * preview listens on 5173 + offset.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { localBuildEnv, startPreview } from './spa-size.ts';

const FRONTEND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../frontend');
/** Lighthouse's CPU slowdown for mobile (simulated throttling). */
const SLOWDOWN = 4;
/** A task blocks input for what it lasts beyond 50 ms (at the slowed-down speed). */
const BLOCKING_MS = 50;
const TRACE_MS = 6000;
/** Trace events shown inside a long task. */
const INNER = new Set(['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame', 'RunMicrotasks', 'Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'MajorGC', 'MinorGC']);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; navigationId?: string; documentLoaderURL?: string } };
}

/** One long task: start (ms after navigation start), duration (ms) and its longest events. */
interface LongTask {
  startMs: number;
  durationMs: number;
  inner: string[];
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * Reads a trace: the renderer main thread with the most task time, its first contentful paint
 * and its tasks after that paint longer than BLOCKING_MS / SLOWDOWN.
 */
function longTasksAfterFcp(events: TraceEvent[]): { fcpMs: number; tasks: LongTask[] } {
  const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && mainThreads.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) throw new Error('no renderer main thread in the trace');
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main);
  // the page's first contentful paint and the start of the same navigation (the trace also holds
  // the tab's initial about:blank)
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.args?.data?.navigationId);
  const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.navigationId === fcp?.args?.data?.navigationId);
  if (!navigation || !fcp) throw new Error('no navigation start or first contentful paint in the trace');
  const ms = (ts: number) => (ts - navigation.ts) / 1000;
  const inner = onMain.filter((e) => e.ph === 'X' && INNER.has(e.name) && (e.dur ?? 0) >= 1000);
  const tasks = onMain
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.ts > fcp.ts && (e.dur ?? 0) / 1000 > BLOCKING_MS / SLOWDOWN)
    .map((task) => ({
      startMs: ms(task.ts),
      durationMs: (task.dur ?? 0) / 1000,
      inner: inner
        .filter((e) => e.ts >= task.ts && e.ts < task.ts + (task.dur ?? 0))
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 4)
        .map((e) => `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.split('/').pop()}` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)}`),
    }));
  return { fcpMs: ms(fcp.ts), tasks };
}

/** Estimated blocking time of tasks at Lighthouse's slowdown (ms). */
const blocking = (tasks: LongTask[]) => tasks.reduce((sum, t) => sum + Math.max(0, SLOWDOWN * t.durationMs - BLOCKING_MS), 0);

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    const result = spawnSync('npx', ['vite', 'build'], { cwd: FRONTEND, stdio: 'inherit', env: localBuildEnv() });
    if (result.status !== 0) throw new Error('vite build failed');
  }
  const runs = Number(option('--runs') ?? 3);
  const pages = (option('--pages') ?? '/,/prices,/search').split(',');
  const { base, preview } = await startPreview();
  try {
    for (const page of pages) {
      const estimates: number[] = [];
      for (let run = 1; run <= runs; run++) {
        // a fresh browser per run, as Lighthouse's CLI: no warm process, cache or storage
        const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
        try {
          const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
          const tab = await context.newPage();
          await browser.startTracing(tab, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'blink.user_timing', 'loading'] });
          await tab.goto(base + page);
          await tab.waitForTimeout(TRACE_MS);
          const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
          const { fcpMs, tasks } = longTasksAfterFcp(trace.traceEvents);
          const estimate = blocking(tasks);
          estimates.push(estimate);
          console.log(`${page} run ${run}: first contentful paint ${fcpMs.toFixed(0)} ms; ${tasks.length} task(s) over ${BLOCKING_MS / SLOWDOWN} ms after it; blocking at ${SLOWDOWN}× ≈ ${estimate.toFixed(0)} ms`);
          for (const t of tasks) console.log(`    @${t.startMs.toFixed(0)} ms  ${t.durationMs.toFixed(1)} ms  ${t.inner.join(', ')}`);
        } finally {
          await browser.close();
        }
      }
      const median = [...estimates].sort((a, b) => a - b)[Math.floor(estimates.length / 2)]!;
      console.log(`${page}: median blocking after the first paint at ${SLOWDOWN}× ≈ ${median.toFixed(0)} ms (${estimates.map((e) => e.toFixed(0)).join(' / ')})`);
    }
  } finally {
    preview.kill();
  }
}

await main();
