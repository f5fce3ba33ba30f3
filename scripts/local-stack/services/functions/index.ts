/**
 * Edge Functions service (issue 2 item 6), mounted by the gateway at `/functions/v1`.
 *
 * Starts one Deno process (the `deno` npm package) running runner.ts with `--watch`, which
 * serves every `supabase/functions/<name>/index.ts` on 127.0.0.1:<ports.functions>, and proxies
 * requests to it after the platform checks hosted Supabase does in front of a function:
 * - unknown (or `enabled = false`) function → 404 `{ code: 'NOT_FOUND', message }`;
 * - `verify_jwt` (config.toml, default true): a missing bearer → 401
 *   `{ code: 401, message: 'Missing authorization header' }`, a bad or expired JWT → 401
 *   `{ code: 401, message: 'Invalid JWT' }` (supabase.com/docs/guides/troubleshooting/
 *   edge-function-401-error-response). OPTIONS passes unchecked (CORS preflight).
 *
 * Functions get the env hosted Supabase provides (SUPABASE_URL, SUPABASE_ANON_KEY,
 * SUPABASE_SERVICE_ROLE_KEY, SUPABASE_DB_URL), local defaults for the project's secrets
 * (Stripe sandbox, mailbox as Resend, SITE_URL), and `supabase/functions/.env` on top (read by
 * the runner, so a restart picks up changes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { HttpService, StackContext } from '../../types.ts';
import { bearerToken, sendJson } from '../../http.ts';
import { verifyJwt } from '../../jwt.ts';
import { ROOT_DIR, RESEND_API_KEY, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, type StackConfig } from '../../config.ts';
import { FunctionsConfig } from './config-toml.ts';

const FUNCTIONS_DIR = path.join(ROOT_DIR, 'supabase', 'functions');
const RUNNER = path.join(ROOT_DIR, 'scripts', 'local-stack', 'services', 'functions', 'runner.ts');
const DENO_BIN = path.join(ROOT_DIR, 'node_modules', '.bin', 'deno');
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Hosted Supabase ends a request after 150 s without a response (request idle timeout). */
const IDLE_TIMEOUT_MS = 150_000;
const START_TIMEOUT_MS = 30_000;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/**
 * The environment a function sees, as on hosted Supabase plus local defaults for the project's
 * secrets. `supabase/functions/.env` overrides the defaults (applied by the runner).
 */
export function functionsEnv(config: StackConfig): Record<string, string> {
  return {
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_HOST: config.host,
    STRIPE_API_PORT: String(config.ports.stripe),
    STRIPE_API_PROTOCOL: 'http',
    RESEND_API_KEY,
    RESEND_BASE_URL: config.mailboxUrl,
    SITE_URL: config.siteUrl,
  };
}

/** Runner process state: `ready` resolves when the runner listens (again, after a reload). */
class RunnerProcess {
  private child: ChildProcess | null = null;
  private closing = false;
  private readyPromise!: Promise<void>;
  private markReady!: () => void;

  constructor(
    private readonly ctx: StackContext,
    private readonly port: number,
  ) {
    this.resetReady();
  }

  private resetReady(): void {
    this.readyPromise = new Promise<void>((resolve) => (this.markReady = resolve));
  }

  start(): void {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? ROOT_DIR,
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      DENO_NO_UPDATE_CHECK: '1',
      DENO_NO_PROMPT: '1',
      NO_COLOR: '1',
      ...functionsEnv(this.ctx.config),
    };
    const args = [
      'run',
      '--allow-all',
      '--no-prompt',
      // Only node_modules and local files: never reach out to a registry at run time.
      '--cached-only',
      `--config=${path.join(ROOT_DIR, 'deno.json')}`,
      `--watch=${FUNCTIONS_DIR}`,
      '--no-clear-screen',
      RUNNER,
      String(this.port),
      FUNCTIONS_DIR,
    ];
    const child = spawn(DENO_BIN, args, { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const onLine = (line: string) => {
      if (line.includes(`functions runner ready on ${this.port}`)) this.markReady();
      else if (/Restarting/i.test(line)) this.resetReady();
      if (line.trim()) this.ctx.log('functions', line);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.closing) return;
      this.ctx.log('functions', `runner exited (code ${code}, signal ${signal}); restarting in 1 s`);
      this.resetReady();
      setTimeout(() => {
        if (!this.closing) this.start();
      }, 1000).unref();
    });
    child.on('error', (err) => this.ctx.log('functions', `cannot start deno: ${String(err)}`));
  }

  /** Resolves when the runner is ready; rejects after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout;
    return Promise.race([
      this.readyPromise,
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => reject(new Error('functions runner not ready')), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  async stop(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}

/**
 * Starts the runner and resolves once it listens (rejects after 30 s, e.g. when Deno is
 * missing). `handle()` serves `/functions/v1/<name>[/sub/path]`; `close()` stops Deno.
 */
export async function createFunctionsRunner(ctx: StackContext): Promise<HttpService> {
  const port = ctx.config.ports.functions;
  if (!existsSync(DENO_BIN)) throw new Error(`deno not found at ${DENO_BIN} (npm install)`);
  const settings = new FunctionsConfig(path.join(ROOT_DIR, 'supabase', 'config.toml'), (m) => ctx.log('functions', m));
  const runner = new RunnerProcess(ctx, port);
  runner.start();
  try {
    await runner.ready(START_TIMEOUT_MS);
  } catch (err) {
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
      try {
        await runner.ready(START_TIMEOUT_MS);
      } catch {
        req.resume();
        sendJson(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'The functions runner is not running (see the stack log)' });
        return;
      }
      const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
      proxy(req, res, { port, path: `${subpath}${query}`, agent }, ctx);
    },
    async close() {
      await runner.stop();
      agent.destroy();
    },
  };
}

function proxy(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: { port: number; path: string; agent: http.Agent },
  ctx: StackContext,
): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(key)) headers[key] = value;
  }
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;

  const upstream = http.request({
    host: '127.0.0.1',
    port: target.port,
    method: req.method,
    path: target.path,
    headers,
    agent: target.agent,
    timeout: IDLE_TIMEOUT_MS,
  });
  upstream.on('response', (up) => {
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(up.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(key)) out[key] = value;
    }
    res.writeHead(up.statusCode ?? 502, out);
    up.pipe(res);
    up.on('error', () => res.destroy());
  });
  upstream.on('timeout', () => {
    upstream.destroy();
    sendJson(res, 504, { code: 'IDLE_TIMEOUT', message: 'The function did not respond in time' }, { 'sb-error-code': 'IDLE_TIMEOUT' });
  });
  upstream.on('error', (err) => {
    ctx.log('functions', `proxy error: ${String(err)}`);
    if (!res.headersSent) {
      sendJson(res, 502, { code: 'BAD_GATEWAY', message: 'The functions runner did not answer' });
    } else {
      res.destroy();
    }
  });
  // The client going away ends the upstream request too (the function sees an aborted signal).
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
