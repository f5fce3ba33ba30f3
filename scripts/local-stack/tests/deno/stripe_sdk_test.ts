/**
 * Deno contract test for the Stripe sandbox: the `stripe` SDK as Edge Functions use it
 * (`Stripe.createFetchHttpClient()`, API version 2023-10-16, 2 retries) and webhook verification
 * with `constructEventAsync` + `Stripe.createSubtleCryptoProvider()`.
 *
 * scripts/local-stack/tests/stripe-deno.test.ts runs it against a sandbox started in Node (the
 * daemon's runtime) and passes STRIPE_SANDBOX_PORT. Run alone
 * (`node_modules/.bin/deno test --allow-all scripts/local-stack/tests/deno/stripe_sdk_test.ts`),
 * it starts its own sandbox in-process.
 */
import Stripe from 'npm:stripe@^23';
import assert from 'node:assert/strict';
import { stackConfig } from '../../config.ts';
import { createStripeSandbox } from '../../services/stripe/index.ts';

// The secrets of the offset-5000 data folder, which the vitest wrapper's sandbox uses too.
const { stripeSecretKey: secretKey, stripeWebhookSecret: webhookSecret } = stackConfig({ TEAMWERK_STACK_OFFSET: '5000' });
const crypto = Stripe.createSubtleCryptoProvider();
let port = Number(Deno.env.get('STRIPE_SANDBOX_PORT') ?? '0');
let stripe: Stripe;

function client(): Stripe {
  return new Stripe(secretKey, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    apiVersion: '2023-10-16' as Stripe.LatestApiVersion,
    maxNetworkRetries: 2,
    httpClient: Stripe.createFetchHttpClient(),
  });
}

interface Hit {
  body: string;
  signature: string;
  type: string;
  objectId: string;
}

async function waitFor<T>(fn: () => T | undefined, what: string, ms = 8000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sdkFlow(): Promise<void> {
  const customer = await stripe.customers.create({ email: 'deno@example.com', name: 'Deno User', metadata: { userId: 'd-1' } });
  assert.match(customer.id, /^cus_/);
  const found = await stripe.customers.search({ query: "email:'deno@example.com'" });
  assert.deepEqual(found.data.map((c) => c.id), [customer.id]);

  const price = await stripe.prices.create({
    product_data: { name: 'Deno Premium' },
    unit_amount: 4900,
    currency: 'eur',
    recurring: { interval: 'month', interval_count: 6 },
  });
  assert.equal(price.recurring?.interval_count, 6);

  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    payment_method_types: ['card'],
    line_items: [{ price: price.id, quantity: 1 }],
    success_url: 'http://127.0.0.1:5173/de/signup?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:5173/de/prices',
    locale: 'de',
    customer: customer.id,
    metadata: { userId: 'd-1' },
  } as unknown as Stripe.Checkout.SessionCreateParams);
  const page = await (await fetch(session.url!)).text();
  assert.ok(page.includes('Zahlungspflichtig abonnieren'));
  const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
  const res = await fetch(new URL(action, session.url!), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12/34', cardCvc: '123', billingName: 'Deno User' }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `http://127.0.0.1:5173/de/signup?session_id=${session.id}`);

  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
  assert.equal(done.payment_status, 'paid');
  const sub = done.subscription as Stripe.Subscription & { current_period_end: number };
  assert.equal(sub.status, 'active');
  assert.equal(sub.items.data[0]!.price.id, price.id);
  assert.ok(sub.current_period_end > sub.start_date);

  const canceled = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
  assert.equal(canceled.cancel_at_period_end, true);

  await assert.rejects(
    () => stripe.customers.create({ email: 'x@example.com', unknown_field: 1 } as unknown as Stripe.CustomerCreateParams),
    (e: unknown) => e instanceof Stripe.errors.StripeInvalidRequestError && e.message === 'Received unknown parameter: unknown_field',
  );
  await assert.rejects(
    () => stripe.customers.retrieve('cus_missing'),
    (e: unknown) => e instanceof Stripe.errors.StripeInvalidRequestError && e.statusCode === 404 && e.code === 'resource_missing',
  );
  const badKey = new Stripe('sk_test_wrong', { host: '127.0.0.1', port, protocol: 'http', httpClient: Stripe.createFetchHttpClient() });
  await assert.rejects(() => badKey.customers.list(), (e: unknown) => e instanceof Stripe.errors.StripeAuthenticationError);
}

async function webhookFlow(): Promise<void> {
  const hits: Hit[] = [];
  const ac = new AbortController();
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, signal: ac.signal, onListen: () => {} }, async (req) => {
    const body = await req.text();
    const ev = JSON.parse(body) as { type: string; data: { object: { id: string } } };
    hits.push({ body, signature: req.headers.get('stripe-signature') ?? '', type: ev.type, objectId: ev.data.object.id });
    return new Response('{"received":true}', { headers: { 'content-type': 'application/json' } });
  });
  const endpoint = await stripe.webhookEndpoints.create({
    url: `http://127.0.0.1:${server.addr.port}/stripe-webhook`,
    enabled_events: ['customer.created', 'customer.updated'],
  });
  try {
    const c = await stripe.customers.create({ email: 'hook@example.com' });
    const hit = await waitFor(() => hits.find((h) => h.type === 'customer.created' && h.objectId === c.id), 'customer.created');
    const event = await stripe.webhooks.constructEventAsync(hit.body, hit.signature, webhookSecret, 300, crypto);
    assert.equal(event.type, 'customer.created');
    assert.equal((event.data.object as Stripe.Customer).email, 'hook@example.com');

    const tampered = hit.body.replace('hook@example.com', 'evil@example.com');
    await assert.rejects(
      () => stripe.webhooks.constructEventAsync(tampered, hit.signature, webhookSecret, 300, crypto),
      (e: unknown) => e instanceof Stripe.errors.StripeSignatureVerificationError,
    );
    const stale = await stripe.webhooks.generateTestHeaderStringAsync({
      payload: hit.body,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
      cryptoProvider: crypto,
    });
    await assert.rejects(
      () => stripe.webhooks.constructEventAsync(hit.body, stale, webhookSecret, 300, crypto),
      (e: unknown) => e instanceof Stripe.errors.StripeSignatureVerificationError && /tolerance/i.test(e.message),
    );
  } finally {
    await stripe.webhookEndpoints.del(endpoint.id);
    ac.abort();
    await server.finished;
  }
}

Deno.test('stripe SDK in Deno against the sandbox', async (t) => {
  let sandbox: { close(): Promise<void>; port: number } | null = null;
  let dataDir: string | null = null;
  if (!port) {
    dataDir = Deno.makeTempDirSync({ prefix: 'stripe-sandbox-deno-' });
    const config = { ...stackConfig({ TEAMWERK_STACK_OFFSET: '5000' }), dataDir };
    sandbox = await createStripeSandbox({ config, pool: undefined as never, mailer: undefined as never, log: () => {} }, { port: 0, webhookUrl: null });
    port = sandbox.port;
  }
  stripe = client();
  try {
    await t.step('fetch HTTP client: customers, prices, checkout with the hosted page, subscription, errors', sdkFlow);
    await t.step('webhooks verify with constructEventAsync and SubtleCrypto; tampered and stale fail', webhookFlow);
  } finally {
    await sandbox?.close();
    if (dataDir) Deno.removeSync(dataDir, { recursive: true });
  }
});
