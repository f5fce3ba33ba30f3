/**
 * Edge Functions service (issue 2 item 6), mounted by the gateway at `/functions/v1`.
 *
 * Starts one Deno process (the `deno` npm package) running runner.ts, which serves every
 * `supabase/functions/<name>/index.ts` on 127.0.0.1:<ports.functions>, restarts it when a file
 * under supabase/functions changes (after draining requests in flight), and proxies requests to
 * it after the platform checks hosted Supabase does in front of a function:
 * - unknown (or `enabled = false`) function → 404 `{ code: 'NOT_FOUND', message }`;
 * - `verify_jwt` (config.toml, default true): a missing bearer → 401
 *   `{ code: 401, message: 'Missing authorization header' }`, a bad or expired JWT → 401
 *   `{ code: 401, message: 'Invalid JWT' }` (supabase.com/docs/guides/troubleshooting/
 *   edge-function-401-error-response). OPTIONS passes unchecked (CORS preflight).
 *
 * Functions get the env hosted Supabase provides (SUPABASE_URL, SUPABASE_ANON_KEY,
 * SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL), this stack's values of the project's secrets
 * (TOKEN_SECRET, Stripe sandbox, mailbox as Resend, SITE_URL; see env.ts), and
 * `supabase/functions/.env` on top (read by the runner, so a restart picks up changes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, watch } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { HttpService, StackContext } from '../../types.ts';
import { bearerToken, sendJson } from '../../http.ts';
import { verifyJwt } from '../../jwt.ts';
import { ROOT_DIR } from '../../config.ts';
import { FunctionsConfig } from './config-toml.ts';
import { functionsEnv } from './env.ts';

export { functionsEnv };

const FUNCTIONS_DIR = path.join(ROOT_DIR, 'supabase', 'functions');
const RUNNER = path.join(ROOT_DIR, 'scripts', 'local-stack', 'services', 'functions', 'runner.ts');
const DENO_BIN = path.join(ROOT_DIR, 'node_modules', '.bin', 'deno');
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Hosted Supabase ends a request after 150 s without a response (request idle timeout). */
const IDLE_TIMEOUT_MS = 150_000;
const START_TIMEOUT_MS = 30_000;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** Changes under supabase/functions are coalesced for this long before the runner restarts. */
const RELOAD_DEBOUNCE_MS = 150;
/** A restart waits at most this long for requests in flight to finish. */
const DRAIN_TIMEOUT_MS = 3000;

/**
 * The Deno runner process. Reload on change: the service watches supabase/functions itself
 * (fs.watch, recursive) and restarts the runner after the requests in flight have finished;
 * requests arriving meanwhile wait for `ready()`. (Deno's own `--watch` restarts at once,
 * killing requests in flight, and can miss changes made while it restarts.)
 */
class RunnerProcess {
  private child: ChildProcess | null = null;
  private closing = false;
  private restarting = false;
  private restartAgain = false;
  private inflight = 0;
  private idle: (() => void)[] = [];
  private readyPromise: Promise<void> | null = null;
  private isReady = false;
  private markReady: () => void = () => undefined;

  constructor(
    private readonly ctx: StackContext,
    private readonly port: number,
    private readonly extraEnv: Record<string, string>,
  ) {
    this.resetReady();
  }

  /** Makes `ready()` wait again; a still pending promise is kept so earlier waiters are woken too. */
  private resetReady(): void {
    if (!this.isReady && this.readyPromise) return;
    this.isReady = false;
    this.readyPromise = new Promise<void>((resolve) => {
      this.markReady = () => {
        this.isReady = true;
        resolve();
      };
    });
  }

  start(): void {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT_DIR,
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      DENO_NO_UPDATE_CHECK: '1',
      DENO_NO_PROMPT: '1',
      NO_COLOR: '1',
      // tuning knobs of the queue and the health check (EMAIL_QUEUE_BATCH_SIZE, …) set for the
      // daemon reach the functions, like `supabase functions serve --env-file` (the fault suite uses them)
      ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => /^(EMAIL_QUEUE_|HEALTH_)[A-Z_]+$/.test(e[0]) && e[1] !== undefined)),
      ...functionsEnv(this.ctx.config),
      ...this.extraEnv,
    };
    const args = [
      'run',
      '--allow-all',
      '--no-prompt',
      // Only node_modules and local files: never reach out to a registry at run time.
      '--cached-only',
      `--config=${path.join(ROOT_DIR, 'deno.json')}`,
      RUNNER,
      String(this.port),
      FUNCTIONS_DIR,
    ];
    const child = spawn(DENO_BIN, args, { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const onLine = (line: string) => {
      if (line.includes(`functions runner ready on ${this.port}`) && this.child === child) this.markReady();
      if (line.trim()) this.ctx.log('functions', line);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      if (this.closing || this.restarting) return;
      this.ctx.log('functions', `runner exited (code ${code}, signal ${signal}); restarting in 1 s`);
      this.resetReady();
      setTimeout(() => {
        if (!this.closing && !this.child) this.start();
      }, 1000).unref();
    });
    child.on('error', (err) => this.ctx.log('functions', `cannot start deno: ${String(err)}`));
  }

  /** Resolves when the runner is ready; rejects after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.readyPromise!,
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => reject(new Error('functions runner not ready')), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Counts a request forwarded to the runner until `done()` is called. */
  begin(): () => void {
    this.inflight++;
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      this.inflight--;
      if (this.inflight === 0) for (const wake of this.idle.splice(0)) wake();
    };
  }

  /** Restarts the runner once the requests in flight are done (new ones wait meanwhile). */
  async restart(reason: string): Promise<void> {
    if (this.closing) return;
    if (this.restarting) {
      this.restartAgain = true;
      return;
    }
    this.restarting = true;
    try {
      do {
        this.restartAgain = false;
        this.ctx.log('functions', `reloading: ${reason}`);
        this.resetReady();
        if (this.inflight > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
            this.idle.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        await this.kill();
        if (!this.closing) this.start();
      } while (this.restartAgain && !this.closing);
    } finally {
      this.restarting = false;
    }
  }

  private async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const hard = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(hard);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  async stop(): Promise<void> {
    this.closing = true;
    await this.kill();
  }
}

/** Calls `onChange` (debounced) when anything under `dir` changes; returns a stop function. */
function watchTree(dir: string, onChange: (file: string) => void, log: (m: string) => void): () => void {
  let timer: NodeJS.Timeout | null = null;
  let last = '';
  try {
    const watcher = watch(dir, { recursive: true }, (_event, file) => {
      last = String(file ?? '');
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        onChange(last);
      }, RELOAD_DEBOUNCE_MS);
    });
    watcher.on('error', (err) => log(`watching ${dir} failed: ${err.message}`));
    return () => {
      if (timer) clearTimeout(timer);
      watcher.close();
    };
  } catch (err) {
    log(`cannot watch ${dir}: ${(err as Error).message}; functions reload on stack restart only`);
    return () => undefined;
  }
}

/**
 * Starts the runner and resolves once it listens (rejects after 30 s, e.g. when Deno is
 * missing). `extraEnv`: secrets known only once other pieces run (the portal configuration id of
 * the Stripe sandbox, STRIPE_PORTAL_CONFIGURATION), on top of functionsEnv. `handle()` serves `/functions/v1/<name>[/sub/path]`; `close()` stops Deno.
 */
export async function createFunctionsRunner(ctx: StackContext, extraEnv: Record<string, string> = {}): Promise<HttpService> {
  const port = ctx.config.ports.functions;
  if (!existsSync(DENO_BIN)) throw new Error(`deno not found at ${DENO_BIN} (npm install)`);
  const settings = new FunctionsConfig(path.join(ROOT_DIR, 'supabase', 'config.toml'), (m) => ctx.log('functions', m));
  const runner = new RunnerProcess(ctx, port, extraEnv);
  mkdirSync(FUNCTIONS_DIR, { recursive: true });
  runner.start();
  const stopWatching = watchTree(FUNCTIONS_DIR, (file) => void runner.restart(`${file} changed`), (m) => ctx.log('functions', m));
  try {
    await runner.ready(START_TIMEOUT_MS);
  } catch (err) {
    stopWatching();
    await runner.stop();
    throw err;
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  return {
    async handle(req, res, subpath) {
      const name = subpath.split('/')[1] ?? '';
      const exists = NAME_RE.test(name) && existsSync(path.join(FUNCTIONS_DIR, name, 'index.ts'));
      if (!exists || !settings.settings(name).enabled) {
        req.resume();
        sendJson(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' }, { 'sb-error-code': 'NOT_FOUND' });
        return;
      }
      if (req.method !== 'OPTIONS' && settings.settings(name).verifyJwt) {
        const token = bearerToken(req);
        if (!token) {
          req.resume();
          sendJson(res, 401, { code: 401, message: 'Missing authorization header' });
          return;
        }
        try {
          await verifyJwt(token, ctx.config.jwtSecret);
        } catch {
          req.resume();
          sendJson(res, 401, { code: 401, message: 'Invalid JWT' });
          return;
        }
      }
      const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
      await proxy(req, res, { port, path: `${subpath}${query}`, agent, runner }, ctx);
    },
    async close() {
      stopWatching();
      await runner.stop();
      agent.destroy();
    },
  };
}

/** Request bodies up to this size are buffered so a request can be retried across a reload. */
const RETRY_BUFFER_BYTES = 1024 * 1024;

/** Reads the body when it is small and its size is known (or there is none); null = stream it. */
async function bufferedBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (chunked) return null;
  if (length === undefined) return Buffer.alloc(0);
  const n = Number(length);
  if (!Number.isFinite(n) || n > RETRY_BUFFER_BYTES) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Proxies to the runner. When the runner is reloading (connection refused or reset before an
 * answer, as happens while `deno --watch` restarts), a buffered request is retried once the
 * runner is ready again (at most twice); a streamed one gets 502.
 */
async function proxy(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: { port: number; path: string; agent: http.Agent; runner: RunnerProcess },
  ctx: StackContext,
): Promise<void> {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
  }
  // X-Forwarded-For, CF-Connecting-IP and X-Real-IP were set by the gateway (gateway.ts setClientAddress)
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;

  const body = await bufferedBody(req);
  for (let attempt = 0; ; attempt++) {
    try {
      await target.runner.ready(START_TIMEOUT_MS);
    } catch {
      if (!res.headersSent) sendJson(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'The functions runner is not running (see the stack log)' });
      return;
    }
    const done = target.runner.begin();
    const outcome = await forward(req, res, target, headers, body).finally(done);
    if (outcome === 'done') return;
    if (body === null || attempt >= 2 || res.headersSent || res.destroyed) {
      ctx.log('functions', `proxy error: ${outcome.message}`);
      if (!res.headersSent) sendJson(res, 502, { code: 'BAD_GATEWAY', message: 'The functions runner did not answer' });
      else res.destroy();
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: { port: number; path: string; agent: http.Agent },
  headers: http.OutgoingHttpHeaders,
  body: Buffer | null,
): Promise<'done' | Error> {
  return new Promise((resolve) => {
    const upstream = http.request({
      host: '127.0.0.1',
      port: target.port,
      method: req.method,
      path: target.path,
      headers,
      agent: target.agent,
      timeout: IDLE_TIMEOUT_MS,
    });
    let answered = false;
    upstream.on('response', (up) => {
      answered = true;
      const out: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(up.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(key)) out[key] = value;
      }
      res.writeHead(up.statusCode ?? 502, out);
      up.pipe(res);
      up.on('error', () => res.destroy());
      up.on('end', () => resolve('done'));
      res.on('close', () => resolve('done'));
    });
    upstream.on('timeout', () => {
      upstream.destroy();
      sendJson(res, 504, { code: 'IDLE_TIMEOUT', message: 'The function did not respond in time' }, { 'sb-error-code': 'IDLE_TIMEOUT' });
      resolve('done');
    });
    upstream.on('error', (err) => {
      if (answered) {
        res.destroy();
        resolve('done');
      } else {
        resolve(err);
      }
    });
    // The client going away ends the upstream request too (the function sees an aborted signal).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (body === null) req.pipe(upstream);
    else upstream.end(body);
  });
}
