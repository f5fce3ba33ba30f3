/**
 * Deno contract test for the Stripe sandbox: the `stripe` SDK as Edge Functions use it
 * (`Stripe.createFetchHttpClient()`, API version 2023-10-16, 2 retries) and webhook verification
 * with `constructEventAsync` + `Stripe.createSubtleCryptoProvider()`.
 *
 * Run by scripts/local-stack/tests/stripe-deno.test.ts, which starts a sandbox and passes
 * STRIPE_SANDBOX_PORT, STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.
 */
import Stripe from 'npm:stripe@^23';
import assert from 'node:assert/strict';

const port = Number(Deno.env.get('STRIPE_SANDBOX_PORT'));
const secretKey = Deno.env.get('STRIPE_SECRET_KEY')!;
const webhookSecret = Deno.env.get('STRIPE_WEBHOOK_SECRET')!;

const stripe = new Stripe(secretKey, {
  host: '127.0.0.1',
  port,
  protocol: 'http',
  apiVersion: '2023-10-16' as Stripe.LatestApiVersion,
  maxNetworkRetries: 2,
  httpClient: Stripe.createFetchHttpClient(),
});
const crypto = Stripe.createSubtleCryptoProvider();

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

Deno.test('stripe SDK over fetch: customers, prices, checkout with hosted page, subscription, errors', async () => {
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
});

Deno.test('webhooks verify with constructEventAsync and SubtleCrypto; tampered and stale fail', async () => {
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
});
