/**
 * `npm test`: every test of the project, in order, against a fresh local stack of its own
 * (TEAMWERK_STACK_OFFSET, default 10000, so a developer's running stack on the default ports is
 * left alone). Steps: typecheck, lint, unit tests, fresh stack, generated types up to date,
 * `supabase db advisors`, contract + database tests (vitest), fuzzing of every RPC and Edge Function
 * (vitest.fuzz.config.ts), function tests (deno test),
 * browser tests (Playwright + Debian Chromium), the benchmarks in smoke mode (issue 34: a benchmark
 * that does not run is a defect), and the fault suite (scripts/faults/run.ts, its
 * own stack). The summary gives each step's time, the run's wall time and the load average at
 * its start (other work on the machine slows every step). Ends non-zero when any step fails and
 * prints `N passed, N failed` (steps) as its last line.
 *
 * The first phase runs four lanes at once (issue 30: the whole run under 25 minutes on 2 cores):
 * the type checks; the linters and the unit tests; the fault suite (which spends most of its 3
 * minutes waiting for outages and retries on its own stack), then the benchmarks in smoke mode on
 * a fresh stack of their own; and the fresh test stack with the checks that need no browser
 * (types, advisors, contract + database tests, fuzzing, function tests) and the SPA's production
 * build for the browser tests. Each lane runs its steps one after the other; a lane's output is
 * held and printed whole when each of its steps ends, so steps never interleave. Then the browser
 * tests run alone on the test stack, as they keep both cores busy.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { XMLParser } from 'fast-xml-parser';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR, stackConfig } from './local-stack/config.ts';
import { startStack, stopStack } from './local-stack/cli.ts';
import { supabaseCliBinary } from './local-stack/migrate.ts';
import { CHROMIUM_PATH } from './chromium.ts';
import { e2eDistDir } from '../frontend/e2e/dist-dir.ts';

process.env.TEAMWERK_STACK_OFFSET ??= '10000';
let config = stackConfig();
const deno = path.join(ROOT_DIR, 'node_modules/.bin/deno');
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));

interface Step {
  name: string;
  run: () => Promise<void>;
  needsStack?: boolean;
}

/** The held output of the step running in a lane (see runLane); none for the stack steps, which print as they go. */
const heldOutput = new AsyncLocalStorage<Buffer[]>();

/** Prints `text`, or holds it when called inside a lane's step. */
function log(text: string): void {
  const held = heldOutput.getStore();
  if (held) held.push(Buffer.from(`${text}\n`));
  else console.log(text);
}

// console output of code a lane's step calls (the stack's start, the benchmarks' helpers) is held too
for (const level of ['log', 'info', 'warn', 'error'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    const held = heldOutput.getStore();
    if (held) held.push(Buffer.from(`${args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ')}\n`));
    else original(...args);
  };
}

/**
 * Runs a command; its output is inherited, or held when called inside a lane's step. Rejects on a
 * non-zero exit.
 */
function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT_DIR): Promise<void> {
  const held = heldOutput.getStore();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    if (held) {
      child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    }
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

/**
 * Findings of `supabase db advisors` accepted on purpose (`<lint name>:<schema>.<name>`), each with
 * its reason in `supabase/advisors-allowlist.json`. Errors: throws when an entry has no reason.
 */
function acceptedAdvisorFindings(): Set<string> {
  const file = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'supabase/advisors-allowlist.json'), 'utf8')) as { accepted: { finding: string; reason: string }[] };
  for (const entry of file.accepted) if (!entry.reason?.trim()) throw new Error(`advisors-allowlist.json: ${entry.finding} has no reason`);
  return new Set(file.accepted.map((e) => e.finding));
}

/**
 * The db:advisors step: runs the Supabase CLI's database advisors (security and performance, level
 * warn and above) against the fresh stack and fails on every finding not in
 * supabase/advisors-allowlist.json (printed in full); an ERROR-level finding is never accepted. Errors: rejects when the CLI fails or prints no JSON.
 */
async function advisors(): Promise<void> {
  const result = spawnSync(supabaseCliBinary(), ['db', 'advisors', `--remote=${config.dbUrl}`, '--type', 'all', '--level', 'warn', '--fail-on', 'none'], {
    cwd: ROOT_DIR,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`supabase db advisors exited with ${result.status}: ${result.stderr}`);
  const start = result.stdout.indexOf('[');
  const findings = (start < 0 ? [] : JSON.parse(result.stdout.slice(start))) as { name: string; level?: string; detail: string; metadata?: { schema?: string; name?: string } }[];
  if (start < 0 && result.stdout.trim() && !/no issues/i.test(result.stdout)) throw new Error(`unexpected advisors output: ${result.stdout}`);
  const accepted = acceptedAdvisorFindings();
  const open = findings.filter((f) => f.level === 'ERROR' || !accepted.has(`${f.name}:${f.metadata?.schema}.${f.metadata?.name}`));
  log(`advisors: ${findings.length} finding(s), ${findings.length - open.length} accepted on purpose`);
  if (open.length) {
    log(JSON.stringify(open, null, 2));
    throw new Error(`${open.length} advisor finding(s): ${open.map((f) => f.detail).join('; ')}`);
  }
}

function hasScript(workspace: string, script: string): boolean {
  const pkgFile = path.join(ROOT_DIR, workspace, 'package.json');
  if (!fs.existsSync(pkgFile)) return false;
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { scripts?: Record<string, string> };
  return Boolean(pkg.scripts?.[script]);
}

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM_PATH)) return;
  console.log('Installing Debian chromium for the browser tests ...');
  execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit' });
}

/** Files below `dir` (relative to the root) whose name matches `pattern`, node_modules skipped. */
function findFiles(dir: string, pattern: RegExp): string[] {
  const abs = path.join(ROOT_DIR, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true }) as string[])
    .filter((f) => pattern.test(f) && !f.includes('node_modules'))
    .map((f) => path.join(dir, f));
}

// Deno tests of the stack itself (scripts/local-stack/tests/deno) are driven by their vitest
// wrappers, which give them their sandbox; only the functions' tests run here.
const functionTests = () => findFiles('supabase/functions', /(_test|\.test)\.ts$/);

const stackEnv = () => ({
  TEAMWERK_STACK_OFFSET: String(config.offset),
  VITE_SUPABASE_URL: config.apiUrl,
  VITE_SUPABASE_ANON_KEY: config.anonKey,
});

/** Lane one of the first phase: the type checks. */
const typeChecks: Step[] = [
  { name: 'typecheck', run: () => sh('npx', ['tsc', '-p', 'tsconfig.json']) },
  { name: 'typecheck:frontend', run: () => (hasScript('frontend', 'typecheck') ? sh('npm', ['run', 'typecheck', '-w', 'frontend']) : Promise.resolve()) },
  {
    name: 'typecheck:functions',
    run: async () => {
      const entries = findFiles('supabase/functions', /^[^_/][^/]*\/index\.ts$/);
      if (entries.length) await sh(deno, ['check', '--quiet', ...entries]);
    },
  },
];

/** Lane two of the first phase: the linters, the deploy's dry run and the SPA's unit tests. */
const lintsAndUnits: Step[] = [
  { name: 'lint', run: () => sh('npx', ['eslint', '.']) },
  // the Edge Functions: Deno's linter with deno.json's rules (no-import-prefix: every package through the import map)
  { name: 'lint:functions', run: () => sh(deno, ['lint', '--quiet']) },
  // issue 29: the production deploy validates every input and prints every step without network
  { name: 'deploy:dry-run', run: () => sh('npm', ['run', '--silent', 'deploy', '--', '--dry-run', '--env-file', 'supabase/deploy.env.example']) },
  { name: 'lint:frontend', run: () => (hasScript('frontend', 'lint') ? sh('npm', ['run', 'lint', '-w', 'frontend']) : Promise.resolve()) },
  { name: 'unit:frontend', run: () => (hasScript('frontend', 'test') ? sh('npm', ['run', 'test', '-w', 'frontend']) : Promise.resolve()) },
];

/** The benchmarks' own stack (lane three): a fresh one after the fault suite, stopped at the end. */
const benchOffset = 10500;

/**
 * Lane three of the first phase: the fault suite on its own stack (offset 8000, fault injection
 * on), then the benchmarks in smoke mode on a fresh stack of their own.
 */
const faultsAndBenchmarks: Step[] = [
  { name: 'faults', run: () => sh('npx', ['tsx', 'scripts/faults/run.ts'], { TEAMWERK_STACK_OFFSET: '8000' }) },
  {
    // issue 34: the benchmarks run as written, in their short smoke mode (a small data set, a few
    // runs; the figures are not measurements); stack-start comes last, as it restarts the stack.
    // Not here, to keep the step near 2 minutes on 2 cores: chat-realtime --smoke (about 25 s of
    // its own), spa-size and long-tasks (a production build each, 1-2 min)
    name: 'bench:smoke',
    run: async () => {
      const benchEnv = { TEAMWERK_STACK_OFFSET: String(benchOffset) };
      await stopStack(stackConfig(benchEnv));
      fs.rmSync(stackConfig(benchEnv).dataDir, { recursive: true, force: true });
      // read again after the removal: the fresh data folder gets its own secrets
      await startStack(stackConfig(benchEnv));
      try {
        for (const bench of ['db-queries', 'api', 'map', 'matching', 'analytics', 'email-queue', 'realtime-fanout', 'load', 'stack-start']) {
          await sh('npx', ['tsx', `scripts/bench/${bench}.ts`, '--smoke'], benchEnv);
        }
      } finally {
        await stopStack(stackConfig(benchEnv));
      }
    },
  },
];

/** Whether this run's e2e:build step built the SPA for the browser tests (the e2e step then serves it as it is). */
let e2eBuilt = false;

/**
 * Lane four of the first phase: the fresh test stack and the checks against it that need no
 * browser, then the SPA's production build for the browser tests (frontend/playwright.config.ts).
 */
const stackChecks: Step[] = [
  {
    name: 'stack:fresh',
    run: async () => {
      await stopStack(config);
      fs.rmSync(config.dataDir, { recursive: true, force: true });
      // the fresh data folder gets its own secrets (issue 12 §3); later steps use them
      config = stackConfig();
      const t0 = Date.now();
      await startStack(config);
      log(`fresh local stack (offset ${config.offset}) ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    },
  },
  { name: 'types:fresh', needsStack: true, run: () => sh('npx', ['tsx', 'scripts/gen-types.ts', '--check'], stackEnv()) },
  { name: 'db:advisors', needsStack: true, run: () => advisors() },
  { name: 'contract+db', needsStack: true, run: () => vitestRun('contract+db', []) },
  { name: 'fuzz', needsStack: true, run: () => vitestRun('fuzz', ['--config', 'vitest.fuzz.config.ts']) },
  {
    name: 'functions',
    needsStack: true,
    run: async () => {
      const files = functionTests();
      fs.rmSync(denoResultsFile(), { force: true });
      if (files.length) await sh(deno, ['test', '--allow-all', '--quiet', `--junit-path=${denoResultsFile()}`, ...files], stackEnv());
    },
  },
  {
    name: 'e2e:build',
    needsStack: true,
    run: async () => {
      if (!hasScript('frontend', 'e2e')) return;
      await sh('npx', ['vite', 'build', '--mode', 'stack', '--outDir', e2eDistDir(config.offset), '--emptyOutDir', '--logLevel', 'warn'], stackEnv(), path.join(ROOT_DIR, 'frontend'));
      e2eBuilt = true;
    },
  },
];

/** The second phase: the browser tests alone on the test stack (they keep both cores busy). */
const browserSteps: Step[] = [
  {
    name: 'e2e',
    needsStack: true,
    run: async () => {
      if (!hasScript('frontend', 'e2e')) return;
      ensureChromium();
      fs.rmSync(e2eResultsFile(), { force: true });
      await sh('npm', ['run', 'e2e', '-w', 'frontend'], { ...stackEnv(), ...(e2eBuilt ? { E2E_PREBUILT: '1' } : {}) });
    },
  },
];

/** Where the JSON report of the vitest step `step` goes: the test stack's data folder. */
function vitestResultsFile(step: string): string {
  return path.join(config.dataDir, `vitest-${step.replace(/\W+/g, '-')}.json`);
}

/** Runs vitest against the test stack with its usual output plus a JSON report (vitestOutcomeLines reads it). */
function vitestRun(step: string, args: string[]): Promise<void> {
  const outputFile = vitestResultsFile(step);
  fs.rmSync(outputFile, { force: true });
  return sh('npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`], stackEnv());
}

interface VitestReport { testResults?: { name: string; status: string; message?: string; assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[] }[] }

/** The first non-empty line of an error message, colour codes removed, at most 160 characters. */
function firstLine(message: string): string {
  // eslint-disable-next-line no-control-regex
  return (message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 160);
}

/**
 * Failed tests of the vitest step `step` (file, full name, first line of the error), and files that
 * failed outside a test (a hook, an import), read from its JSON report, so that the end of the
 * output names them (CI keeps only the end). Empty when the report is missing.
 */
function vitestOutcomeLines(step: string): string[] {
  let report: VitestReport;
  try {
    report = JSON.parse(fs.readFileSync(vitestResultsFile(step), 'utf8')) as VitestReport;
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(ROOT_DIR, file.name);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) lines.push(`  ${step} FAILED ${name} › ${a.fullName} — ${firstLine(a.failureMessages?.[0] ?? '')}`);
    if (!failed.length && file.status === 'failed') lines.push(`  ${step} FAILED ${name} — ${firstLine(file.message ?? '')}`);
  }
  return lines;
}

/** Where the JUnit report of the functions step (deno test) goes: the test stack's data folder. */
function denoResultsFile(): string {
  return path.join(config.dataDir, 'deno-functions.xml');
}

interface JUnitCase { '@_name': string; '@_classname': string; failure?: { '@_message'?: string } | string }

/**
 * Failed tests of the functions step (file, name, first line of the failure), read from deno's
 * JUnit report, so that the end of the output names them. A failed step is listed with its test
 * ("test > step"), the test itself only when no step of it failed. Empty when the report is missing.
 */
function denoOutcomeLines(): string[] {
  let xml: string;
  try {
    xml = fs.readFileSync(denoResultsFile(), 'utf8');
  } catch {
    return [];
  }
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' || name === 'testcase' });
  const report = parser.parse(xml) as { testsuites?: { testsuite?: { testcase?: JUnitCase[] }[] } };
  const failed = (report.testsuites?.testsuite ?? []).flatMap((suite) => (suite.testcase ?? []).filter((c) => c.failure !== undefined));
  const names = new Set(failed.map((c) => c['@_name']));
  return failed
    .filter((c) => ![...names].some((n) => n.startsWith(`${c['@_name']} > `)))
    .map((c) => {
      const message = typeof c.failure === 'string' ? c.failure : (c.failure?.['@_message'] ?? '');
      return `  functions FAILED ${c['@_classname'].replace(/^\.\//, '')} › ${c['@_name']} — ${firstLine(message)}`;
    });
}

/** Where the Playwright JSON reporter writes (frontend/playwright.config.ts): the test stack's data folder. */
function e2eResultsFile(): string {
  return path.join(config.dataDir, 'e2e-results.json');
}

interface PwSpec { title: string; file: string; line: number; tests: { status: string; results: { error?: { message?: string } }[] }[] }
interface PwSuite { specs?: PwSpec[]; suites?: PwSuite[] }

/**
 * Failed and flaky browser tests by file, line and title (with the first line of the error), read
 * from the JSON report of the e2e step, so the end of the output names them. Empty when the step did
 * not run or everything passed on the first try.
 */
function e2eOutcomeLines(): string[] {
  let report: { suites?: PwSuite[] };
  try {
    report = JSON.parse(fs.readFileSync(e2eResultsFile(), 'utf8')) as { suites?: PwSuite[] };
  } catch {
    return [];
  }
  const lines: string[] = [];
  const visit = (suite: PwSuite): void => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const message = test.results.find((r) => r.error?.message)?.error?.message ?? '';
        lines.push(`  e2e ${test.status === 'flaky' ? 'FLAKY' : 'FAILED'} ${spec.file}:${spec.line} ${spec.title} — ${firstLine(message)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return lines;
}

/** The vitest steps: their failed tests are named after the summary from their JSON reports. */
const VITEST_STEPS = new Set(['contract+db', 'fuzz']);

interface StepResult {
  name: string;
  ok: boolean;
  seconds: number;
  error?: string;
  /** The last lines of a held step's output when it failed, repeated after the summary (CI keeps only the end). */
  tail?: string[];
}

/** The last `n` non-empty lines of `output`, without terminal colours, each cut to 240 characters. */
function lastLines(output: Buffer, n: number): string[] {
  // eslint-disable-next-line no-control-regex
  const lines = output.toString('utf8').replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim());
  return lines.slice(-n).map((l) => l.slice(0, 240));
}

/**
 * The steps of `lane` chosen on the command line (`npm test -- e2e lint`); all without names.
 * stack:fresh is chosen whenever a step that needs the test stack is, in any lane.
 */
function chosen(lane: Step[]): Step[] {
  if (!only.length) return lane;
  const stackWanted = [...stackChecks, ...browserSteps].some((t) => t.needsStack && only.includes(t.name));
  return lane.filter((s) => only.includes(s.name) || (s.name === 'stack:fresh' && stackWanted));
}

/**
 * Runs a lane's steps one after the other and returns their results. With `hold`, each step's
 * output is held and printed whole, under its heading, when the step ends (lanes run at once).
 * A stack step is skipped as failed once stack:fresh has failed.
 */
async function runLane(lane: Step[], hold: boolean, stackStarted = true): Promise<StepResult[]> {
  const results: StepResult[] = [];
  let stackOk = stackStarted;
  for (const step of lane) {
    if (step.needsStack && !stackOk) {
      results.push({ name: step.name, ok: false, seconds: 0, error: 'local stack did not start' });
      continue;
    }
    const held: Buffer[] = [];
    if (!hold) console.log(`\n==> ${step.name}`);
    const t0 = Date.now();
    let result: StepResult;
    try {
      await (hold ? heldOutput.run(held, step.run) : step.run());
      result = { name: step.name, ok: true, seconds: (Date.now() - t0) / 1000 };
    } catch (err) {
      if (step.name === 'stack:fresh') stackOk = false;
      result = { name: step.name, ok: false, seconds: (Date.now() - t0) / 1000, error: (err as Error).message };
    }
    if (hold) {
      const output = Buffer.concat(held);
      process.stdout.write(`\n==> ${step.name} (${result.seconds.toFixed(1)} s, run beside other steps)\n`);
      process.stdout.write(output);
      if (!result.ok) result.tail = lastLines(output, 12);
    }
    results.push(result);
  }
  return results;
}

async function main(): Promise<void> {
  // what else kept the machine busy when the run began: every step's time depends on it (issue 30)
  const loadAtStart = os.loadavg();
  const t0 = Date.now();
  const lanes = await Promise.all([
    runLane(chosen(typeChecks), true),
    runLane(chosen(lintsAndUnits), true),
    runLane(chosen(faultsAndBenchmarks), true),
    runLane(chosen(stackChecks), true),
  ]);
  const stackOk = !lanes.flat().some((r) => r.name === 'stack:fresh' && !r.ok);
  const firstPhaseSeconds = (Date.now() - t0) / 1000;
  const results = [...lanes.flat(), ...(await runLane(chosen(browserSteps), false, stackOk))];
  await stopStack(config).catch(() => false);
  console.log('\n==> summary');
  console.log(
    `wall time ${((Date.now() - t0) / 1000).toFixed(0)} s (first phase ${firstPhaseSeconds.toFixed(0)} s), ${os.cpus().length} cores, load average at start ${loadAtStart.map((l) => l.toFixed(1)).join(' ')}`,
  );
  for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(22)} ${r.seconds.toFixed(1).padStart(7)} s${r.error ? `  (${r.error.split('\n')[0]})` : ''}`);
  for (const r of results) if (!r.ok && VITEST_STEPS.has(r.name)) for (const line of vitestOutcomeLines(r.name)) console.log(line);
  if (results.some((r) => r.name === 'functions' && !r.ok)) for (const line of denoOutcomeLines()) console.log(line);
  // the other failed steps of the first phase: the end of their output (vitest and deno steps are named above)
  for (const r of results) {
    if (!r.tail?.length || VITEST_STEPS.has(r.name) || r.name === 'functions') continue;
    console.log(`  ${r.name}: the end of its output`);
    for (const line of r.tail) console.log(`    ${line}`);
  }
  // the report of this run's e2e step only (an earlier run's report may still lie there)
  if (results.some((r) => r.name === 'e2e')) for (const line of e2eOutcomeLines()) console.log(line);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch(async (err: unknown) => {
  console.error(err);
  await stopStack(config).catch(() => false);
  process.exit(1);
});
