/**
 * The gateway on 127.0.0.1:54321 (HTTP + WebSocket), the local stand-in for Supabase's Kong:
 * checks the `apikey` (the stack's anon / service_role JWTs or its `sb_publishable_…` /
 * `sb_secret_…` keys), answers CORS for the SPA and
 * routes `/rest/v1` (PostgREST), `/auth/v1`, `/storage/v1`, `/realtime/v1`, `/functions/v1`.
 *
 * Like Supabase's API gateway, some paths are open without an apikey: auth's link targets
 * (verify, callback, authorize, the local OAuth page), storage (it authorises each request
 * itself; public objects and signed URLs need no key) and functions (verify_jwt per function).
 * A present but wrong apikey is always answered 401.
 *
 * With `TEAMWERK_FAULTS=1` (the fault suite's stack only) `/__faults` injects failures or delays
 * for a path prefix (see faults.ts) and `POST /__faults/postgres?down_ms=N` restarts Postgres
 * (service role key as bearer); otherwise those paths do not exist.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { StackConfig } from './config.ts';
import type { HttpService } from './types.ts';
import { sendJson } from './http.ts';
import { FaultSwitch, faultsEnabled, pause, serveFaultControl } from './faults.ts';

export interface GatewayServices {
  auth: HttpService;
  storage: HttpService;
  realtime: HttpService;
  functions: HttpService;
  /** Restarts Postgres (fault suite only: `POST /__faults/postgres`). */
  restartPostgres?: (downMs: number) => Promise<void>;
}

const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, x-upsert, x-metadata, x-supabase-api-version, cache-control, x-region, baggage, sentry-trace, x-retry-count',
  'access-control-expose-headers': 'content-range, content-length, content-type, content-disposition, x-total-count, etag, x-supabase-api-version, location',
  'access-control-max-age': '3600',
};

const OPEN_AUTH_PATHS = ['/verify', '/callback', '/authorize', '/local-oauth'];

type ApiKeyCheck = 'ok' | 'missing' | 'invalid';

function apiKeyOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.apikey;
  if (typeof header === 'string' && header) return header;
  return url.searchParams.get('apikey');
}

/**
 * The legacy JWT an API key stands for: the anon / service_role JWTs stand for themselves, the
 * opaque `sb_publishable_…` / `sb_secret_…` keys for the anon / service_role JWT. Null for an
 * unknown key.
 */
function jwtOfKey(config: StackConfig, key: string | null): string | null {
  if (!key) return null;
  if (key === config.anonKey || key === config.serviceRoleKey) return key;
  if (key === config.publishableKey) return config.anonKey;
  if (key === config.secretKey) return config.serviceRoleKey;
  return null;
}

function checkApiKey(config: StackConfig, key: string | null): ApiKeyCheck {
  if (!key) return 'missing';
  return jwtOfKey(config, key) ? 'ok' : 'invalid';
}

/**
 * The Authorization header the upstream gets, as the CLI's Kong computes it for the opaque keys
 * (supabase/cli `internal/start/templates/kong.yml` request-transformer, `internal/start/start.go`
 * BearerToken): a caller's own JWT is passed on; `Bearer sb_…` (supabase-js sends the key as
 * bearer when there is no session) and a missing header become `Bearer <the JWT the opaque apikey
 * stands for>`. With a legacy JWT apikey the header is left as the client sent it. Functions are
 * the exception, as on hosted Supabase (docs "Securing Edge Functions": verify_jwt accepts only
 * JWTs): the header is passed on unchanged, so a function with `verify_jwt = true` refuses an
 * opaque key.
 */
export function upstreamAuthorization(config: StackConfig, req: IncomingMessage, key: string | null, prefix: string): string | undefined {
  const current = req.headers.authorization;
  if (prefix === 'functions' || !key?.startsWith('sb_')) return current;
  if (current && !current.startsWith('Bearer sb_')) return current;
  const jwt = jwtOfKey(config, key);
  return jwt ? `Bearer ${jwt}` : current;
}

/**
 * Sets the client address headers as Supabase's edge and API gateway do. Hosted projects sit
 * behind Cloudflare, which sets `CF-Connecting-IP` to the connecting address (replacing whatever
 * the client sent) and appends it to `X-Forwarded-For`; the API gateway (Kong, like the CLI's)
 * appends its peer to `X-Forwarded-For` again. Here the socket is both, so the client's
 * `X-Forwarded-For` is kept and the socket address appended, `CF-Connecting-IP` and `X-Real-IP`
 * are the socket address. `Sb-Forwarded-For` reaches Auth only on requests with a secret key
 * (docs "IP address forwarding": the header is honoured with `sb_secret_…` keys only, and only
 * when the project enables it, which Auth checks). The product reads the address with
 * `private.client_ip` / `_shared/client-ip.ts` (one rule).
 */
export function setClientAddress(config: StackConfig, req: IncomingMessage, key: string | null): void {
  const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const sent = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(sent) ? sent.join(', ') : (sent ?? '')).trim();
  req.headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer;
  req.headers['x-real-ip'] = peer;
  req.headers['cf-connecting-ip'] = peer;
  delete req.headers.forwarded;
  if (key !== config.secretKey) delete req.headers['sb-forwarded-for'];
}

function rejectKey(res: ServerResponse, check: ApiKeyCheck): void {
  if (check === 'missing') {
    sendJson(res, 401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
  } else {
    sendJson(res, 401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
  }
}

/** Splits `/prefix/v1/rest` into the mount prefix and the subpath. */
function mount(pathname: string): { prefix: string; subpath: string } | null {
  const m = /^\/(rest|auth|storage|realtime|functions)\/v1(\/.*)?$/.exec(pathname);
  if (!m) return null;
  return { prefix: m[1]!, subpath: m[2] ?? '/' };
}

/** Proxies a request to PostgREST, streaming both bodies. */
function proxyToPostgrest(config: StackConfig, req: IncomingMessage, res: ServerResponse, subpath: string, search: string): void {
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: `${config.host}:${config.ports.postgrest}` };
  delete headers['apikey'];
  const upstream = http.request(
    { host: config.host, port: config.ports.postgrest, method: req.method, path: subpath + search, headers },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) sendJson(res, 502, { message: 'An invalid response was received from the upstream server' });
    else res.destroy();
  });
  req.pipe(upstream);
}

/**
 * Starts the gateway. Returns the server (already listening) once bound.
 * Errors: rejects when the port is taken.
 */
export async function startGateway(
  config: StackConfig,
  services: GatewayServices,
  log: (scope: string, message: string) => void,
): Promise<http.Server> {
  const faults = faultsEnabled() ? new FaultSwitch() : null;
  const server = http.createServer((req, res) => {
    for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? config.host}`);
    if (faults && url.pathname === '/__faults/postgres' && req.method === 'POST') {
      req.resume();
      if (req.headers.authorization !== `Bearer ${config.serviceRoleKey}` || !services.restartPostgres) {
        sendJson(res, 401, { error: 'unauthorized' });
        return;
      }
      const down = Math.min(60_000, Math.max(0, Number(url.searchParams.get('down_ms') ?? '0') || 0));
      sendJson(res, 202, { restarting: true, down_ms: down });
      void services.restartPostgres(down).catch((err: Error) => log('gateway', `postgres restart failed: ${err.message}`));
      return;
    }
    if (faults && url.pathname === '/__faults') {
      void serveFaultControl(req, res, faults, req.headers.authorization === `Bearer ${config.serviceRoleKey}`);
      return;
    }
    const fault = faults?.match(url.pathname) ?? null;
    if (fault) {
      void pause(fault.delay_ms ?? 0).then(() => {
        if (fault.status === undefined) return handle(req, res, url);
        req.resume();
        sendJson(res, fault.status, { message: `injected fault: ${fault.status}` });
      });
      return;
    }
    handle(req, res, url);
  });

  const handle = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
      return;
    }
    if (url.pathname === '/' || url.pathname === '/health') {
      sendJson(res, 200, { name: 'teamwerk-local-stack', status: 'ok' });
      return;
    }
    const target = mount(url.pathname);
    if (!target) {
      sendJson(res, 404, { message: 'no Route matched with those values' });
      return;
    }
    const key = apiKeyOf(req, url);
    const check = checkApiKey(config, key);
    setClientAddress(config, req, key);
    const authorization = upstreamAuthorization(config, req, key, target.prefix);
    if (authorization) req.headers.authorization = authorization;
    const open =
      target.prefix === 'storage' ||
      target.prefix === 'functions' ||
      (target.prefix === 'auth' && OPEN_AUTH_PATHS.some((p) => target.subpath === p || target.subpath.startsWith(`${p}/`)));
    if (check === 'invalid' || (check === 'missing' && !open)) {
      rejectKey(res, check);
      return;
    }
    const run = async () => {
      switch (target.prefix) {
        case 'rest':
          return proxyToPostgrest(config, req, res, target.subpath, url.search);
        case 'auth':
          return services.auth.handle(req, res, target.subpath);
        case 'storage':
          return services.storage.handle(req, res, target.subpath);
        case 'realtime':
          return services.realtime.handle(req, res, target.subpath);
        case 'functions':
          return services.functions.handle(req, res, target.subpath);
      }
    };
    Promise.resolve()
      .then(run)
      .catch((err: unknown) => {
        log('gateway', `${req.method} ${url.pathname} failed: ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' });
        else res.destroy();
      });
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? config.host}`);
    const target = mount(url.pathname);
    const key = apiKeyOf(req, url);
    const check = checkApiKey(config, key);
    setClientAddress(config, req, key);
    if (!target || target.prefix !== 'realtime' || !services.realtime.upgrade || check !== 'ok') {
      const status = !target ? '404 Not Found' : '401 Unauthorized';
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    // Kong's QueryToken (kong.yml realtime-v1-ws): the apikey query parameter becomes the JWT it stands for
    const jwt = jwtOfKey(config, key);
    if (jwt && jwt !== key) {
      url.searchParams.set('apikey', jwt);
      req.url = `${url.pathname}${url.search}`;
    }
    services.realtime.upgrade(req, socket, head, target.subpath);
  });
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.ports.gateway, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
