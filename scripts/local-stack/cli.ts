/**
 * `npm run stack:start|stop|status|reset`: manages the local stack daemon.
 * - start: starts the daemon detached (unless running), waits until every piece is healthy,
 *   prints URLs and keys like `supabase status`. Exit 1 when the start fails (log tail shown).
 * - stop: SIGTERM to the daemon, waits for it to exit (SIGKILL after 30 s).
 * - status: prints the status (URLs, keys, secrets); exit 1 when not running.
 * - reset: stop, delete the data folder (and with it the generated secrets), start (new secrets,
 *   bootstrap + migrations + seed from scratch).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stackConfig, ROOT_DIR, type StackConfig } from './config.ts';
import { readSecrets } from './secrets.ts';
import type { StackState } from './daemon.ts';
import { isAlive } from './wait.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Reads the daemon's state file; null when absent or the daemon is dead. */
export function readState(config: StackConfig): StackState | null {
  if (!fs.existsSync(config.stateFile)) return null;
  try {
    const state = JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as StackState;
    return isAlive(state.pid) ? state : null;
  } catch {
    return null;
  }
}

/**
 * `supabase status`-like lines for `config`, with the generated keys and secrets of its data
 * folder (they are local-only: every data folder has its own, see secrets.ts).
 */
export function statusText(config: StackConfig): string {
  const rows: [string, string][] = [
    ['API URL', config.apiUrl],
    ['REST URL', `${config.apiUrl}/rest/v1`],
    ['Auth URL', `${config.apiUrl}/auth/v1`],
    ['Storage URL', `${config.apiUrl}/storage/v1`],
    ['Realtime URL', `${config.apiUrl.replace('http', 'ws')}/realtime/v1`],
    ['Functions URL', `${config.apiUrl}/functions/v1`],
    ['DB URL', config.dbUrl],
    ['Mailbox URL', config.mailboxUrl],
    ['Stripe URL', config.stripeUrl],
    ['SPA URL', config.siteUrl],
    ['JWT secret', config.jwtSecret],
    ['anon key', config.anonKey],
    ['service_role key', config.serviceRoleKey],
    ['Stripe secret key', config.stripeSecretKey],
    ['Stripe webhook secret', config.stripeWebhookSecret],
    ['Resend API key', config.resendApiKey],
    ['Token secret', config.tokenSecret],
    ['Secrets file', config.secretsFile],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padStart(width)}: ${v}`).join('\n');
}

function logTail(config: StackConfig, lines = 40): string {
  if (!fs.existsSync(config.logFile)) return '';
  return fs.readFileSync(config.logFile, 'utf8').split('\n').slice(-lines).join('\n');
}

/**
 * The product's health as `/functions/v1/health` reports it (issue 17), with the service role's
 * details: one line per check, and the jobs that missed their runs. Never throws.
 */
export async function healthText(config: StackConfig): Promise<string> {
  try {
    const response = await fetch(`${config.apiUrl}/functions/v1/health`, {
      headers: { Authorization: `Bearer ${config.serviceRoleKey}` },
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as {
      status: string;
      checks: {
        database: { ok: boolean; latency_ms?: number; error?: string };
        queue: { ok: boolean; pending?: number; oldest_due_seconds?: number; processing_expired?: number; failed_24h?: number };
        cron: { ok: boolean; last_success_at: string | null; jobs?: { job: string | null; ok: boolean; missed_runs: number }[] };
      };
    };
    const { database, queue, cron } = body.checks;
    const mark = (ok: boolean) => (ok ? 'ok   ' : 'STUCK');
    const stuckJobs = (cron.jobs ?? []).filter((j) => !j.ok).map((j) => `${j.job} (${j.missed_runs} runs missed)`);
    return [
      `         Health: ${body.status} (HTTP ${response.status}, /functions/v1/health)`,
      `       database: ${mark(database.ok)} ${database.ok ? `${database.latency_ms ?? '?'} ms` : (database.error ?? '')}`,
      `    email queue: ${mark(queue.ok)} ${queue.pending ?? '?'} pending, oldest due ${queue.oldest_due_seconds ?? '?'} s, ${queue.processing_expired ?? '?'} expired claims, ${queue.failed_24h ?? '?'} failed in 24 h`,
      `           cron: ${mark(cron.ok)} last success ${cron.last_success_at ?? 'never'}${stuckJobs.length ? `; stuck: ${stuckJobs.join(', ')}` : ''}`,
    ].join('\n');
  } catch (err) {
    return `         Health: unknown (${(err as Error).message})`;
  }
}

/**
 * Starts the stack unless it runs; resolves when healthy. `onPhase` is called with each start
 * phase the daemon enters (`postgres`, `bootstrap`, `migrations`, `seed`, `services`), once each.
 * Errors: throws with the log tail when the daemon fails or does not get ready in `timeoutMs`;
 * throws at once when `config` holds other secrets than its data folder (the folder was deleted
 * after `stackConfig()` was read: read it again, as `reset` does).
 */
export async function startStack(
  config: StackConfig = stackConfig(),
  timeoutMs = 180_000,
  onPhase?: (phase: string) => void,
): Promise<{ alreadyRunning: boolean; readyAfterMs?: number }> {
  const existing = readState(config);
  if (existing?.status === 'running') return { alreadyRunning: true };
  if (existing) await stopStack(config);
  if (readSecrets(config.dataDir)?.jwtSecret !== config.jwtSecret) {
    throw new Error(`${config.secretsFile} does not hold this config's secrets (data folder deleted or replaced?): call stackConfig() again`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.rmSync(config.stateFile, { force: true });
  const out = fs.openSync(config.logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'daemon.ts')], {
    cwd: ROOT_DIR,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, TEAMWERK_STACK_OFFSET: String(config.offset) },
  });
  child.unref();
  fs.closeSync(out);
  const deadline = Date.now() + timeoutMs;
  let lastPhase = '';
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 150));
    let state: StackState | null;
    try {
      state = fs.existsSync(config.stateFile) ? (JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as StackState) : null;
    } catch {
      state = null;
    }
    if (state?.phase && state.phase !== lastPhase && state.status === 'starting') {
      lastPhase = state.phase;
      onPhase?.(state.phase);
    }
    if (state?.status === 'running') return { alreadyRunning: false, readyAfterMs: state.readyAfterMs };
    if (state?.status === 'failed' || (child.pid && !isAlive(child.pid))) {
      throw new Error(`local stack failed to start: ${state?.error ?? 'daemon exited'}\n--- log tail ---\n${logTail(config)}`);
    }
  }
  throw new Error(`local stack not ready after ${timeoutMs} ms\n--- log tail ---\n${logTail(config)}`);
}

/** Stops the daemon (and with it every piece); no-op when not running. */
export async function stopStack(config: StackConfig = stackConfig()): Promise<boolean> {
  if (!fs.existsSync(config.stateFile)) return false;
  let state: StackState;
  try {
    state = JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as StackState;
  } catch {
    fs.rmSync(config.stateFile, { force: true });
    return false;
  }
  if (!isAlive(state.pid)) {
    fs.rmSync(config.stateFile, { force: true });
    return false;
  }
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (isAlive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(state.pid)) process.kill(state.pid, 'SIGKILL');
  // The daemon leads its own process group (spawned detached): whatever it started and did not stop
  // in time (PostgREST, Postgres, the functions runner) goes with it, so no orphan keeps a port.
  try {
    process.kill(-state.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is empty, everything stopped cleanly
  }
  fs.rmSync(config.stateFile, { force: true });
  return true;
}

async function main(): Promise<void> {
  const config = stackConfig();
  const command = process.argv[2];
  switch (command) {
    case 'start': {
      const t0 = Date.now();
      const result = await startStack(config);
      console.log(result.alreadyRunning ? 'local stack is already running.' : `Started the local stack in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
      console.log(statusText(config));
      break;
    }
    case 'stop': {
      const stopped = await stopStack(config);
      console.log(stopped ? 'Stopped the local stack.' : 'local stack is not running.');
      break;
    }
    case 'status': {
      const state = readState(config);
      if (!state) {
        console.log('local stack is not running.');
        process.exitCode = 1;
        break;
      }
      console.log(`local stack is ${state.status} (pid ${state.pid}, since ${state.startedAt}).`);
      console.log(statusText(config));
      console.log(await healthText(config));
      break;
    }
    case 'reset': {
      await stopStack(config);
      fs.rmSync(config.dataDir, { recursive: true, force: true });
      // A new data folder gets new secrets.
      const fresh = stackConfig();
      const t0 = Date.now();
      await startStack(fresh);
      console.log(`Reset the local stack (new secrets, bootstrap, migrations, seed) in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
      console.log(statusText(fresh));
      break;
    }
    default:
      console.error('usage: cli.ts start|stop|status|reset');
      process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
