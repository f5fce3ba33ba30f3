/**
 * `npm start`: the whole product locally, as users get it (issue 33 "Faster first view"). Starts
 * the local stack (with demo data) when it is not running, printing each phase of the first start
 * (Postgres cluster, Supabase bootstrap, migrations, demo data, services) as it begins; builds the
 * SPA for production meanwhile (skipped when sources and settings are those of the last build,
 * recorded in `<stack data>/spa-dist/.build-stamp`); then serves the build at the stack's site URL
 * (`vite preview`, http://127.0.0.1:5173 by default) in the foreground until Ctrl-C, which also
 * stops the stack when this command started it.
 *
 * `npm run dev` (`--dev`): the same stack with the Vite dev server (hot reload) instead of a build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, stackConfig, type StackConfig } from './local-stack/config.ts';
import { startStack, stopStack, statusText } from './local-stack/cli.ts';

const DEMO_ACCOUNTS: [string, string][] = [
  ['free', 'free@teamwerk.test'],
  ['basic', 'basic@teamwerk.test'],
  ['premium', 'premium@teamwerk.test'],
  ['enterprise', 'enterprise@teamwerk.test'],
  ['admin', 'admin@teamwerk.test'],
  ['suspended', 'suspended@teamwerk.test'],
  ['legacy old_user', 'olduser@teamwerk.test'],
  ['unconfirmed', 'unconfirmed@teamwerk.test'],
];

/** What each start phase of the stack daemon (scripts/local-stack/daemon.ts) does, for the progress lines. */
const PHASES: Record<string, string> = {
  postgres: 'Postgres cluster',
  bootstrap: 'Supabase bootstrap (auth, storage, realtime schemas)',
  migrations: 'database migrations',
  seed: 'demo data',
  services: 'PostgREST, Auth, Storage, Realtime, Edge Functions, Stripe sandbox, mailbox',
};

const FRONTEND_DIR = path.join(ROOT_DIR, 'frontend');
/** Inputs of the production build besides the environment: a change to any of them rebuilds. */
const BUILD_INPUTS = ['frontend/src', 'frontend/public', 'frontend/vite', 'frontend/index.html', 'frontend/vite.config.ts', 'frontend/company.demo.json', 'package-lock.json', 'supabase/functions/_shared/site'];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(0).padStart(3)} s`;
}

/** Newest modification time (ms) of the files under `p` (a file or folder; 0 when missing). */
function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** The environment the SPA is built with (the stack's gateway and anon key). */
function buildEnv(config: StackConfig): Record<string, string> {
  return { VITE_SUPABASE_URL: config.apiUrl, VITE_SUPABASE_ANON_KEY: config.anonKey, TEAMWERK_STACK_OFFSET: String(config.offset) };
}

/** Fingerprint of the build inputs and environment: equal fingerprints build the same SPA. */
function buildStamp(config: StackConfig): string {
  const mtimes = BUILD_INPUTS.map((p) => newestMtime(path.join(ROOT_DIR, p)));
  return crypto.createHash('sha256').update(JSON.stringify({ env: buildEnv(config), mtimes })).digest('hex');
}

/** Runs the project's Vite (`args`) in the frontend folder as the leader of its own process group. */
function vite(args: string[], env: Record<string, string>, quiet: boolean): ChildProcess {
  return spawn(path.join(ROOT_DIR, 'node_modules', '.bin', 'vite'), args, {
    cwd: FRONTEND_DIR,
    detached: true,
    stdio: quiet ? ['ignore', 'ignore', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
}

/** Stops a process started by `vite` with everything it started. */
function stopGroup(child: ChildProcess): void {
  if (child.exitCode !== null || !child.pid) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Builds the SPA into `outDir` unless its stamp matches. Resolves with whether it built.
 * Errors: rejects with the build's stderr when `vite build` fails.
 */
async function buildSpa(config: StackConfig, outDir: string): Promise<boolean> {
  const stamp = buildStamp(config);
  const stampFile = path.join(outDir, '.build-stamp');
  if (fs.existsSync(path.join(outDir, 'index.html')) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return false;
  const child = vite(['build', '--mode', 'stack', '--outDir', outDir, '--emptyOutDir'], buildEnv(config), true);
  process.once('exit', () => stopGroup(child));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`SPA build failed:\n${stderr.slice(-4000)}`);
  fs.writeFileSync(stampFile, stamp);
  return true;
}

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const config = stackConfig();
  const t0 = Date.now();
  const outDir = path.join(config.dataDir, 'spa-dist');
  console.log(`Starting the local stack and ${dev ? 'the Vite dev server' : 'building the SPA'} ...`);
  const build = dev ? Promise.resolve(false) : buildSpa(config, outDir);
  build.then(
    (built) => console.log(`${seconds(Date.now() - t0)}  SPA ${built ? 'built' : 'build is current'}`),
    () => undefined,
  );
  const { alreadyRunning } = await startStack(config, 180_000, (phase) => {
    const what = PHASES[phase];
    if (what) console.log(`${seconds(Date.now() - t0)}  stack: ${what} ...`);
  });
  console.log(`${seconds(Date.now() - t0)}  stack ${alreadyRunning ? 'was already running' : 'ready'}`);
  try {
    await build;
  } catch (err) {
    if (!alreadyRunning) await stopStack(config);
    throw err;
  }

  console.log(statusText(config));
  console.log('\nDemo accounts (password for all: Teamwerk!2026):');
  for (const [kind, email] of DEMO_ACCOUNTS) console.log(`  ${kind.padEnd(16)} ${email}`);
  console.log(`\nSPA${dev ? ' (dev server, hot reload)' : ''}: ${config.siteUrl}  (Ctrl-C stops the SPA${alreadyRunning ? '' : ' and the stack'})\n`);

  const server = dev
    ? vite(['--strictPort'], buildEnv(config), false)
    : vite(['preview', '--strictPort', '--outDir', outDir], buildEnv(config), false);
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    stopGroup(server);
    if (!alreadyRunning) {
      console.log('\nStopping the local stack ...');
      await stopStack(config);
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  server.on('exit', (code) => void exit(code ?? 0));
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
