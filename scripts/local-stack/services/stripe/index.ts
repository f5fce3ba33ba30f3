/**
 * Stripe sandbox: a local stand-in for the Stripe API subset Teamwerk uses, on
 * 127.0.0.1:ports.stripe (12111 + stack offset). The `stripe` SDK talks to it with
 * `{ host: '127.0.0.1', port, protocol: 'http' }`; see README.md in this folder for the surface,
 * the test cards, the billing rules and the sandbox-specific endpoints.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { StackContext, BackgroundService } from '../../types.ts';
import { HttpError, readBody, sendHtml, sendJson } from '../../http.ts';
import { Store } from './store.ts';
import { WebhookDispatcher } from './webhooks.ts';
import { Engine } from './engine.ts';
import { dispatch } from './api.ts';
import { handlePage, indexPage } from './pages.ts';
import { parseForm, type FormObject } from './form.ts';
import { StripeError, unrecognizedUrl } from './errors.ts';

/** API version stamped on events (the version Teamwerk pins). */
export const SANDBOX_API_VERSION = '2023-10-16';

/** The events the product's stripe-webhook function handles (default endpoint subscription). */
export const DEFAULT_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'checkout.session.expired',
  'charge.refunded',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
];

/** Id of the endpoint created from STRIPE_WEBHOOK_URL (like one configured in the dashboard). */
export const DEFAULT_ENDPOINT_ID = 'we_sandbox_default';

export interface StripeSandboxOptions {
  /** Port to listen on; default ctx.config.ports.stripe (0 = any free port). */
  port?: number;
  /** Folder for state.json; default `${ctx.config.dataDir}/stripe`. */
  dataDir?: string;
  /**
   * Default webhook endpoint URL; default env STRIPE_WEBHOOK_URL, else
   * `${ctx.config.apiUrl}/functions/v1/stripe-webhook`. `null`, '' or 'off' disables it.
   */
  webhookUrl?: string | null;
  /** Events for the default endpoint; default env STRIPE_WEBHOOK_EVENTS (comma list) or DEFAULT_WEBHOOK_EVENTS. */
  webhookEvents?: string[];
  /** First retry delay in ms (doubles per attempt); default env STRIPE_SANDBOX_WEBHOOK_RETRY_BASE_MS or 60000. */
  retryBaseMs?: number;
  /** Attempts per delivery; default env STRIPE_SANDBOX_WEBHOOK_MAX_ATTEMPTS or 8. */
  maxAttempts?: number;
  /** Per-attempt timeout in ms; default 10000. */
  deliveryTimeoutMs?: number;
  /** How often due renewals/expiries are processed without a request, ms; default 5000. */
  tickMs?: number;
}

/** The running sandbox (a BackgroundService plus what tests and tools need). */
export interface StripeSandbox extends BackgroundService {
  url: string;
  port: number;
  engine: Engine;
}

function envInt(name: string, fallback: number): number {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Canonical JSON (sorted keys) for idempotency fingerprints. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function apiKeyOf(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(h);
  if (bearer) return bearer[1]!;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(h);
  if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? null;
  return null;
}

/** 401 as Stripe answers it: type invalid_request_error (the SDK raises StripeAuthenticationError). */
function authError(key: string | null): StripeError {
  if (!key) {
    return new StripeError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  const masked = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(4, key.length - 12))}${key.slice(-4)}` : '****';
  return new StripeError(401, 'invalid_request_error', `Invalid API Key provided: ${masked}`);
}

/** Parses body (form-encoded; JSON also accepted) plus query string into one parameter object. */
async function readParams(req: IncomingMessage, url: URL): Promise<FormObject> {
  const query = parseForm(url.search.slice(1));
  if (req.method === 'GET') return query;
  let raw: Buffer;
  try {
    raw = await readBody(req, 1024 * 1024);
  } catch (e) {
    if (e instanceof HttpError) throw new StripeError(413, 'invalid_request_error', 'Request body too large (limit 1 MiB).', {}, true);
    throw e;
  }
  const text = raw.toString('utf8');
  const type = String(req.headers['content-type'] ?? '');
  let body: FormObject;
  if (type.includes('application/json')) {
    try {
      const j = text ? (JSON.parse(text) as unknown) : {};
      if (!j || typeof j !== 'object' || Array.isArray(j)) throw new Error('not an object');
      body = j as FormObject;
    } catch {
      throw new StripeError(400, 'invalid_request_error', 'Invalid request: the body could not be parsed as JSON.', {}, true);
    }
  } else {
    body = parseForm(text);
  }
  return { ...query, ...body };
}

/**
 * Starts the Stripe sandbox HTTP server.
 * Input: the stack context (only `config` and `log` are used; `pool`/`mailer` may be dummies) and
 * optional overrides for tests. Output: the running sandbox; `close()` stops the server, pending
 * webhook timers and writes the state. Errors: rejects when the port is taken.
 */
export async function createStripeSandbox(ctx: StackContext, options: StripeSandboxOptions = {}): Promise<StripeSandbox> {
  const log = (message: string, extra?: unknown) => ctx.log('stripe', message, extra);
  const host = ctx.config.host;
  const { stripeSecretKey, stripeWebhookSecret } = ctx.config;
  const port = options.port ?? ctx.config.ports.stripe;
  const store = new Store(options.dataDir ?? path.join(ctx.config.dataDir, 'stripe'));
  const dispatcher = new WebhookDispatcher(store, {
    secret: stripeWebhookSecret,
    retryBaseMs: options.retryBaseMs ?? envInt('STRIPE_SANDBOX_WEBHOOK_RETRY_BASE_MS', 60_000),
    maxAttempts: options.maxAttempts ?? envInt('STRIPE_SANDBOX_WEBHOOK_MAX_ATTEMPTS', 8),
    timeoutMs: options.deliveryTimeoutMs ?? 10_000,
    log,
  });

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host}:${actualPort}`;
  const engine = new Engine(store, dispatcher, { apiVersion: SANDBOX_API_VERSION, baseUrl, log });

  // The default endpoint is the one configured in Stripe's dashboard for the product.
  const envUrl = process.env.STRIPE_WEBHOOK_URL;
  const defaultUrl = options.webhookUrl !== undefined ? options.webhookUrl : envUrl !== undefined ? envUrl : `${ctx.config.apiUrl}/functions/v1/stripe-webhook`;
  const events =
    options.webhookEvents ??
    (process.env.STRIPE_WEBHOOK_EVENTS ? process.env.STRIPE_WEBHOOK_EVENTS.split(',').map((s) => s.trim()).filter(Boolean) : DEFAULT_WEBHOOK_EVENTS);
  delete store.state.objects[DEFAULT_ENDPOINT_ID];
  if (defaultUrl && defaultUrl !== 'off') {
    engine.createWebhookEndpoint(
      { url: defaultUrl, enabled_events: events, description: 'Default endpoint (STRIPE_WEBHOOK_URL)', metadata: { sandbox_default: 'true' } },
      stripeWebhookSecret,
      DEFAULT_ENDPOINT_ID,
    );
  }
  // Settle what fell due while the sandbox was stopped, then resume pending deliveries.
  engine.runDue();
  dispatcher.resume();
  store.flush();

  const tick = setInterval(() => {
    try {
      engine.runDue();
    } catch (e) {
      log('billing tick failed', e instanceof Error ? e.message : e);
    }
  }, options.tickMs ?? 5000);
  tick.unref();

  /** Simulated outage (sandbox-specific, see README): until when and how /v1 fails. */
  let outage: { until: number; status: number; mode: 'error' | 'close' } | null = null;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (outage && Date.now() < outage.until) {
      req.resume();
      if (outage.mode === 'close') {
        req.socket.destroy();
        return;
      }
      sendJson(res, outage.status, { error: { type: 'api_error', message: 'The Stripe sandbox is simulating an outage (POST /_sandbox/outage).' } });
      return;
    }
    const requestId = store.newId('req');
    const version = String(req.headers['stripe-version'] ?? SANDBOX_API_VERSION);
    const headers: Record<string, string> = { 'request-id': requestId, 'stripe-version': version, 'access-control-allow-origin': '*' };
    const method = req.method ?? 'GET';
    const idemKey = method === 'POST' || method === 'DELETE' ? (req.headers['idempotency-key'] as string | undefined) ?? null : null;
    if (idemKey) headers['idempotency-key'] = idemKey;
    const send = (status: number, body: unknown) => sendJson(res, status, body, headers);
    let fingerprint = '';
    try {
      const key = apiKeyOf(req);
      if (key !== stripeSecretKey) {
        req.resume();
        throw authError(key);
      }
      const raw = await readParams(req, url);
      if (idemKey) {
        if (idemKey.length > 255) throw new StripeError(400, 'invalid_request_error', 'Idempotency-Key must be at most 255 characters long.', {}, true);
        fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${canonical(raw)}`).digest('hex');
        const prior = store.state.idempotency[idemKey];
        if (prior) {
          if (prior.fingerprint !== fingerprint) {
            throw new StripeError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
              {},
              true,
            );
          }
          headers['idempotent-replayed'] = 'true';
          send(prior.status, prior.body);
          return;
        }
      }
      const body = dispatch(engine, method, url.pathname, raw as Record<string, unknown>, { id: requestId, idempotency_key: idemKey }, stripeWebhookSecret);
      if (idemKey) store.state.idempotency[idemKey] = { method, path: url.pathname, fingerprint, status: 200, body, created: Math.floor(Date.now() / 1000) };
      store.save();
      send(200, body);
    } catch (e) {
      if (e instanceof StripeError) {
        const body = e.toJSON();
        if (idemKey && fingerprint && !e.validation && e.status < 500) {
          store.state.idempotency[idemKey] = { method, path: url.pathname, fingerprint, status: e.status, body, created: Math.floor(Date.now() / 1000) };
          store.save();
        }
        send(e.status, body);
        return;
      }
      log(`internal error on ${method} ${url.pathname}`, e instanceof Error ? e.stack : e);
      send(500, { error: { type: 'api_error', message: 'An unexpected error occurred in the Stripe sandbox.' } });
    }
  }

  /** Sandbox-specific helpers under /_sandbox (same API key): clock, deliveries, reset. */
  async function handleSandbox(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    try {
      const key = apiKeyOf(req);
      if (key !== stripeSecretKey) {
        req.resume();
        throw authError(key);
      }
      const p = (await readParams(req, url)) as Record<string, unknown>;
      if (method === 'GET' && url.pathname === '/_sandbox/time') {
        sendJson(res, 200, { object: 'sandbox_clock', now: store.now(), offset: store.state.timeOffset });
        return;
      }
      if (method === 'POST' && url.pathname === '/_sandbox/advance_time') {
        const now = store.now();
        let target: number;
        if (p.to !== undefined) target = Number(p.to);
        else if (p.seconds !== undefined) target = now + Number(p.seconds);
        else throw new StripeError(400, 'invalid_request_error', 'Missing required param: seconds (or to).', { param: 'seconds', code: 'parameter_missing' });
        if (!Number.isInteger(target) || target < now) {
          throw new StripeError(400, 'invalid_request_error', 'The sandbox clock can only move forward (seconds > 0 or to >= now).', { param: p.to !== undefined ? 'to' : 'seconds' });
        }
        store.state.timeOffset += target - now;
        engine.runDue();
        store.save();
        sendJson(res, 200, { object: 'sandbox_clock', now: store.now(), offset: store.state.timeOffset });
        return;
      }
      if (url.pathname === '/_sandbox/outage' && (method === 'POST' || method === 'DELETE')) {
        if (method === 'DELETE') {
          outage = null;
          sendJson(res, 200, { object: 'sandbox_outage', active: false });
          return;
        }
        const seconds = p.seconds === undefined ? 60 : Number(p.seconds);
        const status = p.status === undefined ? 503 : Number(p.status);
        const mode = p.mode === undefined ? 'error' : String(p.mode);
        if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
          throw new StripeError(400, 'invalid_request_error', 'seconds must be an integer between 1 and 3600.', { param: 'seconds' });
        }
        if (!Number.isInteger(status) || status < 500 || status > 599) {
          throw new StripeError(400, 'invalid_request_error', 'status must be a 5xx status code.', { param: 'status' });
        }
        if (mode !== 'error' && mode !== 'close') throw new StripeError(400, 'invalid_request_error', 'mode must be one of error or close.', { param: 'mode' });
        outage = { until: Date.now() + seconds * 1000, status, mode };
        sendJson(res, 200, { object: 'sandbox_outage', active: true, until: Math.floor(outage.until / 1000), status, mode });
        return;
      }
      if (method === 'GET' && url.pathname === '/_sandbox/deliveries') {
        let rows = store.state.deliveries;
        if (typeof p.event === 'string') rows = rows.filter((d) => d.event === p.event);
        if (typeof p.webhook_endpoint === 'string') rows = rows.filter((d) => d.webhook_endpoint === p.webhook_endpoint);
        sendJson(res, 200, { object: 'list', data: rows.slice(-Math.min(1000, Number(p.limit) || 100)).reverse(), has_more: false, url: '/_sandbox/deliveries' });
        return;
      }
      if (method === 'POST' && url.pathname === '/_sandbox/reset') {
        const defaultEp = store.get(DEFAULT_ENDPOINT_ID);
        store.reset();
        if (defaultEp) store.put(defaultEp);
        store.flush();
        sendJson(res, 200, { object: 'sandbox_reset', ok: true });
        return;
      }
      throw unrecognizedUrl(method, url.pathname);
    } catch (e) {
      if (e instanceof StripeError) sendJson(res, e.status, e.toJSON());
      else sendJson(res, 500, { error: { type: 'api_error', message: 'An unexpected error occurred in the Stripe sandbox.' } });
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', baseUrl);
    } catch {
      sendJson(res, 400, { error: { type: 'invalid_request_error', message: 'Malformed request URL.' } });
      return;
    }
    const p = url.pathname;
    const done = (promise: Promise<unknown>) =>
      promise.catch((e: unknown) => {
        log(`request failed: ${req.method} ${p}`, e instanceof Error ? e.message : e);
        if (e instanceof StripeError) sendJson(res, e.status, e.toJSON());
        else if (e instanceof URIError) sendJson(res, 400, { error: { type: 'invalid_request_error', message: 'Malformed request path.' } });
        else sendJson(res, 500, { error: { type: 'api_error', message: 'An unexpected error occurred in the Stripe sandbox.' } });
      });
    if (p === '/v1' || p.startsWith('/v1/')) {
      void done(handleApi(req, res, url));
    } else if (p.startsWith('/_sandbox/')) {
      void done(handleSandbox(req, res, url));
    } else if (p === '/' && req.method === 'GET') {
      sendHtml(res, 200, indexPage(baseUrl));
    } else {
      void done(
        handlePage(engine, req, res, p).then((handled) => {
          if (!handled) {
            req.resume();
            sendJson(res, 404, unrecognizedUrl(req.method ?? 'GET', p).toJSON());
          }
        }),
      );
    }
  });

  log(`Stripe sandbox listening on ${baseUrl} (default webhook endpoint: ${defaultUrl || 'off'})`);

  return {
    url: baseUrl,
    port: actualPort,
    engine,
    async close() {
      clearInterval(tick);
      await dispatcher.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.flush();
    },
  };
}
