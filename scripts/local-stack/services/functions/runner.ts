/**
 * Edge Functions runner: the Deno program the functions service starts (issue 2 item 6).
 *
 * Serves every `supabase/functions/<name>/index.ts` at `/<name>[/sub/path]` on one port, like
 * the Supabase edge runtime does behind `/functions/v1`. A function module calls
 * `Deno.serve(handler)` at top level (or `export default { fetch }`); the runner imports it with
 * `Deno.serve` temporarily replaced so the handler is captured instead of opening a port.
 * Modules load lazily on first request. To reload, the functions service restarts this whole
 * program when a file changes, so shared code under `_shared/` is fresh too.
 *
 * Runs under Deno only; written so that it also type-checks with the Node project settings.
 *
 * Usage: deno run --allow-all runner.ts <port> <functionsDir> [--no-env-file]
 * (`--no-env-file`: ignore `<functionsDir>/.env`, so the functions see exactly the environment
 * the runner was started with; tests use it to run the functions without a secret.)
 * Prints `functions runner ready on <port>` once listening.
 */

type Handler = (request: Request, info: unknown) => Response | Promise<Response>;
interface ServeOptions {
  port?: number;
  hostname?: string;
  handler?: Handler;
  onListen?: (addr: { hostname: string; port: number }) => void;
  onError?: (error: unknown) => Response | Promise<Response>;
}
interface DenoLike {
  serve: (...args: unknown[]) => unknown;
  args: string[];
  env: { set(key: string, value: string): void; get(key: string): string | undefined };
  readTextFile(path: string): Promise<string>;
  stat(path: string): Promise<{ isFile: boolean }>;
  exit(code: number): never;
  ppid: number;
}

const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
const originalServe = deno.serve.bind(deno);
const originalExit = deno.exit.bind(deno);

const port = Number(deno.args[0] ?? '54332');
const functionsDir = (deno.args[1] ?? 'supabase/functions').replace(/\/$/, '');
const useEnvFile = !deno.args.includes('--no-env-file');

/** Function folder names the runtime accepts (`_shared` and friends are not functions). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

interface Loaded {
  handler: Handler;
  onError?: ServeOptions['onError'];
}

const loaded = new Map<string, Promise<Loaded>>();
/** Where a `Deno.serve` call during an import goes; imports are serialised. */
let capture: ((entry: Loaded) => void) | null = null;
let importChain: Promise<unknown> = Promise.resolve();

function fakeServer(): unknown {
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  return {
    finished,
    addr: { transport: 'tcp', hostname: '127.0.0.1', port },
    ref() {},
    unref() {},
    async shutdown() {
      resolveFinished();
    },
    [Symbol.asyncDispose]: async () => resolveFinished(),
  };
}

/** The replacement `Deno.serve`: accepts every overload and captures the handler. */
function capturingServe(...args: unknown[]): unknown {
  let handler: Handler | undefined;
  let options: ServeOptions = {};
  for (const arg of args) {
    if (typeof arg === 'function') handler = arg as Handler;
    else if (arg && typeof arg === 'object') options = arg as ServeOptions;
  }
  handler ??= options.handler;
  if (!handler) throw new TypeError('Deno.serve: a handler is required');
  if (!capture) {
    console.error('Deno.serve called outside of a function module load; ignored');
    return fakeServer();
  }
  capture({ handler, onError: options.onError });
  return fakeServer();
}

deno.serve = capturingServe;

// `EdgeRuntime.waitUntil(promise)` as on hosted Supabase: background work after the response.
// Pending work is awaited (up to 2 s) when the runner is stopped or reloaded.
const background = new Set<Promise<unknown>>();
(globalThis as unknown as { EdgeRuntime: unknown }).EdgeRuntime = {
  waitUntil(work: Promise<unknown>): void {
    const p = Promise.resolve(work)
      .catch((err: unknown) => console.error('EdgeRuntime.waitUntil task failed:', err))
      .finally(() => background.delete(p));
    background.add(p);
  },
};
// A function may not end the runtime for everyone (the edge runtime ends only its own worker).
deno.exit = ((code?: number) => {
  throw new Error(`Deno.exit(${code ?? ''}) is not supported in Edge Functions`);
}) as DenoLike['exit'];

async function fileExists(path: string): Promise<boolean> {
  try {
    return (await deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Imports a function module and returns its handler; rejects when the module fails to boot. */
function load(name: string): Promise<Loaded> {
  const cached = loaded.get(name);
  if (cached) return cached;
  // `.catch` first: a module that failed to boot must not fail every later import in the chain.
  const promise = (importChain = importChain.catch(() => undefined).then(async () => {
    let captured: Loaded | null = null;
    capture = (entry) => {
      captured ??= entry;
    };
    try {
      const url = new URL(`${functionsDir}/${name}/index.ts`, `file://${cwd()}/`).href;
      const mod = (await import(url)) as { default?: { fetch?: Handler } };
      if (!captured && mod.default && typeof mod.default.fetch === 'function') {
        const fetchHandler = mod.default.fetch.bind(mod.default);
        captured = { handler: fetchHandler };
      }
      if (!captured) throw new Error(`function "${name}" neither called Deno.serve nor exported default { fetch }`);
      return captured as Loaded;
    } finally {
      capture = null;
    }
  })) as Promise<Loaded>;
  loaded.set(name, promise);
  return promise;
}

function cwd(): string {
  return (globalThis as unknown as { Deno: { cwd(): string } }).Deno.cwd();
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function dispatch(request: Request, info: unknown): Promise<Response> {
  const url = new URL(request.url);
  const name = url.pathname.split('/')[1] ?? '';
  if (name === '_internal' && url.pathname === '/_internal/health') return json(200, { status: 'ok' });
  if (!NAME_RE.test(name) || !(await fileExists(`${functionsDir}/${name}/index.ts`))) {
    return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' }, { 'sb-error-code': 'NOT_FOUND' });
  }
  let entry: Loaded;
  try {
    entry = await load(name);
  } catch (err) {
    console.error(`[${name}] boot error:`, err);
    return json(503, { code: 'BOOT_ERROR', message: 'Function failed to boot (please check logs)' }, { 'sb-error-code': 'BOOT_ERROR' });
  }
  try {
    return await entry.handler(request, info);
  } catch (err) {
    console.error(`[${name}] uncaught error:`, err);
    if (entry.onError) {
      try {
        return await entry.onError(err);
      } catch {
        // fall through to the runtime's own answer
      }
    }
    return json(
      500,
      { code: 'EDGE_FUNCTION_ERROR', message: 'Function exited due to an error (please check logs)' },
      { 'sb-error-code': 'EDGE_FUNCTION_ERROR' },
    );
  }
}

/** Reads `<functionsDir>/.env` (KEY=VALUE lines, `#` comments, optional quotes) into the env. */
async function loadEnvFile(): Promise<void> {
  let raw: string;
  try {
    raw = await deno.readTextFile(`${functionsDir}/.env`);
  } catch {
    return;
  }
  for (const line of raw.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const key = m[1]!;
    let value = m[2]!;
    if (/^"(.*)"$/.test(value)) value = value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    else if (/^'(.*)'$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    // Hosted Supabase reserves the SUPABASE_ prefix for its own values.
    if (key.startsWith('SUPABASE_')) continue;
    deno.env.set(key, value);
  }
}

// A function's stray promise rejection or timer error must not take the runner down.
globalThis.addEventListener('unhandledrejection', (event: Event) => {
  event.preventDefault();
  console.error('unhandled rejection in a function:', (event as PromiseRejectionEvent).reason);
});
globalThis.addEventListener('error', (event: Event) => {
  event.preventDefault();
  console.error('uncaught error in a function:', (event as ErrorEvent).error);
});

// When the stack's daemon dies without stopping us (e.g. SIGKILL), we are re-parented: exit so
// the port is free for the next start.
const parentPid = deno.ppid;
setInterval(() => {
  if (deno.ppid !== parentPid) {
    console.error('functions runner: parent process gone, exiting');
    originalExit(0);
  }
}, 1000);

(globalThis as unknown as { Deno: { addSignalListener(signal: string, fn: () => void): void } }).Deno.addSignalListener('SIGTERM', () => {
  const deadline = new Promise((resolve) => setTimeout(resolve, 2000));
  void Promise.race([Promise.allSettled([...background]), deadline]).then(() => originalExit(0));
});

if (useEnvFile) await loadEnvFile();
originalServe({
  port,
  hostname: '127.0.0.1',
  onListen: () => console.log(`functions runner ready on ${port}`),
  handler: dispatch,
});
