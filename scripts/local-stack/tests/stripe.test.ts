/**
 * Contract tests for the Stripe sandbox, driven by the official `stripe` SDK (Node) exactly as
 * the product configures it (API version 2023-10-16, 2 network retries, host/port/protocol).
 * The hosted checkout and portal pages are driven by plain HTTP form posts taken from the HTML.
 *
 * The sandbox is started in-process on a free port with its own temporary data folder, so these
 * tests need neither Postgres nor the rest of the stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { chromium } from 'playwright-core';
import { stackConfig } from '../config.ts';
import type { StackContext } from '../types.ts';
import { createStripeSandbox, type StripeSandbox } from '../services/stripe/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';

/** The sandbox's key and webhook secret: those generated for the data folder of offset 5000 (scripts/local-stack/secrets.ts). */
const { stripeSecretKey: STRIPE_SECRET_KEY, stripeWebhookSecret: STRIPE_WEBHOOK_SECRET } = stackConfig({ TEAMWERK_STACK_OFFSET: '5000' });

type Legacy = Stripe.Subscription & { current_period_start: number; current_period_end: number };
/** Subscriptions as API version 2023-10-16 shapes them (the SDK's types follow the newest version). */
function legacy(s: Stripe.Subscription): Legacy {
  return s as unknown as Legacy;
}
/** Checkout params as the product sends them (payment_method_types is typed away in newer SDK types). */
function sessionParams(p: Record<string, unknown>): Stripe.Checkout.SessionCreateParams {
  return p as unknown as Stripe.Checkout.SessionCreateParams;
}
type LegacyInvoice = Stripe.Invoice & { subscription: string | null; paid: boolean };

interface Received {
  path: string;
  body: string;
  signature: string;
  event: { id: string; type: string; data: { object: Record<string, unknown> } };
}

/** A small webhook receiver: records every POST; `/flaky` answers 500 to the first two attempts per event. */
class Receiver {
  received: Received[] = [];
  private attempts = new Map<string, number>();
  server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><h1>Back in the app</h1>');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: Received['event'];
      try {
        event = JSON.parse(body) as Received['event'];
      } catch {
        res.writeHead(400).end();
        return;
      }
      const p = req.url ?? '/';
      this.received.push({ path: p, body, signature: String(req.headers['stripe-signature'] ?? ''), event });
      if (p === '/flaky') {
        const n = (this.attempts.get(event.id) ?? 0) + 1;
        this.attempts.set(event.id, n);
        if (n <= 2) {
          res.writeHead(500).end('boom');
          return;
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
  of(type: string, objectId?: string, p = '/default'): Received[] {
    return this.received.filter((x) => x.path === p && x.event.type === type && (!objectId || x.event.data.object.id === objectId));
  }
}

async function waitFor<T>(fn: () => T | undefined | false | null, what: string, timeoutMs = 8000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function dummyCtx(dataDir: string): StackContext {
  const config = { ...stackConfig({ TEAMWERK_STACK_OFFSET: '5000' }), dataDir };
  return { config, pool: undefined as never, mailer: undefined as never, log: () => {} };
}

function client(port: number, key = STRIPE_SECRET_KEY): Stripe {
  return new Stripe(key, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    apiVersion: '2023-10-16' as Stripe.LatestApiVersion,
    maxNetworkRetries: 2,
  });
}

/** Extracts the first `<form method="post" action="...">` of a page whose action matches. */
function formAction(html: string, contains = ''): string {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const f = forms.find((a) => a.includes(contains));
  if (!f) throw new Error(`no form with action containing ${contains}`);
  return f;
}

async function postForm(base: string, action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(action, base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

const CARD = { cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Erika Mustermann' };

let sandbox: StripeSandbox;
let stripe: Stripe;
let receiver: Receiver;
let dataDir: string;
let basicPrice: Stripe.Price;
let premiumPrice: Stripe.Price;
let quarterlyPrice: Stripe.Price;

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stripe-sandbox-test-'));
  sandbox = await createStripeSandbox(dummyCtx(dataDir), {
    port: 0,
    webhookUrl: `${receiver.url}/default`,
    webhookEvents: ['*'],
    retryBaseMs: 100,
    maxAttempts: 4,
  });
  stripe = client(sandbox.port);
  const basic = await stripe.products.create({ name: 'Basic', metadata: { plan: 'basic' } });
  const premium = await stripe.products.create({ name: 'Premium', metadata: { plan: 'premium' } });
  basicPrice = await stripe.prices.create({ product: basic.id, unit_amount: 1900, currency: 'eur', recurring: { interval: 'month' }, lookup_key: 'basic_monthly' });
  premiumPrice = await stripe.prices.create({ product: premium.id, unit_amount: 4900, currency: 'eur', recurring: { interval: 'month' }, lookup_key: 'premium_monthly' });
  quarterlyPrice = await stripe.prices.create({
    product: basic.id,
    unit_amount: 5400,
    currency: 'eur',
    recurring: { interval: 'month', interval_count: 3 },
    lookup_key: 'basic_quarterly',
    metadata: { period: 'quarterly' },
  });
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Creates a checkout session for `price` and pays it on the hosted page with `card`. */
async function checkout(
  card: string,
  opts: { customer?: string; locale?: 'de' | 'en'; price?: string; email?: string } = {},
): Promise<{ session: Stripe.Checkout.Session; response: Response; html: string }> {
  const session = await stripe.checkout.sessions.create(sessionParams({
    mode: 'subscription',
    payment_method_types: ['card'],
    line_items: [{ price: opts.price ?? basicPrice.id, quantity: 1 }],
    success_url: 'http://127.0.0.1:5173/signup?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:5173/prices',
    locale: opts.locale ?? 'en',
    ...(opts.customer ? { customer: opts.customer } : { customer_email: opts.email ?? 'buyer@example.com' }),
    client_reference_id: 'user-123',
    metadata: { userId: 'user-123', planType: 'basic' },
    subscription_data: { metadata: { userId: 'user-123' } },
  }));
  const page = await fetch(session.url!);
  const pageHtml = await page.text();
  expect(page.status).toBe(200);
  const response = await postForm(session.url!, formAction(pageHtml, '/pay'), { cardNumber: card, ...CARD });
  const html = response.status === 303 ? '' : await response.text();
  return { session, response, html };
}

let planSwitches: Stripe.BillingPortal.Configuration | null = null;
/** A portal configuration that lets customers switch between the Basic and Premium prices (as scripts/deploy/stripe-setup.ts builds it). */
async function planSwitchConfiguration(): Promise<Stripe.BillingPortal.Configuration> {
  planSwitches ??= await stripe.billingPortal.configurations.create({
    features: {
      payment_method_update: { enabled: true },
      invoice_history: { enabled: true },
      subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
      subscription_update: {
        enabled: true,
        default_allowed_updates: ['price'],
        proration_behavior: 'create_prorations',
        products: [
          { product: basicPrice.product as string, prices: [basicPrice.id, quarterlyPrice.id] },
          { product: premiumPrice.product as string, prices: [premiumPrice.id] },
        ],
      },
    },
    metadata: { purpose: 'plans' },
  });
  return planSwitches;
}

async function customerWithClock(frozen: number, email: string): Promise<{ clock: Stripe.TestHelpers.TestClock; customer: Stripe.Customer }> {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozen, name: email });
  const customer = await stripe.customers.create({ email, name: 'Clock User', test_clock: clock.id });
  return { clock, customer };
}

describe('authentication and errors', () => {
  it('rejects other secret keys with 401', async () => {
    const bad = client(sandbox.port, 'sk_test_not_the_sandbox_key');
    const err = await bad.customers.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(401);
    // Stripe itself answers 401 with type invalid_request_error; the SDK maps 401 to StripeAuthenticationError.
    expect((err as Stripe.errors.StripeError).rawType).toBe('invalid_request_error');
    expect((err as Stripe.errors.StripeError).message).toBe('Invalid API Key provided: sk_test_***************_key');
    const none = await fetch(`${sandbox.url}/v1/customers`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/^You did not provide an API key/);
  });

  it('rejects unknown parameters, top-level and nested, and stores nothing', async () => {
    const before = await stripe.customers.list({ limit: 100 });
    const err = await stripe.customers.create({ email: 'x@example.com', foo: 'bar' } as Stripe.CustomerCreateParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((err as Stripe.errors.StripeError).message).toBe('Received unknown parameter: foo');
    expect((err as Stripe.errors.StripeError).param).toBe('foo');
    expect((err as Stripe.errors.StripeError).statusCode).toBe(400);
    const after = await stripe.customers.list({ limit: 100 });
    expect(after.data.length).toBe(before.data.length);

    const nested = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        line_items: [{ price: basicPrice.id, quantity: 1, colour: 'red' } as Stripe.Checkout.SessionCreateParams.LineItem],
        success_url: 'http://127.0.0.1:5173/ok',
      })
      .catch((e: unknown) => e);
    expect((nested as Stripe.errors.StripeError).message).toBe('Received unknown parameter: line_items[0][colour]');
    const unsupported = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://127.0.0.1:5173/ok', discounts: [{ coupon: 'X' }] })
      .catch((e: unknown) => e);
    expect((unsupported as Stripe.errors.StripeError).statusCode).toBe(400);
    expect((unsupported as Stripe.errors.StripeError).message).toMatch(/^Received unsupported parameter: discounts /);
    expect((await stripe.checkout.sessions.list({ limit: 100 })).data.some((x) => x.success_url === 'http://127.0.0.1:5173/ok')).toBe(false);
  });

  it('answers missing params, bad types and missing objects like Stripe', async () => {
    const missing = await stripe.checkout.sessions.create({ mode: 'subscription' } as Stripe.Checkout.SessionCreateParams).catch((e: unknown) => e);
    expect((missing as Stripe.errors.StripeError).message).toBe('Missing required param: success_url.');
    const badInt = await stripe.prices
      .create({ product: basicPrice.product as string, currency: 'eur', unit_amount: 'lots' as unknown as number })
      .catch((e: unknown) => e);
    expect((badInt as Stripe.errors.StripeError).message).toBe('Invalid integer: lots');
    const nope = await stripe.customers.retrieve('cus_doesnotexist').catch((e: unknown) => e);
    expect(nope).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((nope as Stripe.errors.StripeError).statusCode).toBe(404);
    expect((nope as Stripe.errors.StripeError).code).toBe('resource_missing');
    expect((nope as Stripe.errors.StripeError).message).toBe("No such customer: 'cus_doesnotexist'");
    const sub = await stripe.subscriptions.retrieve('sub_missing').catch((e: unknown) => e);
    expect((sub as Stripe.errors.StripeError).message).toBe("No such subscription: 'sub_missing'");
  });

  it('accepts the bracket forms expand[]= and expand[0]= on raw requests', async () => {
    const { session } = await checkout('4242424242424242', { email: 'raw@example.com' });
    const auth = { authorization: `Bearer ${STRIPE_SECRET_KEY}` };
    const a = (await (await fetch(`${sandbox.url}/v1/checkout/sessions/${session.id}?expand[]=subscription&expand[]=line_items`, { headers: auth })).json()) as {
      subscription: { object: string };
      line_items: { data: unknown[] };
    };
    expect(a.subscription.object).toBe('subscription');
    expect(a.line_items.data).toHaveLength(1);
    const b = (await (await fetch(`${sandbox.url}/v1/checkout/sessions/${session.id}?expand%5B0%5D=customer`, { headers: auth })).json()) as { customer: { object: string } };
    expect(b.customer.object).toBe('customer');
    const bad = await fetch(`${sandbox.url}/v1/checkout/sessions/${session.id}?expand[]=success_url`, { headers: auth });
    expect(bad.status).toBe(400);
  });

  it('leaves nothing changed when a request fails half-way through its checks', async () => {
    const productsBefore = (await stripe.products.list({ limit: 100 })).data.length;
    const neg = await stripe.prices
      .create({ product_data: { name: 'Should not exist' }, unit_amount: -1, currency: 'eur' })
      .catch((e: unknown) => e);
    expect((neg as Stripe.errors.StripeError).param).toBe('unit_amount');
    const dupKey = await stripe.prices
      .create({ product_data: { name: 'Should not exist either' }, unit_amount: 100, currency: 'eur', lookup_key: 'basic_monthly' })
      .catch((e: unknown) => e);
    expect((dupKey as Stripe.errors.StripeError).param).toBe('lookup_key');
    const badDefault = await stripe.products
      .create({ name: 'No default', default_price_data: { currency: 'eur', unit_amount: -5 } })
      .catch((e: unknown) => e);
    expect((badDefault as Stripe.errors.StripeError).param).toBe('default_price_data[unit_amount]');
    expect((await stripe.products.list({ limit: 100 })).data.length).toBe(productsBefore);

    const declined = await stripe.customers.create({ email: 'declined-pm@example.com', payment_method: 'pm_card_chargeDeclined' }).catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((await stripe.customers.list({ email: 'declined-pm@example.com' })).data).toHaveLength(0);

    const c = await stripe.customers.create({ email: 'atomic@example.com', payment_method: 'pm_card_chargeCustomerFail' });
    const strict = await stripe.subscriptions
      .create({ customer: c.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_chargeCustomerFail', payment_behavior: 'error_if_incomplete' })
      .catch((e: unknown) => e);
    expect((strict as Stripe.errors.StripeError).statusCode).toBe(402);
    expect((await stripe.subscriptions.list({ customer: c.id, status: 'all' })).data).toHaveLength(0);
    expect((await stripe.invoices.list({ customer: c.id })).data).toHaveLength(0);

    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_visa', metadata: { v: '1' } });
    const bad = await stripe.subscriptions.update(sub.id, { metadata: { v: '2' }, default_payment_method: 'pm_missing' }).catch((e: unknown) => e);
    expect((bad as Stripe.errors.StripeError).message).toBe("No such PaymentMethod: 'pm_missing'");
    const badItem = await stripe.subscriptions.update(sub.id, { metadata: { v: '3' }, items: [{ id: sub.items.data[0]!.id, price: 'price_missing' }] }).catch((e: unknown) => e);
    expect((badItem as Stripe.errors.StripeError).param).toBe('items[0][price]');
    const after = await stripe.subscriptions.retrieve(sub.id);
    expect(after.metadata).toEqual({ v: '1' });
    expect(after.items.data[0]!.price.id).toBe(basicPrice.id);
    expect(after.default_payment_method).toBe(sub.default_payment_method);
  });

  it('answers unknown endpoints with 404 "Unrecognized request URL"', async () => {
    const err = await stripe.rawRequest('GET', '/v1/foo', {}).catch((e: unknown) => e);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(404);
    expect((err as Stripe.errors.StripeError).message).toMatch(/^Unrecognized request URL \(GET: \/v1\/foo\)\./);
    const wrongMethod = await fetch(`${sandbox.url}/v1/prices/${basicPrice.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}` } });
    expect(wrongMethod.status).toBe(404);
    expect(((await wrongMethod.json()) as { error: { message: string } }).error.message).toMatch(/Unrecognized request URL \(DELETE: \/v1\/prices\//);
  });

  it('survives malformed bodies and answers 400 in Stripe shape', async () => {
    const bodies = ['a[b=1', '%E0%A4%A', 'metadata[x]=1&metadata=2&metadata[y][z]=3', 'a[__proto__][x]=1', '&&&=&'];
    for (const body of bodies) {
      const res = await fetch(`${sandbox.url}/v1/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status, body).toBe(400);
      const json = (await res.json()) as { error: { type: string; message: string } };
      expect(json.error.type).toBe('invalid_request_error');
      expect(json.error.message.length).toBeGreaterThan(5);
    }
    const json = await fetch(`${sandbox.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(json.status).toBe(400);
    // Still alive and correct afterwards.
    expect((await stripe.prices.retrieve(basicPrice.id)).id).toBe(basicPrice.id);
  });

  it('never answers 500 to garbage parameters on any endpoint', async () => {
    const auth = { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' };
    const paths: [string, string][] = [
      ['POST', '/v1/customers'],
      ['POST', '/v1/products'],
      ['POST', '/v1/prices'],
      ['POST', '/v1/checkout/sessions'],
      ['POST', '/v1/subscriptions'],
      ['POST', '/v1/billing_portal/sessions'],
      ['POST', '/v1/billing_portal/configurations'],
      ['GET', '/v1/billing_portal/configurations'],
      ['POST', '/v1/test_helpers/test_clocks'],
      ['POST', '/v1/webhook_endpoints'],
      ['GET', '/v1/customers'],
      ['GET', '/v1/prices'],
      ['GET', '/v1/events'],
      ['GET', '/v1/customers/search'],
      ['GET', '/v1/subscriptions'],
      ['GET', '/v1/invoices'],
    ];
    const garbage = [
      'metadata[a][b]=c',
      'line_items=abc',
      'expand=abc',
      'limit=abc',
      'limit=-1',
      'created[gte]=x',
      'items[0]=x',
      'recurring=1',
      'a[b][c][d][e][f][g]=1',
      'email[]=x',
      'query=%27',
      'query=email:',
      'frozen_time=99999999999999999999',
      'starting_after=cus_nope',
      `metadata[${'k'.repeat(50)}]=v`,
      Array.from({ length: 60 }, (_, i) => `metadata[k${i}]=v`).join('&'),
    ];
    for (const [method, p] of paths) {
      for (const g of garbage) {
        const res =
          method === 'GET'
            ? await fetch(`${sandbox.url}${p}?${g}`, { headers: auth })
            : await fetch(`${sandbox.url}${p}`, { method, headers: auth, body: g });
        expect(res.status, `${method} ${p} ${g}`).toBeLessThan(500);
        if (res.status >= 400) {
          const body = (await res.json()) as { error?: { type?: string; message?: string } };
          expect(body.error?.type, `${method} ${p} ${g}`).toBeTruthy();
        } else {
          await res.arrayBuffer();
        }
      }
    }
    const huge = await fetch(`${sandbox.url}/v1/customers`, { method: 'POST', headers: auth, body: `description=${'x'.repeat(1024 * 1024 + 10)}` });
    expect(huge.status).toBe(413);
    expect((await stripe.prices.retrieve(basicPrice.id)).id).toBe(basicPrice.id);
  });

  it('honours Idempotency-Key: same key → same response, other params → idempotency_error', async () => {
    const key = `idem-${Date.now()}`;
    const a = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: key });
    const b = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers['idempotent-replayed']).toBe('true');
    const list = await stripe.customers.list({ email: 'idem@example.com' });
    expect(list.data).toHaveLength(1);
    const err = await stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('customers, products and prices', () => {
  it('creates, retrieves, updates, searches and lists customers', async () => {
    const c = await stripe.customers.create({ email: 'Anna.Schmidt@example.de', name: 'Anna Schmidt', metadata: { userId: 'u-1', keep: 'yes' } });
    expect(c.id).toMatch(/^cus_/);
    expect(c.object).toBe('customer');
    expect(c.livemode).toBe(false);
    expect(typeof c.created).toBe('number');
    expect(Math.abs(c.created - Date.now() / 1000)).toBeLessThan(60);
    const got = (await stripe.customers.retrieve(c.id)) as Stripe.Customer;
    expect(got.email).toBe('Anna.Schmidt@example.de');
    const upd = await stripe.customers.update(c.id, { name: 'Anna S.', metadata: { userId: '' , extra: '1' } });
    expect(upd.name).toBe('Anna S.');
    expect(upd.metadata).toEqual({ keep: 'yes', extra: '1' });
    const found = await stripe.customers.search({ query: "email:'anna.schmidt@example.de'" });
    expect(found.data.map((x) => x.id)).toEqual([c.id]);
    const byMeta = await stripe.customers.search({ query: "metadata['extra']:'1' AND name~'Anna'" });
    expect(byMeta.data.map((x) => x.id)).toContain(c.id);
    const badQuery = await stripe.customers.search({ query: "colour:'red'" }).catch((e: unknown) => e);
    expect((badQuery as Stripe.errors.StripeError).statusCode).toBe(400);
    const listed = await stripe.customers.list({ email: 'Anna.Schmidt@example.de' });
    expect(listed.data.map((x) => x.id)).toEqual([c.id]);
    const badEmail = await stripe.customers.create({ email: 'not-an-email' }).catch((e: unknown) => e);
    expect((badEmail as Stripe.errors.StripeError).param).toBe('email');
  });

  it('paginates lists with limit and starting_after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await stripe.customers.create({ email: `page${i}@example.com`, metadata: { batch: 'pg' } })).id);
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.data[0]!.id).toBe(ids[4]);
    const second = await stripe.customers.list({ limit: 2, starting_after: first.data[1]!.id });
    expect(second.data[0]!.id).toBe(ids[2]);
    const all: string[] = [];
    for await (const c of stripe.customers.list({ limit: 3 })) all.push(c.id);
    expect(all).toEqual(expect.arrayContaining(ids));
    const back = await stripe.customers.list({ limit: 2, ending_before: ids[2] });
    expect(back.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    // A cursor outside the filtered list still pages by position, as on Stripe.
    const filtered = await stripe.customers.list({ email: 'page1@example.com', starting_after: ids[3] });
    expect(filtered.data.map((c) => c.id)).toEqual([ids[1]]);
    const missingCursor = await stripe.customers.list({ starting_after: 'cus_nope' }).catch((e: unknown) => e);
    expect((missingCursor as Stripe.errors.StripeError).statusCode).toBe(404);
    const bad = await stripe.customers.list({ limit: 1000 }).catch((e: unknown) => e);
    expect((bad as Stripe.errors.StripeError).param).toBe('limit');
  });

  it('creates, lists (active, product, lookup_keys) and retrieves prices', async () => {
    expect(basicPrice.id).toMatch(/^price_/);
    expect(basicPrice.unit_amount).toBe(1900);
    expect(basicPrice.currency).toBe('eur');
    expect(basicPrice.recurring).toMatchObject({ interval: 'month', interval_count: 1 });
    expect(quarterlyPrice.recurring).toMatchObject({ interval: 'month', interval_count: 3 });
    const byKey = await stripe.prices.list({ lookup_keys: ['basic_quarterly', 'premium_monthly'], expand: ['data.product'] });
    expect(byKey.data.map((p) => p.id).sort()).toEqual([quarterlyPrice.id, premiumPrice.id].sort());
    expect((byKey.data.find((p) => p.id === premiumPrice.id)!.product as Stripe.Product).name).toBe('Premium');
    const byProduct = await stripe.prices.list({ product: basicPrice.product as string, active: true });
    expect(byProduct.data.map((p) => p.id).sort()).toEqual([basicPrice.id, quarterlyPrice.id].sort());
    const got = await stripe.prices.retrieve(quarterlyPrice.id, { expand: ['product'] });
    expect(got.metadata).toEqual({ period: 'quarterly' });
    expect((got.product as Stripe.Product).id).toBe(basicPrice.product);
    const taken = await stripe.prices
      .create({ product: basicPrice.product as string, unit_amount: 100, currency: 'eur', lookup_key: 'basic_monthly' })
      .catch((e: unknown) => e);
    expect((taken as Stripe.errors.StripeError).message).toContain('already uses that lookup key');
    const products = await stripe.products.list({ active: true });
    expect(products.data.map((p) => p.name)).toEqual(expect.arrayContaining(['Basic', 'Premium']));
    const inactive = await stripe.prices.create({ product: basicPrice.product as string, unit_amount: 999, currency: 'eur', recurring: { interval: 'year' }, active: false });
    const active = await stripe.prices.list({ active: false });
    expect(active.data.map((p) => p.id)).toContain(inactive.id);
  });
});

describe('updates and deletions', () => {
  it('updates and deletes products, prices and customers', async () => {
    const prod = await stripe.products.create({ id: 'prod_enterprise_test', name: 'Enterprise', metadata: { plan: 'enterprise' } });
    expect(prod.id).toBe('prod_enterprise_test');
    const dup = await stripe.products.create({ id: 'prod_enterprise_test', name: 'Again' }).catch((e: unknown) => e);
    expect((dup as Stripe.errors.StripeError).code).toBe('resource_already_exists');
    const price = await stripe.prices.create({ product: prod.id, unit_amount: 9900, currency: 'eur', recurring: { interval: 'year' } });
    const withDefault = await stripe.products.update(prod.id, { default_price: price.id, description: 'For teams' });
    expect(withDefault.default_price).toBe(price.id);
    expect((await stripe.products.retrieve(prod.id)).description).toBe('For teams');
    const renamed = await stripe.prices.update(price.id, { nickname: 'Enterprise yearly', lookup_key: 'enterprise_yearly', metadata: { tier: '3' } });
    expect(renamed).toMatchObject({ nickname: 'Enterprise yearly', lookup_key: 'enterprise_yearly', metadata: { tier: '3' } });
    const stolen = await stripe.prices.update(basicPrice.id, { lookup_key: 'enterprise_yearly' }).catch((e: unknown) => e);
    expect((stolen as Stripe.errors.StripeError).param).toBe('lookup_key');
    expect((await stripe.prices.retrieve(basicPrice.id)).lookup_key).toBe('basic_monthly');
    const archived = await stripe.prices.update(price.id, { active: false });
    expect(archived.active).toBe(false);
    const inUse = await stripe.products.del(prod.id).catch((e: unknown) => e);
    expect((inUse as Stripe.errors.StripeError).statusCode).toBe(400);
    const lonely = await stripe.products.create({ name: 'Lonely' });
    expect((await stripe.products.del(lonely.id)).deleted).toBe(true);
    const gone = await stripe.products.retrieve(lonely.id).catch((e: unknown) => e);
    expect((gone as Stripe.errors.StripeError).message).toBe(`No such product: '${lonely.id}'`);

    const c = await stripe.customers.create({ email: 'bye@example.com' });
    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_visa' });
    const del = await stripe.customers.del(c.id);
    expect(del).toMatchObject({ id: c.id, object: 'customer', deleted: true });
    expect(((await stripe.customers.retrieve(c.id)) as Stripe.DeletedCustomer).deleted).toBe(true);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
    const update = await stripe.customers.update(c.id, { name: 'Ghost' }).catch((e: unknown) => e);
    expect((update as Stripe.errors.StripeError).statusCode).toBe(404);
  });
});

describe('checkout', () => {
  it('shows an English page, pays with 4242, creates an active subscription and redirects', async () => {
    const { session, response } = await checkout('4242 4242 4242 4242');
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${sandbox.url}/checkout/${session.id}`);
    expect(session.payment_status).toBe('unpaid');
    expect(session.status).toBe('open');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://127.0.0.1:5173/signup?session_id=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'line_items'] });
    expect(done.payment_status).toBe('paid');
    expect(done.status).toBe('complete');
    expect(done.customer).toMatch(/^cus_/);
    expect(done.metadata).toEqual({ userId: 'user-123', planType: 'basic' });
    expect(done.client_reference_id).toBe('user-123');
    expect(done.line_items!.data[0]!.price!.id).toBe(basicPrice.id);
    const sub = done.subscription as Legacy;
    expect(sub.id).toMatch(/^sub_/);
    expect(sub.status).toBe('active');
    expect(sub.metadata).toEqual({ userId: 'user-123' });
    expect(sub.items.data[0]!.price.id).toBe(basicPrice.id);
    expect(sub.items.data[0]!.price.unit_amount).toBe(1900);
    const start = new Date(sub.current_period_start * 1000);
    const end = new Date(sub.current_period_end * 1000);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(sub.cancel_at_period_end).toBe(false);
    const customer = (await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer;
    expect(customer.email).toBe('buyer@example.com');

    const invoices = await stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data).toHaveLength(1);
    const inv = invoices.data[0] as LegacyInvoice;
    expect(inv.id).toMatch(/^in_/);
    expect(inv.status).toBe('paid');
    expect(inv.amount_paid).toBe(1900);
    expect((await stripe.invoices.retrieve(inv.id)).status).toBe('paid');

    // Double submit: the second post does not pay again.
    const twice = await postForm(session.url!, `/checkout/${session.id}/pay`, { cardNumber: '4242424242424242', ...CARD });
    expect(twice.status).toBe(303);
    expect(twice.headers.get('location')).toBe(`http://127.0.0.1:5173/signup?session_id=${session.id}`);
    expect((await stripe.subscriptions.list({ customer: done.customer as string })).data).toHaveLength(1);
    // The page now says the session is complete; paying again is impossible.
    const again = await fetch(session.url!);
    expect(await again.text()).toContain('This checkout session is complete');

    const completed = await waitFor(() => receiver.of('checkout.session.completed', session.id)[0], 'checkout.session.completed');
    await waitFor(() => receiver.of('customer.subscription.created', sub.id)[0], 'customer.subscription.created');
    await waitFor(() => receiver.of('invoice.paid', inv.id)[0], 'invoice.paid');
    const ev = await stripe.webhooks.constructEventAsync(completed.body, completed.signature, STRIPE_WEBHOOK_SECRET);
    expect(ev.type).toBe('checkout.session.completed');
    expect(ev.api_version).toBe('2023-10-16');
    expect(ev.livemode).toBe(false);
    expect((ev.data.object as Stripe.Checkout.Session).payment_status).toBe('paid');
  });

  it('shows the German page and declines 4000 0000 0000 0002 without changing anything', async () => {
    const customer = await stripe.customers.create({ email: 'abgelehnt@example.de' });
    const session = await stripe.checkout.sessions.create(
      sessionParams({
        mode: 'subscription',
        payment_method_types: ['card'],
        line_items: [{ price: premiumPrice.id, quantity: 1 }],
        success_url: 'http://127.0.0.1:5173/de/signup?session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://127.0.0.1:5173/de/prices',
        locale: 'de',
        customer: customer.id,
      }),
    );
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('lang="de"');
    expect(page).toContain('Zahlungspflichtig abonnieren');
    expect(page).toContain('49,00');
    expect(page).toContain('href="http://127.0.0.1:5173/de/prices"');
    const res = await postForm(session.url!, formAction(page, '/pay'), { cardNumber: '4000 0000 0000 0002', ...CARD });
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain('Ihre Karte wurde abgelehnt.');
    expect(html).toContain('<form method="post"');
    const after = await stripe.checkout.sessions.retrieve(session.id);
    expect(after.payment_status).toBe('unpaid');
    expect(after.status).toBe('open');
    expect(after.subscription).toBeNull();
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);

    const en = await checkout('4000000000000002');
    expect(en.response.status).toBe(402);
    expect(en.html).toContain('Your card was declined.');
    expect(en.html).toContain('Pay and subscribe');
    const bad = await postForm(en.session.url!, `/checkout/${en.session.id}/pay`, { cardNumber: '4242 4242 4242 4241', ...CARD });
    expect(await bad.text()).toContain('Your card number is incorrect.');
  });

  it('pays once when the form is submitted twice at the same time', async () => {
    const customer = await stripe.customers.create({ email: 'double@example.com' });
    const session = await stripe.checkout.sessions.create(
      sessionParams({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://127.0.0.1:5173/ok?s={CHECKOUT_SESSION_ID}', customer: customer.id }),
    );
    const [a, b] = await Promise.all([
      postForm(session.url!, `/checkout/${session.id}/pay`, { cardNumber: '4242424242424242', ...CARD }),
      postForm(session.url!, `/checkout/${session.id}/pay`, { cardNumber: '4242424242424242', ...CARD }),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
  });

  it('validates session parameters', async () => {
    const both = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://x.test/', customer: 'cus_x', customer_email: 'a@b.de' })
      .catch((e: unknown) => e);
    expect((both as Stripe.errors.StripeError).message).toBe('You may only specify one of these parameters: customer, customer_email.');
    const noCustomer = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://x.test/', customer: 'cus_missing' })
      .catch((e: unknown) => e);
    expect((noCustomer as Stripe.errors.StripeError).message).toBe("No such customer: 'cus_missing'");
    expect((noCustomer as Stripe.errors.StripeError).param).toBe('customer');
    const badLocale = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://x.test/', locale: 'xx' as 'de' })
      .catch((e: unknown) => e);
    expect((badLocale as Stripe.errors.StripeError).param).toBe('locale');
    const expired = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: basicPrice.id, quantity: 1 }], success_url: 'http://x.test/' });
    const e = await stripe.checkout.sessions.expire(expired.id);
    expect(e.status).toBe('expired');
    expect((await fetch(expired.url!)).status).toBe(410);
  });
});

describe('webhooks', () => {
  it('signs with the v1 scheme; a tampered body or a stale timestamp fails verification', async () => {
    const c = await stripe.customers.create({ email: 'sig@example.com' });
    const got = await waitFor(() => receiver.of('customer.created', c.id)[0], 'customer.created');
    const t = Number(/t=(\d+)/.exec(got.signature)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);
    expect(got.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const ok = await stripe.webhooks.constructEventAsync(got.body, got.signature, STRIPE_WEBHOOK_SECRET, 300);
    expect(ok.id).toMatch(/^evt_/);
    expect(ok.request).toEqual({ id: expect.stringMatching(/^req_/), idempotency_key: expect.any(String) });
    const tampered = got.body.replace('sig@example.com', 'evil@example.com');
    await expect(stripe.webhooks.constructEventAsync(tampered, got.signature, STRIPE_WEBHOOK_SECRET, 300)).rejects.toBeInstanceOf(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const stale = stripe.webhooks.generateTestHeaderString({ payload: got.body, secret: STRIPE_WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 });
    await expect(stripe.webhooks.constructEventAsync(got.body, stale, STRIPE_WEBHOOK_SECRET, 300)).rejects.toThrow(/tolerance/i);
    await expect(stripe.webhooks.constructEventAsync(got.body, got.signature, 'whsec_wrong', 300)).rejects.toBeInstanceOf(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('retries deliveries that answer 500 with backoff and records every attempt', async () => {
    const ep = await stripe.webhookEndpoints.create({ url: `${receiver.url}/flaky`, enabled_events: ['customer.updated'] });
    expect(ep.id).toMatch(/^we_/);
    expect(ep.secret).toBe(STRIPE_WEBHOOK_SECRET);
    const c = await stripe.customers.create({ email: 'retry@example.com' });
    await stripe.customers.update(c.id, { name: 'Retry Me' });
    const hits = await waitFor(() => {
      const h = receiver.of('customer.updated', c.id, '/flaky');
      return h.length >= 3 ? h : null;
    }, 'three attempts');
    expect(new Set(hits.map((h) => h.event.id)).size).toBe(1);
    type Deliveries = { data: { webhook_endpoint: string; status: string; attempts: { status: number }[] }[] };
    const deliveriesOf = async (eventId: string) =>
      (await fetch(`${sandbox.url}/_sandbox/deliveries?event=${eventId}`, { headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}` } }).then((r) => r.json())) as Deliveries;
    let rec: Deliveries['data'][number] | undefined;
    for (let i = 0; i < 100 && rec?.status !== 'succeeded'; i++) {
      rec = (await deliveriesOf(hits[0]!.event.id)).data.find((d) => d.webhook_endpoint === ep.id);
      if (rec?.status !== 'succeeded') await new Promise((r) => setTimeout(r, 50));
    }
    expect(rec!.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(rec!.status).toBe('succeeded');
    await expect.poll(async () => (await stripe.events.retrieve(hits[0]!.event.id)).pending_webhooks).toBe(0);
    await stripe.webhookEndpoints.del(ep.id);
  });

  it('gives up after the bounded number of attempts against an unreachable endpoint', async () => {
    const ep = await stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/unreachable', enabled_events: ['product.created'] });
    const prod = await stripe.products.create({ name: 'Unreachable' });
    const ev = (await stripe.events.list({ type: 'product.created', limit: 5 })).data.find((e) => (e.data.object as Stripe.Product).id === prod.id)!;
    const deadline = Date.now() + 8000;
    let status = 'pending';
    let attempts = 0;
    while (Date.now() < deadline && status === 'pending') {
      await new Promise((r) => setTimeout(r, 200));
      const d = (await fetch(`${sandbox.url}/_sandbox/deliveries?event=${ev.id}&webhook_endpoint=${ep.id}`, { headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}` } }).then((r) =>
        r.json(),
      )) as { data: { status: string; attempts: unknown[] }[] };
      status = d.data[0]!.status;
      attempts = d.data[0]!.attempts.length;
    }
    expect(status).toBe('failed');
    expect(attempts).toBe(4);
    const failed = await stripe.events.list({ delivery_success: false, limit: 100 });
    expect(failed.data.map((e) => e.id)).toContain(ev.id);
    await stripe.webhookEndpoints.del(ep.id);
  });

  it('lists (type, created, pagination) and retrieves events, and resends one', async () => {
    const t0 = Math.floor(Date.now() / 1000) - 1;
    const c = await stripe.customers.create({ email: 'events@example.com' });
    await stripe.customers.update(c.id, { name: 'Events' });
    const created = await stripe.events.list({ type: 'customer.created', created: { gte: t0 }, limit: 100 });
    const ev = created.data.find((e) => (e.data.object as Stripe.Customer).id === c.id)!;
    expect(ev).toBeDefined();
    expect(created.data.every((e) => e.type === 'customer.created')).toBe(true);
    const wildcard = await stripe.events.list({ type: 'customer.*', created: { gte: t0 }, limit: 100 });
    expect(wildcard.data.map((e) => e.type)).toEqual(expect.arrayContaining(['customer.created', 'customer.updated']));
    const page1 = await stripe.events.list({ limit: 2 });
    const page2 = await stripe.events.list({ limit: 2, starting_after: page1.data[1]!.id });
    expect(page2.data[0]!.id).not.toBe(page1.data[1]!.id);
    expect(page1.has_more).toBe(true);
    const updated = (await stripe.events.list({ type: 'customer.updated', limit: 10 })).data.find((e) => (e.data.object as Stripe.Customer).id === c.id)!;
    expect(updated.data.previous_attributes).toEqual({ name: null });
    const got = await stripe.events.retrieve(ev.id);
    expect(got).toMatchObject({ id: ev.id, object: 'event', type: 'customer.created', livemode: false, api_version: '2023-10-16' });
    await waitFor(() => receiver.of('customer.created', c.id)[0], 'first delivery');
    const before = receiver.received.filter((r) => r.event.id === ev.id).length;
    await stripe.rawRequest('POST', `/v1/events/${ev.id}/resend`, {});
    await waitFor(() => receiver.received.filter((r) => r.event.id === ev.id).length > before || null, 'resent delivery');
    const missing = await stripe.events.retrieve('evt_missing').catch((e: unknown) => e);
    expect((missing as Stripe.errors.StripeError).statusCode).toBe(404);
  });
});

describe('subscriptions', () => {
  it('updates price and metadata, cancels at period end and now, lists by customer and status', async () => {
    const { session } = await checkout('4242424242424242', { email: 'subs@example.com' });
    const done = await stripe.checkout.sessions.retrieve(session.id);
    const subId = done.subscription as string;
    const sub = legacy(await stripe.subscriptions.retrieve(subId));
    const upd = legacy(await stripe.subscriptions.update(subId, {
      items: [{ id: sub.items.data[0]!.id, price: premiumPrice.id }],
      proration_behavior: 'none',
      metadata: { plan: 'premium' },
    }));
    expect(upd.items.data).toHaveLength(1);
    expect(upd.items.data[0]!.price.id).toBe(premiumPrice.id);
    expect(upd.current_period_end).toBe(sub.current_period_end);
    expect(upd.metadata).toEqual({ userId: 'user-123', plan: 'premium' });
    const upEvent = await waitFor(() => receiver.of('customer.subscription.updated', subId).find((r) => (r.event.data.object as { metadata: Record<string, string> }).metadata.plan === 'premium'), 'updated');
    expect((upEvent.event.data as { previous_attributes?: Record<string, unknown> }).previous_attributes).toHaveProperty('items');

    const preview = await stripe.invoices.createPreview({ subscription: subId });
    expect(preview.billing_reason).toBe('upcoming');
    expect(preview.amount_due).toBe(4900);
    expect(preview.lines.data[0]!.period.start).toBe(sub.current_period_end);
    expect((await stripe.invoices.list({ subscription: subId })).data).toHaveLength(1);

    const atEnd = await stripe.subscriptions.update(subId, { cancel_at_period_end: true });
    const none = await stripe.invoices.createPreview({ subscription: subId }).catch((e: unknown) => e);
    expect((none as Stripe.errors.StripeError).code).toBe('invoice_upcoming_none');
    expect(atEnd.cancel_at_period_end).toBe(true);
    expect(atEnd.status).toBe('active');
    expect(atEnd.cancel_at).toBe(sub.current_period_end);
    expect(atEnd.canceled_at).not.toBeNull();

    const list = await stripe.subscriptions.list({ customer: done.customer as string });
    expect(list.data.map((s) => s.id)).toEqual([subId]);
    const active = await stripe.subscriptions.list({ status: 'active', limit: 100 });
    expect(active.data.map((s) => s.id)).toContain(subId);

    const canceled = await stripe.subscriptions.cancel(subId);
    expect(canceled.status).toBe('canceled');
    expect(canceled.ended_at).not.toBeNull();
    expect(canceled.canceled_at).not.toBeNull();
    await waitFor(() => receiver.of('customer.subscription.deleted', subId)[0], 'deleted');
    expect((await stripe.subscriptions.list({ customer: done.customer as string })).data).toHaveLength(0);
    expect((await stripe.subscriptions.list({ customer: done.customer as string, status: 'canceled' })).data.map((s) => s.id)).toEqual([subId]);
    const again = await stripe.subscriptions.update(subId, { cancel_at_period_end: false }).catch((e: unknown) => e);
    expect((again as Stripe.errors.StripeError).statusCode).toBe(400);
    const badItem = await stripe.subscriptions.update(subId, { metadata: { a: 'b' } });
    expect(badItem.metadata.a).toBe('b');
  });

  it('creates a subscription through the API with a test payment method and rejects a bad item', async () => {
    const c = await stripe.customers.create({ email: 'api-sub@example.com' });
    const sub = legacy(await stripe.subscriptions.create({ customer: c.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_visa' }));
    expect(sub.status).toBe('active');
    const err = await stripe.subscriptions.update(sub.id, { items: [{ id: 'si_nope', price: premiumPrice.id }] }).catch((e: unknown) => e);
    expect((err as Stripe.errors.StripeError).message).toBe("No such subscription item: 'si_nope'");
    const mixed = await stripe.subscriptions.update(sub.id, { items: [{ price: quarterlyPrice.id }] }).catch((e: unknown) => e);
    expect((mixed as Stripe.errors.StripeError).message).toMatch(/interval fields must match/);
    const unchanged = await stripe.subscriptions.retrieve(sub.id);
    expect(unchanged.items.data.map((i) => i.price.id)).toEqual([basicPrice.id]);
    const pms = await stripe.paymentMethods.list({ customer: c.id });
    expect(pms.data.map((pm) => pm.id)).toEqual([sub.default_payment_method]);
    expect(pms.data[0]!.card?.last4).toBe('4242');
    const extra = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: c.id });
    expect(extra.id).toMatch(/^pm_/);
    expect(extra.customer).toBe(c.id);
    await stripe.customers.update(c.id, { invoice_settings: { default_payment_method: extra.id } });
    const detached = await stripe.paymentMethods.detach(extra.id);
    expect(detached.customer).toBeNull();
    expect(((await stripe.customers.retrieve(c.id)) as Stripe.Customer).invoice_settings.default_payment_method).toBeNull();
    const notAttached = await stripe.paymentMethods.detach(extra.id).catch((e: unknown) => e);
    expect((notAttached as Stripe.errors.StripeError).statusCode).toBe(400);
    const declined = await stripe.subscriptions
      .create({ customer: c.id, items: [{ price: premiumPrice.id }], default_payment_method: 'pm_card_chargeDeclined' })
      .catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((declined as Stripe.errors.StripeError).statusCode).toBe(402);
    expect((declined as Stripe.errors.StripeError).code).toBe('card_declined');
  });
});

describe('refunds (issue 12 finding 7)', () => {
  it('a paid invoice has a charge and payment intent; a refund by payment intent refunds it once, idempotently, with charge.refunded', async () => {
    const c = await stripe.customers.create({ email: 'refund@example.com' });
    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: premiumPrice.id }], default_payment_method: 'pm_card_visa' });
    const invoice = (await stripe.invoices.retrieve(sub.latest_invoice as string)) as unknown as { charge: string; payment_intent: string; amount_paid: number };
    expect(invoice.charge).toMatch(/^ch_/);
    const pi = await stripe.paymentIntents.retrieve(invoice.payment_intent);
    expect([pi.status, pi.amount, pi.latest_charge]).toEqual(['succeeded', invoice.amount_paid, invoice.charge]);

    const key = `refund-${c.id}`;
    const refund = await stripe.refunds.create({ payment_intent: pi.id, reason: 'duplicate', metadata: { why: 'test' } }, { idempotencyKey: key });
    expect([refund.object, refund.status, refund.amount, refund.charge, refund.reason]).toEqual(['refund', 'succeeded', 4900, invoice.charge, 'duplicate']);
    const replay = await stripe.refunds.create({ payment_intent: pi.id, reason: 'duplicate', metadata: { why: 'test' } }, { idempotencyKey: key });
    expect(replay.id).toBe(refund.id);
    const charge = await stripe.charges.retrieve(invoice.charge);
    expect([charge.refunded, charge.amount_refunded]).toEqual([true, 4900]);
    const again = await stripe.refunds.create({ charge: charge.id }).catch((e: unknown) => e);
    expect((again as Stripe.errors.StripeError).code).toBe('charge_already_refunded');
    expect((await stripe.refunds.list({ payment_intent: pi.id })).data.map((r) => r.id)).toEqual([refund.id]);
    expect((await stripe.refunds.retrieve(refund.id)).amount).toBe(4900);
    const event = await waitFor(() => receiver.received.find((r) => r.event.type === 'charge.refunded' && r.event.data.object.id === charge.id), 'charge.refunded');
    expect(event.event.data.object.refunded).toBe(true);
  });

  it('refuses a refund without a target, of an unknown charge, or larger than what is left', async () => {
    const none = await stripe.refunds.create({}).catch((e: unknown) => e);
    expect((none as Stripe.errors.StripeError).code).toBe('parameter_missing');
    const unknown = await stripe.refunds.create({ charge: 'ch_doesnotexist' }).catch((e: unknown) => e);
    expect((unknown as Stripe.errors.StripeError).statusCode).toBe(404);
    const c = await stripe.customers.create({ email: 'partial@example.com' });
    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_visa' });
    const chargeId = ((await stripe.invoices.retrieve(sub.latest_invoice as string)) as unknown as { charge: string }).charge;
    expect((await stripe.refunds.create({ charge: chargeId, amount: 500 })).amount).toBe(500);
    const tooMuch = await stripe.refunds.create({ charge: chargeId, amount: 100_000 }).catch((e: unknown) => e);
    expect((tooMuch as Stripe.errors.StripeError).code).toBe('amount_too_large');
    const rest = await stripe.refunds.create({ charge: chargeId });
    expect(rest.amount).toBe(1900 - 500);
  });
});

describe('test clocks', () => {
  it('renews a 4242 subscription when the clock passes the period end (invoice.paid, new period)', async () => {
    const frozen = Math.floor(Date.UTC(2030, 0, 31, 12) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'renew@example.com');
    expect(clock.id).toMatch(/^clock_/);
    expect(clock.status).toBe('ready');
    const { session, response } = await checkout('4242 4242 4242 4242', { customer: customer.id });
    expect(response.status).toBe(303);
    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const sub = legacy(await stripe.subscriptions.retrieve(subId));
    expect(sub.current_period_start).toBe(frozen);
    expect(sub.current_period_end).toBe(Math.floor(Date.UTC(2030, 1, 28, 12) / 1000));
    expect(sub.test_clock).toBe(clock.id);

    const advanced = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end + 3600 });
    expect(advanced.frozen_time).toBe(sub.current_period_end + 3600);
    expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).status).toBe('ready');
    const renewed = legacy(await stripe.subscriptions.retrieve(subId));
    expect(renewed.status).toBe('active');
    expect(renewed.current_period_start).toBe(sub.current_period_end);
    expect(renewed.current_period_end).toBe(Math.floor(Date.UTC(2030, 2, 31, 12) / 1000));
    const invoices = await stripe.invoices.list({ subscription: subId });
    expect(invoices.data).toHaveLength(2);
    expect(invoices.data.every((i) => i.status === 'paid')).toBe(true);
    expect(invoices.data[0]!.billing_reason).toBe('subscription_cycle');
    expect(renewed.latest_invoice).toBe(invoices.data[0]!.id);
    await waitFor(() => receiver.of('invoice.paid', invoices.data[0]!.id)[0], 'renewal invoice.paid');
    const backwards = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: frozen }).catch((e: unknown) => e);
    expect((backwards as Stripe.errors.StripeError).statusCode).toBe(400);
  });

  it('fails renewal with 4000 0000 0000 0341: invoice.payment_failed, past_due, then canceled after the retries', async () => {
    const frozen = Math.floor(Date.UTC(2030, 5, 1) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'fail@example.com');
    const { session, response } = await checkout('4000 0000 0000 0341', { customer: customer.id, locale: 'de' });
    expect(response.status).toBe(303);
    const subId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const sub = legacy(await stripe.subscriptions.retrieve(subId));
    expect(sub.status).toBe('active');

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end + 60 });
    const pastDue = legacy(await stripe.subscriptions.retrieve(subId, { expand: ['latest_invoice'] }));
    expect(pastDue.status).toBe('past_due');
    const inv = pastDue.latest_invoice as LegacyInvoice;
    expect(inv.status).toBe('open');
    expect(inv.attempt_count).toBe(1);
    expect(inv.next_payment_attempt).toBe(sub.current_period_end + 3 * 86400);
    const failed = await waitFor(() => receiver.of('invoice.payment_failed', inv.id)[0], 'invoice.payment_failed');
    await stripe.webhooks.constructEventAsync(failed.body, failed.signature, STRIPE_WEBHOOK_SECRET);
    await waitFor(() => receiver.of('customer.subscription.updated', subId).find((r) => r.event.data.object.status === 'past_due'), 'past_due update');

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end + 8 * 86400 });
    const ended = await stripe.subscriptions.retrieve(subId);
    expect(ended.status).toBe('canceled');
    expect(ended.cancellation_details?.reason).toBe('payment_failed');
    expect((await stripe.invoices.retrieve(inv.id)).attempt_count).toBe(4);
    await waitFor(() => receiver.of('customer.subscription.deleted', subId)[0], 'deleted after dunning');
  });

  it('recovers a past_due subscription when the card is replaced in the portal', async () => {
    const frozen = Math.floor(Date.UTC(2033, 3, 15) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'recover@example.com');
    await checkout('4000000000000341', { customer: customer.id });
    const sub = legacy((await stripe.subscriptions.list({ customer: customer.id })).data[0]!);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end + 60 });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    const ps = await stripe.billingPortal.sessions.create({ customer: customer.id, locale: 'en' });
    const page = await (await fetch(ps.url)).text();
    expect(page).toContain('Past due');
    const res = await postForm(ps.url, formAction(page, '/payment_method'), { cardNumber: '4242424242424242', ...CARD });
    expect(res.status).toBe(303);
    const after = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(after.status).toBe('active');
    expect((after.latest_invoice as Stripe.Invoice).status).toBe('paid');
    expect((after.latest_invoice as Stripe.Invoice).attempt_count).toBe(2);
    await waitFor(() => receiver.of('invoice.paid', (after.latest_invoice as Stripe.Invoice).id)[0], 'recovery invoice.paid');
  });

  it('leaves an API subscription incomplete when its first charge fails, pays it via invoices.pay, expires others after 23 h', async () => {
    const frozen = Math.floor(Date.UTC(2034, 6, 1) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'incomplete@example.com');
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: basicPrice.id }], default_payment_method: 'pm_card_chargeCustomerFail' });
    expect(sub.status).toBe('incomplete');
    const inv = (await stripe.invoices.list({ subscription: sub.id })).data[0]!;
    expect(inv.status).toBe('open');
    const failedPay = await stripe.invoices.pay(inv.id).catch((e: unknown) => e);
    expect(failedPay).toBeInstanceOf(Stripe.errors.StripeCardError);
    const paid = await stripe.invoices.pay(inv.id, { payment_method: 'pm_card_visa' });
    expect(paid.status).toBe('paid');
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    const again = await stripe.invoices.pay(inv.id).catch((e: unknown) => e);
    expect((again as Stripe.errors.StripeError).statusCode).toBe(400);

    const other = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: premiumPrice.id }], payment_behavior: 'default_incomplete' });
    expect(other.status).toBe('incomplete');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: frozen + 24 * 3600 });
    expect((await stripe.subscriptions.retrieve(other.id)).status).toBe('incomplete_expired');
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('starts billing when a trial ends', async () => {
    const frozen = Math.floor(Date.UTC(2032, 0, 1) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'trial@example.com');
    const sub = legacy(await stripe.subscriptions.create({ customer: customer.id, items: [{ price: basicPrice.id }], trial_period_days: 7, default_payment_method: 'pm_card_visa' }));
    expect(sub.status).toBe('trialing');
    expect(sub.trial_end).toBe(frozen + 7 * 86400);
    expect(sub.current_period_end).toBe(frozen + 7 * 86400);
    const first = (await stripe.invoices.list({ subscription: sub.id })).data;
    expect(first.map((i) => [i.amount_due, i.status])).toEqual([[0, 'paid']]);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: frozen + 8 * 86400 });
    const after = legacy(await stripe.subscriptions.retrieve(sub.id));
    expect(after.status).toBe('active');
    expect(after.current_period_start).toBe(frozen + 7 * 86400);
    expect(after.current_period_end).toBe(Math.floor(Date.UTC(2032, 1, 8) / 1000));
    const invoices = (await stripe.invoices.list({ subscription: sub.id })).data;
    expect(invoices.map((i) => [i.amount_due, i.status])).toEqual([
      [1900, 'paid'],
      [0, 'paid'],
    ]);
  });

  it('ends a cancel_at_period_end subscription at the period end (customer.subscription.deleted)', async () => {
    const frozen = Math.floor(Date.UTC(2031, 2, 10) / 1000);
    const { clock, customer } = await customerWithClock(frozen, 'leaving@example.com');
    await checkout('4242424242424242', { customer: customer.id, price: quarterlyPrice.id });
    const sub = legacy((await stripe.subscriptions.list({ customer: customer.id })).data[0]!);
    expect(sub.current_period_end).toBe(Math.floor(Date.UTC(2031, 5, 10) / 1000));
    await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end - 60 });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sub.current_period_end + 60 });
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(sub.current_period_end);
    expect((await stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(1);
    await waitFor(() => receiver.of('customer.subscription.deleted', sub.id)[0], 'deleted at period end');
  });
});

describe('billing portal', () => {
  it('changes plan, rejects a declined card, updates the card and cancels, in German', async () => {
    const { session } = await checkout('4242424242424242', { email: 'portal@example.com' });
    const customerId = (await stripe.checkout.sessions.retrieve(session.id)).customer as string;
    const ps = await stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: 'http://127.0.0.1:5173/de/user/settings',
      locale: 'de',
      configuration: (await planSwitchConfiguration()).id,
    });
    expect(ps.id).toMatch(/^bps_/);
    expect(ps.url).toBe(`${sandbox.url}/billing_portal/${ps.id}`);
    const page = await (await fetch(ps.url)).text();
    expect(page).toContain('Abonnement verwalten');
    expect(page).toContain('href="http://127.0.0.1:5173/de/user/settings"');
    expect(page).toContain('Tarif ändern');
    expect(page).toContain(premiumPrice.id);

    const change = await postForm(ps.url, formAction(page, '/plan'), { price: premiumPrice.id });
    expect(change.status).toBe(303);
    const sub = (await stripe.subscriptions.list({ customer: customerId })).data[0]!;
    expect(sub.items.data[0]!.price.id).toBe(premiumPrice.id);
    expect(await (await fetch(new URL(change.headers.get('location')!, ps.url))).text()).toContain('Ihr Tarif wurde geändert.');

    const declined = await postForm(ps.url, formAction(page, '/payment_method'), { cardNumber: '4000000000000002', ...CARD });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Ihre Karte wurde abgelehnt.');
    const card = await postForm(ps.url, formAction(page, '/payment_method'), { cardNumber: '5555 5555 5555 4444', ...CARD });
    expect(card.status).toBe(303);
    const customer = (await stripe.customers.retrieve(customerId)) as Stripe.Customer;
    const pm = await stripe.rawRequest('GET', `/v1/payment_methods/${customer.invoice_settings.default_payment_method as string}`, {});
    expect((pm as unknown as { card: { last4: string } }).card.last4).toBe('4444');

    // the configuration's cancellation mode is the only one offered (at_period_end here): a
    // crafted "now" still only ends the subscription at the period end
    expect(page).toContain('Zum Ende des Abrechnungszeitraums');
    expect(page).not.toContain('Sofort');
    const cancel = await postForm(ps.url, formAction(page, '/cancel'), { when: 'now' });
    expect(cancel.status).toBe(303);
    const ending = await stripe.subscriptions.retrieve(sub.id);
    expect([ending.status, ending.cancel_at_period_end]).toEqual(['active', true]);
    const page2 = await (await fetch(ps.url)).text();
    const renew = await postForm(ps.url, formAction(page2, '/renew'), {});
    expect(renew.status).toBe(303);
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(false);
    // a configuration with mode "immediately" offers (only) that
    const immediately = await stripe.billingPortal.configurations.create({
      features: { subscription_cancel: { enabled: true, mode: 'immediately' } },
    });
    const ps2 = await stripe.billingPortal.sessions.create({ customer: customerId, locale: 'de', configuration: immediately.id });
    const page3 = await (await fetch(ps2.url)).text();
    expect(page3).toContain('Sofort');
    expect(page3).not.toContain('Zum Ende des Abrechnungszeitraums');
    const now = await postForm(ps2.url, formAction(page3, '/cancel'), {});
    expect(now.status).toBe(303);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
    await waitFor(() => receiver.of('customer.subscription.deleted', sub.id)[0], 'portal cancel webhook');

    const missing = await stripe.billingPortal.sessions.create({ customer: 'cus_missing' }).catch((e: unknown) => e);
    expect((missing as Stripe.errors.StripeError).statusCode).toBe(404);
    expect((await fetch(`${sandbox.url}/billing_portal/bps_missing`)).status).toBe(404);
  });
});

describe('billing portal configurations (issue 32 §3)', () => {
  it('creates, lists, retrieves and updates configurations with the shapes of the Stripe API', async () => {
    const seat = await stripe.products.create({ name: 'Extra seat' });
    const seatPrice = await stripe.prices.create({ product: seat.id, unit_amount: 1500, currency: 'eur', recurring: { interval: 'month' } });
    const created = await stripe.billingPortal.configurations.create({
      business_profile: { privacy_policy_url: 'https://example.com/privacy', terms_of_service_url: 'https://example.com/terms' },
      default_return_url: 'https://example.com/user/settings',
      features: {
        subscription_update: { enabled: true, default_allowed_updates: ['price'], products: [{ product: basicPrice.product as string, prices: [basicPrice.id] }] },
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
      },
      metadata: { teamwerk_portal: 'test' },
    });
    expect(created).toMatchObject({
      object: 'billing_portal.configuration',
      active: true,
      is_default: false,
      livemode: false,
      default_return_url: 'https://example.com/user/settings',
      business_profile: { headline: null, privacy_policy_url: 'https://example.com/privacy', terms_of_service_url: 'https://example.com/terms' },
      metadata: { teamwerk_portal: 'test' },
      features: {
        customer_update: { enabled: false },
        invoice_history: { enabled: false },
        payment_method_update: { enabled: false },
        subscription_cancel: { enabled: true, mode: 'at_period_end' },
        subscription_update: { enabled: true, default_allowed_updates: ['price'], products: [{ product: basicPrice.product, prices: [basicPrice.id] }] },
      },
    });
    expect(created.id).toMatch(/^bpc_/);
    expect(await stripe.billingPortal.configurations.retrieve(created.id)).toEqual(created);

    // update merges the nested features; a listed list replaces the old one
    const updated = await stripe.billingPortal.configurations.update(created.id, {
      features: { subscription_update: { enabled: true, products: [{ product: premiumPrice.product as string, prices: [premiumPrice.id] }] }, invoice_history: { enabled: true } },
    });
    expect(updated.features.subscription_update.products).toEqual([{ product: premiumPrice.product, prices: [premiumPrice.id], adjustable_quantity: { enabled: false, maximum: null, minimum: 1 } }]);
    expect(updated.features.subscription_cancel.enabled).toBe(true);
    expect(updated.features.invoice_history.enabled).toBe(true);

    const active = [];
    for await (const c of stripe.billingPortal.configurations.list({ active: true, limit: 100 })) active.push(c.id);
    expect(active).toContain(created.id);
    await stripe.billingPortal.configurations.update(created.id, { active: false });
    const inactive = (await stripe.billingPortal.configurations.list({ active: false })).data.map((c) => c.id);
    expect(inactive).toContain(created.id);

    // errors as Stripe answers them
    const customer = await stripe.customers.create({ email: 'cfg@example.com' });
    const unknownProduct = await stripe.billingPortal.configurations
      .create({ features: { subscription_update: { enabled: true, products: [{ product: 'prod_missing', prices: [basicPrice.id] }] } } })
      .catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(unknownProduct).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    const foreignPrice = await stripe.billingPortal.configurations
      .create({ features: { subscription_update: { enabled: true, products: [{ product: basicPrice.product as string, prices: [seatPrice.id] }] } } })
      .catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(foreignPrice).toMatchObject({ statusCode: 400 });
    const noFeatures = await stripe.rawRequest('POST', '/v1/billing_portal/configurations', {}).catch((e: unknown) => e as Stripe.errors.StripeError);
    expect((noFeatures as Stripe.errors.StripeError).message).toBe('Missing required param: features.');
    const inactiveSession = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: created.id }).catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(inactiveSession).toMatchObject({ statusCode: 400 });
    const missing = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: 'bpc_missing' }).catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' });

    // the account's default configuration exists once a session used it, cannot be deactivated and offers no plan switch
    const ps = await stripe.billingPortal.sessions.create({ customer: customer.id });
    const def = await stripe.billingPortal.configurations.retrieve(ps.configuration as string);
    expect(def).toMatchObject({ is_default: true, active: true, features: { subscription_update: { enabled: false } } });
    const deactivate = await stripe.billingPortal.configurations.update(def.id, { active: false }).catch((e: unknown) => e as Stripe.errors.StripeError);
    expect(deactivate).toMatchObject({ statusCode: 400 });
  });

  it('the portal page offers exactly the configured switches: none for other products or several items, none without a configuration', async () => {
    const cfg = await planSwitchConfiguration();
    const enterprise = await stripe.products.create({ name: 'Enterprise' });
    const enterprisePrice = await stripe.prices.create({ product: enterprise.id, unit_amount: 9900, currency: 'eur', recurring: { interval: 'month' } });
    const seat = await stripe.products.create({ name: 'Extra seat' });
    const seatPrice = await stripe.prices.create({ product: seat.id, unit_amount: 1500, currency: 'eur', recurring: { interval: 'month' } });
    const customer = await stripe.customers.create({ email: 'switch@example.com' });
    const pm = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const basicSub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: basicPrice.id }], default_payment_method: pm.id });

    const ps = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: cfg.id, locale: 'en' });
    const page = await (await fetch(ps.url)).text();
    const offered = [...page.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered.sort()).toEqual([basicPrice.id, quarterlyPrice.id, premiumPrice.id].sort());
    expect(page).not.toContain(seatPrice.id);
    expect(page).not.toContain(enterprisePrice.id);
    // a price the configuration does not list is refused, as by Stripe's portal; the subscription stays
    const refused = await postForm(ps.url, formAction(page, '/plan'), { price: enterprisePrice.id });
    expect(refused.status).toBe(400);
    expect((await stripe.subscriptions.retrieve(basicSub.id)).items.data[0]!.price.id).toBe(basicPrice.id);
    const switched = await postForm(ps.url, formAction(page, '/plan'), { price: premiumPrice.id });
    expect(switched.status).toBe(303);
    expect((await stripe.subscriptions.retrieve(basicSub.id)).items.data[0]!.price.id).toBe(premiumPrice.id);
    await stripe.subscriptions.cancel(basicSub.id);

    // an Enterprise subscription with extra seats: its product is not listed (and it has two items): no switch offered
    const entSub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: enterprisePrice.id }, { price: seatPrice.id, quantity: 2 }],
      default_payment_method: pm.id,
    });
    const entPage = await (await fetch((await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: cfg.id, locale: 'en' })).url)).text();
    expect(entPage).not.toContain('<option');
    expect(entPage).not.toContain('/plan"');
    expect(entPage).toContain('/cancel"');

    // without a configuration: the account default, which offers no plan switch
    const defPage = await (await fetch((await stripe.billingPortal.sessions.create({ customer: customer.id, locale: 'en' })).url)).text();
    expect(defPage).not.toContain('<option');
    await stripe.subscriptions.cancel(entSub.id);
  });
});

describe('hosted checkout in a real browser', () => {
  it('pays with 4242 through the form (English) and shows a decline in German', async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    });
    try {
      const page = await browser.newPage();
      const ok = await stripe.checkout.sessions.create(
        sessionParams({
          mode: 'subscription',
          payment_method_types: ['card'],
          line_items: [{ price: basicPrice.id, quantity: 1 }],
          success_url: `${receiver.url}/signup?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${receiver.url}/prices`,
          locale: 'en',
        }),
      );
      await page.goto(ok.url!);
      await page.getByLabel('Email').fill('browser@example.com');
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry date (MM / YY)').fill('12 / 34');
      await page.getByLabel('CVC').fill('123');
      await page.getByLabel('Name on card').fill('Browser User');
      await page.getByRole('button', { name: 'Pay and subscribe' }).click();
      await page.waitForURL(`${receiver.url}/signup?session_id=${ok.id}`);
      const paid = (await stripe.checkout.sessions.retrieve(ok.id, { expand: ['customer'] })) as Stripe.Checkout.Session & { customer: Stripe.Customer };
      expect(paid.payment_status).toBe('paid');
      expect((paid.customer as Stripe.Customer).email).toBe('browser@example.com');

      const de = await stripe.checkout.sessions.create(
        sessionParams({
          mode: 'subscription',
          payment_method_types: ['card'],
          line_items: [{ price: premiumPrice.id, quantity: 1 }],
          success_url: `${receiver.url}/de/signup?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${receiver.url}/de/prices`,
          locale: 'de',
          customer_email: 'browser-de@example.com',
        }),
      );
      await page.goto(de.url!);
      await page.getByLabel('Kartennummer').fill('4000 0000 0000 0002');
      await page.getByLabel('Ablaufdatum (MM / JJ)').fill('12 / 34');
      await page.getByLabel('Prüfziffer (CVC)').fill('123');
      await page.getByLabel('Name auf der Karte').fill('Erika Mustermann');
      await page.getByRole('button', { name: 'Zahlungspflichtig abonnieren' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Ihre Karte wurde abgelehnt.');
      expect((await stripe.checkout.sessions.retrieve(de.id)).status).toBe('open');
      await page.getByRole('link', { name: /Zurück/ }).click();
      await page.waitForURL(`${receiver.url}/de/prices`);

      // Billing portal: change plan, cancel at period end, go back to the app.
      const portal = await stripe.billingPortal.sessions.create({
        customer: paid.customer!.id as string,
        return_url: `${receiver.url}/de/user/settings`,
        locale: 'de',
        configuration: (await planSwitchConfiguration()).id,
      });
      await page.goto(portal.url);
      await page.getByLabel('Neuer Tarif').selectOption(premiumPrice.id);
      await page.getByRole('button', { name: 'Tarif ändern' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Ihr Tarif wurde geändert.');
      await page.getByRole('button', { name: 'Abonnement kündigen' }).click();
      await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Aktiv');
      await expect.poll(async () => (await stripe.subscriptions.list({ customer: paid.customer!.id as string })).data[0]!.cancel_at_period_end).toBe(true);
      await page.getByRole('link', { name: 'Zurück zu Teamwerk' }).click();
      await page.waitForURL(`${receiver.url}/de/user/settings`);
      const sub = (await stripe.subscriptions.list({ customer: paid.customer!.id as string })).data[0]!;
      expect(sub.items.data[0]!.price.id).toBe(premiumPrice.id);
    } finally {
      await browser.close();
    }
  });
});

describe('simulated outage', () => {
  it('fails /v1 with 503 or dropped connections while an outage is active, then recovers', async () => {
    const auth = { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' };
    const fast = new Stripe(STRIPE_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
    try {
      expect((await fetch(`${sandbox.url}/_sandbox/outage`, { method: 'POST', headers: auth, body: 'seconds=30' })).status).toBe(200);
      const down = await fast.customers.list().catch((e: unknown) => e);
      expect(down).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect((down as Stripe.errors.StripeError).statusCode).toBe(503);
      expect((await fetch(`${sandbox.url}/_sandbox/outage`, { method: 'POST', headers: auth, body: 'seconds=30&mode=close' })).status).toBe(200);
      const dropped = await fast.customers.list().catch((e: unknown) => e);
      expect(dropped).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      const bad = await fetch(`${sandbox.url}/_sandbox/outage`, { method: 'POST', headers: auth, body: 'status=200' });
      expect(bad.status).toBe(400);
    } finally {
      await fetch(`${sandbox.url}/_sandbox/outage`, { method: 'DELETE', headers: auth });
    }
    expect((await fast.customers.list({ limit: 1 })).object).toBe('list');
  });
});

describe('persistence and the sandbox clock', () => {
  it('keeps its state across restarts and advances the global sandbox clock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stripe-sandbox-restart-'));
    try {
      let sb = await createStripeSandbox(dummyCtx(dir), { port: 0, webhookUrl: null });
      let s = client(sb.port);
      const prod = await s.products.create({ name: 'Restart' });
      const price = await s.prices.create({ product: prod.id, unit_amount: 1000, currency: 'eur', recurring: { interval: 'month' } });
      const c = await s.customers.create({ email: 'restart@example.com' });
      const sub = legacy(await s.subscriptions.create({ customer: c.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' }));
      await sb.close();
      expect(fs.existsSync(path.join(dir, 'stripe', 'state.json'))).toBe(true);

      sb = await createStripeSandbox(dummyCtx(dir), { port: 0, webhookUrl: null });
      s = client(sb.port);
      try {
        expect(((await s.customers.retrieve(c.id)) as Stripe.Customer).email).toBe('restart@example.com');
        const auth = { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' };
        const res = await fetch(`${sb.url}/_sandbox/advance_time`, { method: 'POST', headers: auth, body: `to=${sub.current_period_end + 10}` });
        expect(res.status).toBe(200);
        const renewed = legacy(await s.subscriptions.retrieve(sub.id));
        expect(renewed.current_period_start).toBe(sub.current_period_end);
        expect((await s.invoices.list({ customer: c.id })).data).toHaveLength(2);
        const back = await fetch(`${sb.url}/_sandbox/advance_time`, { method: 'POST', headers: auth, body: 'seconds=-5' });
        expect(back.status).toBe(400);
      } finally {
        await sb.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
