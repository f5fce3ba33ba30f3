/**
 * create-checkout-session against the running local stack and its Stripe sandbox: only for the
 * caller themselves, the customer is created once and reused, the checkout session has the
 * parameters of spec §7, bad input, and the spec §8 message when Stripe refuses the secret key.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { answer, createConfirmedUser, invoke, post, stack, withDb } from '../_shared/testing.ts';
import { ensurePrices, sandboxStripe } from '../_shared/billing-testing.ts';
import { createCheckoutSessionHandler } from './handler.ts';
import { adminClient } from '../_shared/supabase.ts';
import { createStripe } from '../_shared/stripe.ts';

const stripe = sandboxStripe();

Deno.test({
  name: 'create-checkout-session',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();
    const alice = await createConfirmedUser('cs-alice');
    const bob = await createConfirmedUser('cs-bob');
    const body = (user: { id: string; email: string }, extra: Record<string, unknown> = {}) => ({
      userId: user.id,
      email: user.email,
      name: 'Alice Muster',
      priceId: prices.premium_monthly,
      planType: 'premium',
      ...extra,
    });

    await t.step('anonymous → 401; another user → 403 and no customer is created', async () => {
      const anon = await invoke('create-checkout-session', body(alice));
      assertEquals(anon.status, 401);
      const other = await invoke('create-checkout-session', body(alice), { token: bob.accessToken });
      assertEquals([other.status, other.body.error?.code], [403, 'forbidden']);
      const customers = await stripe.customers.list({ email: alice.email });
      assertEquals(customers.data.length, 0);
      const p = await withDb(async (db) => (await db.query('select stripe_customer_id from public.profiles where id = $1', [alice.id])).rows[0]);
      assertEquals(p.stripe_customer_id, null);
    });

    let firstCustomer = '';
    await t.step('self (German): session in subscription mode, card only, one item, /de URLs, customer stored', async () => {
      const res = await invoke('create-checkout-session', body(alice, { locale: 'de' }), { token: alice.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      assert(typeof res.body.url === 'string' && res.body.url.includes(`/checkout/${res.body.sessionId}`), res.body.url);
      const session = await stripe.checkout.sessions.retrieve(res.body.sessionId, { expand: ['line_items'] });
      assertEquals(session.mode, 'subscription');
      assertEquals((session as unknown as { payment_method_types: string[] }).payment_method_types, ['card']);
      assertEquals(session.locale, 'de');
      assertEquals(session.success_url, `${stack.siteUrl}/de/signup?session_id={CHECKOUT_SESSION_ID}`);
      assertEquals(session.cancel_url, `${stack.siteUrl}/de/prices`);
      assertEquals(session.metadata, { userId: alice.id, planType: 'premium' });
      assertEquals(session.line_items?.data.map((i) => [i.price?.id, i.quantity]), [[prices.premium_monthly, 1]]);
      const customer = await stripe.customers.retrieve(session.customer as string);
      assert(!('deleted' in customer && customer.deleted));
      const c = customer as { email: string | null; name?: string | null; metadata: Record<string, string> };
      assertEquals([c.email, c.name, c.metadata.userId], [alice.email, 'Alice Muster', alice.id]);
      const p = await withDb(async (db) => (await db.query('select stripe_customer_id from public.profiles where id = $1', [alice.id])).rows[0]);
      assertEquals(p.stripe_customer_id, session.customer);
      firstCustomer = session.customer as string;
    });

    await t.step('second call (English) reuses the customer; URLs without /de', async () => {
      const res = await invoke('create-checkout-session', body(alice, { priceId: prices.basic_yearly, planType: 'basic' }), { token: alice.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      const session = await stripe.checkout.sessions.retrieve(res.body.sessionId);
      assertEquals(session.customer, firstCustomer);
      assertEquals(session.locale, 'en');
      assertEquals(session.success_url, `${stack.siteUrl}/signup?session_id={CHECKOUT_SESSION_ID}`);
      assertEquals(session.cancel_url, `${stack.siteUrl}/prices`);
      assertEquals((await stripe.customers.list({ email: alice.email })).data.length, 1);
    });

    await t.step('two first calls at once create one customer', async () => {
      const carol = await createConfirmedUser('cs-carol');
      const both = await Promise.all([1, 2].map(() => invoke('create-checkout-session', body(carol), { token: carol.accessToken })));
      assertEquals(both.map((r) => r.status), [200, 200]);
      assertEquals((await stripe.customers.list({ email: carol.email })).data.length, 1);
    });

    await t.step('bad input: unknown price, plan mismatch, not a price id, missing fields → 400', async () => {
      const unknown = await invoke('create-checkout-session', body(alice, { priceId: 'price_doesnotexist' }), { token: alice.accessToken });
      assertEquals([unknown.status, unknown.body.error?.code], [400, 'invalid_price']);
      const mismatch = await invoke('create-checkout-session', body(alice, { planType: 'basic' }), { token: alice.accessToken });
      assertEquals([mismatch.status, mismatch.body.error?.code], [400, 'plan_mismatch']);
      const notPrice = await invoke('create-checkout-session', body(alice, { priceId: 'premium' }), { token: alice.accessToken });
      assertEquals([notPrice.status, notPrice.body.error?.code], [400, 'validation_failed']);
      const missing = await invoke('create-checkout-session', { userId: alice.id }, { token: alice.accessToken });
      assertEquals([missing.status, missing.body.error?.code], [400, 'validation_failed']);
    });

    await t.step('a stored customer Stripe does not know is replaced', async () => {
      const dave = await createConfirmedUser('cs-dave');
      await withDb((db) => db.query(`update public.profiles set stripe_customer_id = 'cus_demo_gone_' || substr(md5(random()::text), 1, 8) where id = $1`, [dave.id]));
      const res = await invoke('create-checkout-session', body(dave), { token: dave.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      const session = await stripe.checkout.sessions.retrieve(res.body.sessionId);
      const p = await withDb(async (db) => (await db.query('select stripe_customer_id from public.profiles where id = $1', [dave.id])).rows[0]);
      assertEquals(p.stripe_customer_id, session.customer);
    });

    // A missing key answers 500 server_misconfigured before anything (issue 12 §3, _shared/secrets_test.ts);
    // a key Stripe does not know still gets the spec §8 message.
    await t.step('a STRIPE_SECRET_KEY Stripe refuses: customer creation fails with the spec §8 message', async () => {
      const erin = await createConfirmedUser('cs-erin');
      const saved = Deno.env.get('STRIPE_SECRET_KEY');
      Deno.env.set('STRIPE_SECRET_KEY', `sk_test_unknown_${crypto.randomUUID().replaceAll('-', '')}`);
      let handler;
      try {
        handler = createCheckoutSessionHandler({
          resolveCaller: () => Promise.resolve({ kind: 'user' as const, userId: erin.id, email: erin.email, accessToken: erin.accessToken, isAdmin: false }),
          admin: adminClient(),
          stripe: createStripe(),
          siteUrl: stack.siteUrl,
        });
      } finally {
        if (saved) Deno.env.set('STRIPE_SECRET_KEY', saved);
      }
      const res = await answer(await handler(post(body(erin))));
      assertEquals(res.status, 500);
      assertEquals(res.body.error, { code: 'stripe_not_configured', message: 'Stripe is not properly configured with a valid API key.' });
      const p = await withDb(async (db) => (await db.query('select stripe_customer_id from public.profiles where id = $1', [erin.id])).rows[0]);
      assertEquals(p.stripe_customer_id, null);
    });
  },
});
