/**
 * The local stack's daemon: one Node process that starts every piece in order, writes the state
 * file (`<dataDir>/state.json`) and shuts everything down on SIGTERM/SIGINT.
 * Started detached by `cli.ts start`; its output goes to `<dataDir>/stack.log`.
 *
 * Order: Postgres → bootstrap SQL (fresh cluster) → migrations (Supabase CLI) → the generated
 * service_role key into vault (every start) → seed (fresh) → mailbox → PostgREST → auth,
 * storage, realtime, Stripe sandbox (then its prices, portal configuration and, fresh, the demo
 * subscriptions; then functions), cron/net → gateway.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { stackConfig } from './config.ts';
import { createPool } from './db.ts';
import { startPostgres } from './postgres.ts';
import { startPostgrest } from './postgrest.ts';
import { applyBootstrap, applyMigrations, applySeed, storeVaultSecrets } from './migrate.ts';
import { startGateway } from './gateway.ts';
import type { StackContext } from './types.ts';
import { createMailbox } from './services/mailbox/index.ts';
import { createAuthService } from './services/auth/index.ts';
import { createStorageService } from './services/storage/index.ts';
import { createRealtimeService } from './services/realtime/index.ts';
import { createFunctionsRunner } from './services/functions/index.ts';
import { createStripeSandbox } from './services/stripe/index.ts';
import { createCronWorker } from './services/cron/index.ts';
import pg from 'pg';
import { sandboxStripe, syncPrices } from '../stripe/sync-prices.ts';
import { ensureProductPortalConfiguration } from '../deploy/stripe-setup.ts';
import { uploadDemoFiles } from '../seed/upload-files.ts';
import { seedDemoStripe } from '../seed/stripe-demo.ts';

/** Written to `<dataDir>/state.json`; read by `cli.ts status` and the test setup. */
export interface StackState {
  pid: number;
  status: 'starting' | 'running' | 'failed' | 'stopping';
  phase?: string;
  error?: string;
  startedAt: string;
  readyAfterMs?: number;
  fresh?: boolean;
}

const config = stackConfig();
const started = Date.now();
const closers: { name: string; close: () => Promise<void> }[] = [];
let stopping = false;

function log(scope: string, message: string, extra?: unknown): void {
  const line = `${new Date().toISOString()} [${scope}] ${message}${extra === undefined ? '' : ` ${JSON.stringify(extra)}`}`;
  process.stdout.write(`${line}\n`);
}

function writeState(state: Partial<StackState>): void {
  const current: StackState = fs.existsSync(config.stateFile)
    ? (JSON.parse(fs.readFileSync(config.stateFile, 'utf8')) as StackState)
    : { pid: process.pid, status: 'starting', startedAt: new Date(started).toISOString() };
  const next = { ...current, ...state, pid: process.pid };
  fs.writeFileSync(`${config.stateFile}.tmp`, JSON.stringify(next, null, 2));
  fs.renameSync(`${config.stateFile}.tmp`, config.stateFile);
}

async function shutdown(code: number, keepState = false): Promise<never> {
  if (stopping) return new Promise<never>(() => undefined);
  stopping = true;
  if (!keepState) writeState({ status: 'stopping' });
  for (const c of closers.reverse()) {
    try {
      await Promise.race([c.close(), new Promise((r) => setTimeout(r, 10_000))]);
      log('daemon', `stopped ${c.name}`);
    } catch (err) {
      log('daemon', `error stopping ${c.name}: ${(err as Error).message}`);
    }
  }
  if (!keepState) fs.rmSync(config.stateFile, { force: true });
  process.exit(code);
}

/**
 * The Stripe objects of the product in the sandbox, before the functions and the gateway start:
 * prices (issue 7; idempotent), the customer-portal configuration as the deploy creates it
 * (issue 32 §3, scripts/deploy/stripe-setup.ts) and, on a fresh seed, the demo accounts'
 * customers and subscriptions (issue 32 §4, scripts/seed/stripe-demo.ts; before the gateway, so
 * their webhooks arrive only once the database holds the new ids). Output: the functions' extra
 * env ({} when a step failed; each failure is logged and the stack starts all the same).
 */
async function prepareStripe(fresh: boolean): Promise<Record<string, string>> {
  try {
    const result = await syncPrices(config, { log: (l) => log('stripe', l) });
    log('daemon', result.unchanged ? 'stripe prices in sync' : 'stripe prices synced');
  } catch (err) {
    log('daemon', `sync-prices failed: ${(err as Error).message}`);
    return {};
  }
  const env: Record<string, string> = {};
  const db = new pg.Client({ connectionString: config.dbUrl });
  try {
    await db.connect();
    env.STRIPE_PORTAL_CONFIGURATION = await ensureProductPortalConfiguration(sandboxStripe(config), db, config.siteUrl);
    log('daemon', `stripe portal configuration ${env.STRIPE_PORTAL_CONFIGURATION}`);
    if (fresh) log('daemon', `stripe demo subscriptions: ${await seedDemoStripe(sandboxStripe(config), db)}`);
  } catch (err) {
    log('daemon', `stripe setup failed: ${(err as Error).message}`);
  } finally {
    await db.end().catch(() => undefined);
  }
  return env;
}

async function main(): Promise<void> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.rmSync(config.stateFile, { force: true });
  writeState({ status: 'starting', phase: 'postgres', startedAt: new Date(started).toISOString() });
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));

  const pgHandle = await startPostgres(config, (l) => log('postgres', l));
  closers.push({ name: 'postgres', close: () => pgHandle.stop() });
  log('daemon', `postgres ready (${pgHandle.fresh ? 'fresh cluster' : 'existing cluster'}) after ${Date.now() - started} ms`);

  if (pgHandle.fresh) {
    writeState({ phase: 'bootstrap' });
    await applyBootstrap(config);
    log('daemon', `bootstrap applied after ${Date.now() - started} ms`);
  }
  writeState({ phase: 'migrations' });
  const migrated = await applyMigrations(config);
  log('daemon', `migrations: ${migrated.trim().split('\n').slice(-3).join(' | ')}`);
  await storeVaultSecrets(config);
  if (pgHandle.fresh) {
    writeState({ phase: 'seed' });
    const seeded = await applySeed(config);
    log('daemon', seeded ? `seed applied after ${Date.now() - started} ms` : 'no seed.sql');
  }

  const pool = createPool(config, 20);
  pool.on('error', (err) => log('pool', err.message));
  closers.push({ name: 'pool', close: () => pool.end() });

  writeState({ phase: 'services' });
  const mailbox = await createMailbox({ config, pool, log });
  closers.push({ name: 'mailbox', close: () => mailbox.close() });
  const ctx: StackContext = { config, pool, mailer: mailbox, log };

  // Start the pieces in parallel; whatever started is registered for shutdown even when
  // another piece fails, so a failed start leaves no orphaned process behind.
  // The functions need the sandbox's portal configuration id (STRIPE_PORTAL_CONFIGURATION), so they
  // start once the Stripe objects exist; the other pieces start meanwhile.
  const stripe = createStripeSandbox(ctx);
  const functionsEnv = stripe.then(() => prepareStripe(pgHandle.fresh));
  const pieces = {
    postgrest: startPostgrest(config, (l) => log('postgrest', l)),
    auth: createAuthService(ctx),
    storage: createStorageService(ctx),
    realtime: createRealtimeService(ctx),
    functions: functionsEnv.then((env) => createFunctionsRunner(ctx, env)),
    stripe,
    cron: createCronWorker(ctx),
  };
  const settled = await Promise.allSettled(Object.values(pieces));
  const names = Object.keys(pieces);
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      const piece = r.value as { close?: () => Promise<void>; stop?: () => Promise<void> };
      closers.push({ name: names[i]!, close: () => (piece.close ?? piece.stop!)() });
    }
  });
  const failed = settled.findIndex((r) => r.status === 'rejected');
  if (failed >= 0) throw new Error(`${names[failed]} failed to start: ${String((settled[failed] as PromiseRejectedResult).reason)}`);
  const [postgrest, auth, storage, realtime, functions] = await Promise.all([
    pieces.postgrest, pieces.auth, pieces.storage, pieces.realtime, pieces.functions,
  ]);
  void postgrest;

  const gateway: http.Server = await startGateway(config, { auth, storage, realtime, functions, restartPostgres: (ms) => pgHandle.restart(ms) }, log);
  closers.push({
    name: 'gateway',
    close: () =>
      new Promise<void>((resolve) => {
        gateway.closeAllConnections();
        gateway.close(() => resolve());
      }),
  });

  if (pgHandle.fresh) {
    // seed.sql creates the rows of the demo portfolio files; their bytes go through Storage.
    try {
      log('daemon', `demo files uploaded: ${await uploadDemoFiles()}`);
    } catch (err) {
      log('daemon', `demo file upload failed: ${(err as Error).message}`);
    }
  }

  const readyAfterMs = Date.now() - started;
  writeState({ status: 'running', phase: 'ready', readyAfterMs, fresh: pgHandle.fresh });
  log('daemon', `stack ready after ${readyAfterMs} ms`);
}

main().catch(async (err: unknown) => {
  const message = err instanceof Error ? err.stack ?? err.message : `unexpected failure: ${String(err)} (see the log above)`;
  log('daemon', `start failed: ${message}`);
  writeState({ status: 'failed', error: err instanceof Error ? err.message : message });
  await shutdown(1, true);
});
