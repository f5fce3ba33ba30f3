/**
 * Contract tests for Checkout in payment mode (one-time payments such as event tickets) in the
 * Stripe sandbox, driven by the official `stripe` SDK (API version 2023-10-16) as
 * stripe.test.ts does: sessions with `price_data` or one-time prices, the hosted page paid by a
 * plain form post, the payment intent and charge it leaves, refunds, and session expiry (by the
 * expire endpoint and by the sandbox clock).
 *
 * The sandbox runs in-process on a free port with its own data folder. Its default endpoint
 * subscribes to DEFAULT_WEBHOOK_EVENTS, exactly what the product's webhook receives; the full
 * event stream is read through GET /v1/events. The automatic expiry test moves the sandbox clock
 * and therefore runs last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { stackConfig } from '../config.ts';
import type { StackContext } from '../types.ts';
import { createStripeSandbox, DEFAULT_WEBHOOK_EVENTS, type StripeSandbox } from '../services/stripe/index.ts';

const { stripeSecretKey: STRIPE_SECRET_KEY, stripeWebhookSecret: STRIPE_WEBHOOK_SECRET } = stackConfig({ TEAMWERK_STACK_OFFSET: '5000' });
const AUTH = { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' };
const CARD = { cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Erika Mustermann' };
const SUCCESS_URL = 'http://127.0.0.1:5173/events/sommerfest/tickets?session_id={CHECKOUT_SESSION_ID}';

interface Delivered {
  body: string;
  signature: string;
  event: { id: string; type: string; data: { object: Record<string, unknown> } };
}

/** Records every webhook POST (answers 200). */
class Receiver {
  received: Delivered[] = [];
  url = '';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      this.received.push({ body, signature: String(req.headers['stripe-signature'] ?? ''), event: JSON.parse(body) as Delivered['event'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
  of(type: string, objectId: string): Delivered[] {
    return this.received.filter((x) => x.event.type === type && x.event.data.object.id === objectId);
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

/** Checkout params as the product sends them (payment_method_types is typed away in newer SDK types). */
function params(p: Record<string, unknown>): Stripe.Checkout.SessionCreateParams {
  return p as unknown as Stripe.Checkout.SessionCreateParams;
}

async function postForm(base: string, action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(action, base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** The error a rejected SDK call raised. */
async function failure(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof Stripe.errors.StripeError)) throw new Error(`expected a StripeError, got ${String(e)}`);
  return e;
}

let sandbox: StripeSandbox;
let stripe: Stripe;
let receiver: Receiver;
let dataDir: string;
let ticketPrice: Stripe.Price;
let monthlyPrice: Stripe.Price;

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stripe-sandbox-payment-'));
  const config = { ...stackConfig({ TEAMWERK_STACK_OFFSET: '5000' }), dataDir };
  const ctx: StackContext = { config, pool: undefined as never, mailer: undefined as never, log: () => {} };
  sandbox = await createStripeSandbox(ctx, { port: 0, webhookUrl: `${receiver.url}/default`, webhookEvents: DEFAULT_WEBHOOK_EVENTS, retryBaseMs: 100, maxAttempts: 3 });
  stripe = new Stripe(STRIPE_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', apiVersion: '2023-10-16' as Stripe.LatestApiVersion, maxNetworkRetries: 2 });
  ticketPrice = await stripe.prices.create({ product_data: { name: 'Stammtisch ticket' }, unit_amount: 4900, currency: 'eur' });
  const plan = await stripe.products.create({ name: 'Premium' });
  monthlyPrice = await stripe.prices.create({ product: plan.id, unit_amount: 1900, currency: 'eur', recurring: { interval: 'month' } });
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The sandbox clock (unix seconds). */
async function sandboxNow(): Promise<number> {
  const res = await fetch(`${sandbox.url}/_sandbox/time`, { headers: AUTH });
  return ((await res.json()) as { now: number }).now;
}

/** A ticket session as the product creates one: price_data, guest email, metadata on both levels. */
async function ticketSession(extra: Record<string, unknown> = {}): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.create(
    params({
      mode: 'payment',
      payment_method_types: ['card'],
      line_items: [
        {
          price_data: {
            currency: 'eur',
            unit_amount: 2450,
            tax_behavior: 'inclusive',
            product_data: { name: 'Sommerfest ticket', description: 'Saturday, 12 July, 18:00', metadata: { eventId: 'ev-1' } },
          },
          quantity: 2,
        },
      ],
      customer_email: 'guest@example.com',
      client_reference_id: 'user-42',
      metadata: { kind: 'event_ticket', eventId: 'ev-1', userId: 'user-42' },
      payment_intent_data: { metadata: { eventId: 'ev-1', userId: 'user-42' }, description: 'Sommerfest: 2 tickets' },
      locale: 'en',
      success_url: SUCCESS_URL,
      cancel_url: 'http://127.0.0.1:5173/events/sommerfest',
      ...extra,
    }),
  );
}

/** Pays a session on its hosted page with `card`; answers the form post's response. */
async function pay(session: Stripe.Checkout.Session, card: string): Promise<Response> {
  const page = await fetch(session.url!);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+\/pay)"/.exec(html)![1]!;
  return postForm(session.url!, action, { cardNumber: card, ...CARD });
}

/** Event types of one object, oldest first, from GET /v1/events. */
async function eventTypesFor(ids: string[]): Promise<string[]> {
  const events = await stripe.events.list({ limit: 100 });
  return events.data
    .filter((e) => ids.includes((e.data.object as { id: string }).id))
    .reverse()
    .map((e) => e.type);
}

describe('checkout in payment mode', () => {
  it('creates a session from price_data, pays it on the hosted page and leaves a payment intent, a charge and the events', async () => {
    const session = await ticketSession();
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      amount_subtotal: 4900,
      amount_total: 4900,
      currency: 'eur',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      customer: null,
      customer_email: 'guest@example.com',
      customer_creation: 'if_required',
      client_reference_id: 'user-42',
      metadata: { kind: 'event_ticket', eventId: 'ev-1', userId: 'user-42' },
      locale: 'en',
      url: `${sandbox.url}/checkout/${session.id}`,
    });
    expect(session.expires_at - session.created).toBe(24 * 3600);

    const items = await stripe.checkout.sessions.listLineItems(session.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({ description: 'Sommerfest ticket', quantity: 2, amount_subtotal: 4900, amount_total: 4900, currency: 'eur' });
    const inline = items.data[0]!.price!;
    expect(inline).toMatchObject({ type: 'one_time', unit_amount: 2450, currency: 'eur', tax_behavior: 'inclusive', recurring: null, active: false });
    const product = await stripe.products.retrieve(inline.product as string);
    expect(product).toMatchObject({ name: 'Sommerfest ticket', description: 'Saturday, 12 July, 18:00', metadata: { eventId: 'ev-1' } });
    // Inline prices and products are not part of the catalog.
    expect((await stripe.prices.list({ limit: 100 })).data.map((p) => p.id)).not.toContain(inline.id);
    expect((await stripe.products.list({ limit: 100 })).data.map((p) => p.id)).not.toContain(product.id);

    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('lang="en"');
    expect(page).toContain('Sommerfest ticket');
    expect(page).toContain('Saturday, 12 July, 18:00');
    expect(page).toContain('€49.00');
    expect(page).toContain('<button type="submit" id="submit">Pay</button>');
    expect(page).not.toContain('subscribe');
    expect(page).toContain('value="guest@example.com" readonly');

    const res = await pay(session, '4242 4242 4242 4242');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:5173/events/sommerfest/tickets?session_id=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent.latest_charge'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: null, subscription: null, invoice: null, url: null });
    expect(done.customer_details).toMatchObject({ email: 'guest@example.com', name: 'Erika Mustermann' });
    const pi = done.payment_intent as Stripe.PaymentIntent;
    expect(pi.id).toMatch(/^pi_/);
    expect(pi).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 4900,
      amount_received: 4900,
      currency: 'eur',
      customer: null,
      description: 'Sommerfest: 2 tickets',
      metadata: { eventId: 'ev-1', userId: 'user-42' },
      capture_method: 'automatic',
      payment_method_types: ['card'],
    });
    const charge = pi.latest_charge as Stripe.Charge;
    expect(charge.id).toMatch(/^ch_/);
    expect(charge).toMatchObject({
      object: 'charge',
      amount: 4900,
      amount_captured: 4900,
      amount_refunded: 0,
      captured: true,
      paid: true,
      refunded: false,
      status: 'succeeded',
      currency: 'eur',
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      billing_details: { email: 'guest@example.com', name: 'Erika Mustermann' },
      metadata: { eventId: 'ev-1', userId: 'user-42' },
    });
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect((await stripe.paymentIntents.retrieve(pi.id)).latest_charge).toBe(charge.id);
    expect((await stripe.charges.retrieve(charge.id)).payment_intent).toBe(pi.id);
    expect((await stripe.paymentIntents.list({ limit: 100 })).data.map((x) => x.id)).toContain(pi.id);
    expect((await stripe.charges.list({ payment_intent: pi.id })).data.map((x) => x.id)).toEqual([charge.id]);
    expect((await stripe.checkout.sessions.list({ payment_intent: pi.id })).data.map((x) => x.id)).toEqual([session.id]);
    // No customer for a guest payment (customer_creation if_required), and the card is attached to no one.
    expect((await stripe.customers.list({ email: 'guest@example.com' })).data).toHaveLength(0);
    expect((await stripe.paymentMethods.retrieve(pi.payment_method as string)).customer).toBeNull();

    // The events, in order; the product's default endpoint receives checkout.session.completed (signed).
    expect(await eventTypesFor([pi.id, charge.id, session.id])).toEqual(['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded', 'checkout.session.completed']);
    const completed = await waitFor(() => receiver.of('checkout.session.completed', session.id)[0], 'checkout.session.completed');
    const ev = await stripe.webhooks.constructEventAsync(completed.body, completed.signature, STRIPE_WEBHOOK_SECRET);
    expect(ev.data.object).toMatchObject({ mode: 'payment', payment_status: 'paid', payment_intent: pi.id, client_reference_id: 'user-42' });
    expect(receiver.of('payment_intent.succeeded', pi.id)).toHaveLength(0);

    // A second submit goes to the success page and does not pay again.
    const twice = await postForm(session.url!, `/checkout/${session.id}/pay`, { cardNumber: '4242424242424242', ...CARD });
    expect(twice.status).toBe(303);
    expect((await stripe.paymentIntents.list({ limit: 100 })).data.filter((x) => x.metadata.userId === 'user-42')).toHaveLength(1);
    expect(await (await fetch(session.url!)).text()).toContain('This checkout session is complete');
  });

  it('uses one-time prices and the session customer; customer_creation=always creates one for a guest', async () => {
    const customer = await stripe.customers.create({ email: 'member@example.com', name: 'Max Member' });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: ticketPrice.id, quantity: 1 }],
      customer: customer.id,
      success_url: SUCCESS_URL,
    });
    expect(session).toMatchObject({ amount_total: 4900, customer: customer.id, customer_creation: null });
    expect((await pay(session, '4242424242424242')).status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done.customer).toBe(customer.id);
    expect(done.customer_details?.email).toBe('member@example.com');
    const list = await stripe.paymentIntents.list({ customer: customer.id });
    expect(list.data.map((x) => x.id)).toEqual([done.payment_intent]);
    expect(list.data[0]).toMatchObject({ customer: customer.id, amount: 4900, metadata: {} });

    const guest = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: ticketPrice.id, quantity: 1 }],
      customer_creation: 'always',
      success_url: SUCCESS_URL,
    });
    // No email on the session: the page asks for it.
    const page = await (await fetch(guest.url!)).text();
    expect(page).toContain('<input id="email" name="email"');
    const res = await postForm(guest.url!, `/checkout/${guest.id}/pay`, { email: 'new@example.com', cardNumber: '4242424242424242', ...CARD });
    expect(res.status).toBe(303);
    const paid = await stripe.checkout.sessions.retrieve(guest.id);
    expect(paid.customer).toMatch(/^cus_/);
    expect(((await stripe.customers.retrieve(paid.customer as string)) as Stripe.Customer).email).toBe('new@example.com');
    expect((await stripe.paymentIntents.retrieve(paid.payment_intent as string)).customer).toBe(paid.customer);
  });

  it('shows the German page and leaves the session open without a payment intent when the card is declined', async () => {
    const before = (await stripe.paymentIntents.list({ limit: 100 })).data.length;
    const session = await stripe.checkout.sessions.create(
      params({
        mode: 'payment',
        payment_method_types: ['card'],
        line_items: [{ price: ticketPrice.id, quantity: 1 }],
        customer_email: 'abgelehnt@example.de',
        locale: 'de',
        success_url: SUCCESS_URL,
        cancel_url: 'http://127.0.0.1:5173/de/events',
      }),
    );
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('lang="de"');
    expect(page).toContain('Zahlungspflichtig bestellen');
    expect(page).not.toContain('abonnieren');
    expect(page).toContain('49,00');
    expect(page).toContain('Stammtisch ticket');
    expect(page).toContain('href="http://127.0.0.1:5173/de/events"');

    const declined = await pay(session, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    const html = await declined.text();
    expect(html).toContain('Ihre Karte wurde abgelehnt.');
    expect(html).toContain('Zahlungspflichtig bestellen');
    // 4000 0000 0000 0341 declines a one-time payment too.
    expect((await pay(session, '4000000000000341')).status).toBe(402);
    const after = await stripe.checkout.sessions.retrieve(session.id);
    expect(after).toMatchObject({ status: 'open', payment_status: 'unpaid', payment_intent: null });
    expect((await stripe.paymentIntents.list({ limit: 100 })).data).toHaveLength(before);
    expect(await eventTypesFor([session.id])).toEqual([]);
  });

  it('refunds a ticket by payment intent, partly and then the rest, with charge.refunded to the default endpoint', async () => {
    const session = await ticketSession({ client_reference_id: 'user-refund' });
    expect((await pay(session, '4242424242424242')).status).toBe(303);
    const piId = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    const chargeId = (await stripe.paymentIntents.retrieve(piId)).latest_charge as string;

    const part = await stripe.refunds.create({ payment_intent: piId, amount: 2450, reason: 'requested_by_customer' });
    expect(part).toMatchObject({ object: 'refund', amount: 2450, charge: chargeId, payment_intent: piId, status: 'succeeded' });
    const first = await waitFor(() => receiver.of('charge.refunded', chargeId)[0], 'charge.refunded');
    expect(first.event.data.object).toMatchObject({ amount_refunded: 2450, refunded: false, payment_intent: piId });
    await stripe.webhooks.constructEventAsync(first.body, first.signature, STRIPE_WEBHOOK_SECRET);

    const rest = await stripe.refunds.create({ payment_intent: piId });
    expect(rest.amount).toBe(2450);
    const second = await waitFor(() => receiver.of('charge.refunded', chargeId)[1], 'second charge.refunded');
    expect(second.event.data.object).toMatchObject({ amount_refunded: 4900, refunded: true });
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 4900, refunded: true });
    const again = await failure(stripe.refunds.create({ payment_intent: piId }));
    expect(again.code).toBe('charge_already_refunded');
  });

  it('validates payment-mode parameters like Stripe', async () => {
    const now = await sandboxNow();
    const stored = () => sandbox.engine.store.all('price').length + sandbox.engine.store.all('product').length;
    const storedBefore = stored();
    const base = { mode: 'payment' as const, line_items: [{ price: ticketPrice.id, quantity: 1 }], success_url: SUCCESS_URL };

    const tooSoon = await failure(stripe.checkout.sessions.create({ ...base, expires_at: now + 29 * 60 }));
    expect([tooSoon.statusCode, tooSoon.type, tooSoon.param]).toEqual([400, 'StripeInvalidRequestError', 'expires_at']);
    expect(tooSoon.message).toBe('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.');
    const tooLate = await failure(stripe.checkout.sessions.create({ ...base, expires_at: now + 25 * 3600 }));
    expect([tooLate.statusCode, tooLate.param]).toEqual([400, 'expires_at']);
    const ok = await stripe.checkout.sessions.create({ ...base, expires_at: now + 31 * 60 });
    expect(ok.expires_at).toBe(now + 31 * 60);

    const recurring = await failure(stripe.checkout.sessions.create({ ...base, line_items: [{ price: monthlyPrice.id, quantity: 1 }] }));
    expect(recurring.statusCode).toBe(400);
    expect(recurring.message).toMatch(/^You specified `payment` mode but passed a recurring price/);
    expect(recurring.param).toBe('line_items[0][price]');
    const recurringData = await failure(
      stripe.checkout.sessions.create({
        ...base,
        line_items: [{ price_data: { currency: 'eur', unit_amount: 500, recurring: { interval: 'month' }, product_data: { name: 'x' } }, quantity: 1 }],
      }),
    );
    expect(recurringData.param).toBe('line_items[0][price_data]');

    const both = await failure(
      stripe.checkout.sessions.create({ ...base, line_items: [{ price: ticketPrice.id, price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'x' } }, quantity: 1 }] }),
    );
    expect(both.message).toBe('You may only specify one of these parameters: price, price_data.');
    const noQuantity = await failure(stripe.checkout.sessions.create({ ...base, line_items: [{ price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'x' } } }] }));
    expect(noQuantity.param).toBe('line_items[0][quantity]');
    const noName = await failure(
      stripe.checkout.sessions.create({ ...base, line_items: [{ price_data: { currency: 'eur', unit_amount: 500, product_data: { description: 'no name' } as unknown as { name: string } }, quantity: 1 }] }),
    );
    expect(noName.message).toBe('Missing required param: line_items[0][price_data][product_data][name].');
    const tooSmall = await failure(stripe.checkout.sessions.create({ ...base, line_items: [{ price_data: { currency: 'eur', unit_amount: 10, product_data: { name: 'x' } }, quantity: 1 }] }));
    expect(tooSmall.message).toBe("The Checkout Session's total amount due must add up to at least 0.50 eur.");
    const mixed = await failure(
      stripe.checkout.sessions.create({
        ...base,
        line_items: [{ price: ticketPrice.id, quantity: 1 }, { price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'x' } }, quantity: 1 }],
      }),
    );
    expect(mixed.param).toBe('line_items[1][price_data]');
    // A refused session stores no inline price or product.
    expect(stored()).toBe(storedBefore);
    const subData = await failure(stripe.checkout.sessions.create({ ...base, subscription_data: { metadata: { a: 'b' } } }));
    expect(subData.param).toBe('subscription_data');
    const card = await failure(stripe.checkout.sessions.create(params({ ...base, payment_method_types: ['sofort'] })));
    expect(card.param).toBe('payment_method_types[0]');
    const capture = await failure(stripe.checkout.sessions.create({ ...base, payment_intent_data: { capture_method: 'manual' } }));
    expect(capture.message).toMatch(/^Received unsupported parameter: payment_intent_data\[capture_method\] /);

    // Subscription mode keeps refusing price_data and payment-only parameters.
    const subPriceData = await failure(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        success_url: SUCCESS_URL,
        line_items: [{ price_data: { currency: 'eur', unit_amount: 500, recurring: { interval: 'month' }, product_data: { name: 'x' } }, quantity: 1 }],
      }),
    );
    expect(subPriceData.message).toMatch(/^Received unsupported parameter: line_items\[0\]\[price_data\] /);
    const subPi = await failure(
      stripe.checkout.sessions.create({ mode: 'subscription', success_url: SUCCESS_URL, line_items: [{ price: monthlyPrice.id, quantity: 1 }], payment_intent_data: { description: 'x' } }),
    );
    expect(subPi.param).toBe('payment_intent_data');
  });

  it('expires an open payment session through the API (checkout.session.expired), never a complete one; an expired page answers 410 and cannot pay', async () => {
    const session = await ticketSession({ client_reference_id: 'user-expire' });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', payment_status: 'unpaid', url: null, payment_intent: null });
    const delivered = await waitFor(() => receiver.of('checkout.session.expired', session.id)[0], 'checkout.session.expired');
    const ev = await stripe.webhooks.constructEventAsync(delivered.body, delivered.signature, STRIPE_WEBHOOK_SECRET);
    expect(ev.data.object).toMatchObject({ id: session.id, mode: 'payment', status: 'expired', client_reference_id: 'user-expire' });
    const twice = await failure(stripe.checkout.sessions.expire(session.id));
    expect(twice.statusCode).toBe(400);

    const page = await fetch(session.url!);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This checkout session has expired.');
    const payExpired = await postForm(session.url!, `/checkout/${session.id}/pay`, { cardNumber: '4242424242424242', ...CARD });
    expect(payExpired.status).toBe(410);
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_intent).toBeNull();

    const paid = await ticketSession({ client_reference_id: 'user-complete' });
    expect((await pay(paid, '4242424242424242')).status).toBe(303);
    const complete = await failure(stripe.checkout.sessions.expire(paid.id));
    expect(complete.statusCode).toBe(400);
    expect(complete.message).toContain('has a status of "complete"');
  });

  // Moves the sandbox clock: keep last.
  it('expires payment sessions at their expires_at on the sandbox clock', async () => {
    const now = await sandboxNow();
    const short = await ticketSession({ client_reference_id: 'user-short', expires_at: now + 40 * 60 });
    const long = await ticketSession({ client_reference_id: 'user-long' });
    const advance = (seconds: number) => fetch(`${sandbox.url}/_sandbox/advance_time`, { method: 'POST', headers: AUTH, body: `seconds=${seconds}` });

    expect((await advance(39 * 60)).status).toBe(200);
    expect((await stripe.checkout.sessions.retrieve(short.id)).status).toBe('open');
    expect((await advance(2 * 60)).status).toBe(200);
    await waitFor(() => receiver.of('checkout.session.expired', short.id)[0], 'checkout.session.expired (expires_at)');
    expect((await stripe.checkout.sessions.retrieve(short.id)).status).toBe('expired');
    const expiredEvent = (await stripe.events.list({ type: 'checkout.session.expired', limit: 100 })).data.find((e) => (e.data.object as { id: string }).id === short.id)!;
    expect(expiredEvent.created).toBe(short.expires_at);
    expect(expiredEvent.request).toEqual({ id: null, idempotency_key: null });
    expect((await stripe.checkout.sessions.retrieve(long.id)).status).toBe('open');
    expect((await postForm(short.url!, `/checkout/${short.id}/pay`, { cardNumber: '4242424242424242', ...CARD })).status).toBe(410);

    // The default lifetime is 24 hours.
    expect((await advance(24 * 3600)).status).toBe(200);
    await waitFor(() => receiver.of('checkout.session.expired', long.id)[0], 'checkout.session.expired (24 h)');
    expect((await stripe.checkout.sessions.retrieve(long.id)).status).toBe('expired');
    expect(await eventTypesFor([short.id])).toEqual(['checkout.session.expired']);
  });
});
