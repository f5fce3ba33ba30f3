/**
 * verify-payment against the running local stack and its Stripe sandbox: pay on the hosted page
 * (plain form posts, card 4242) → the verification result of spec §3 and the profile role of
 * the plan; an unpaid session ('Payment not completed'); no session id (400); someone else's
 * session (403); Stripe down during verification → a retryable 503 and no lost payment (a later
 * verification and the webhook's retry both complete the sync).
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, stack, withDb } from '../_shared/testing.ts';
import { billingState, CARDS, ensurePrices, eventually, payCheckout, sandboxCall, sandboxStripe, startCheckout } from '../_shared/billing-testing.ts';

const stripe = sandboxStripe();


Deno.test({
  name: 'verify-payment',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();

    await t.step('paid with 4242 → result fields, subscription stored, role premium; verifying again is harmless', async () => {
      const user = await createConfirmedUser('vp-paid');
      const session = await startCheckout(user, prices.premium_quarterly, 'premium');
      const paid = await payCheckout(session.url, CARDS.ok);
      assertEquals(paid.status, 303, paid.text.slice(0, 300));
      assertEquals(paid.location, `${stack.siteUrl}/signup?session_id=${session.sessionId}`);

      const res = await invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      const cs = await stripe.checkout.sessions.retrieve(session.sessionId);
      const sub = await stripe.subscriptions.retrieve(cs.subscription as string) as unknown as { current_period_start: number; current_period_end: number };
      assertEquals(res.body.customerId, cs.customer);
      assertEquals(res.body.subscriptionId, cs.subscription);
      assertEquals(res.body.priceId, prices.premium_quarterly);
      assertEquals(res.body.customerEmail, user.email);
      assertEquals(res.body.periodStart, new Date(sub.current_period_start * 1000).toISOString());
      assertEquals(res.body.periodEnd, new Date(sub.current_period_end * 1000).toISOString());
      assertEquals([res.body.status, res.body.planId, res.body.userRole], ['active', 'premium', 'premium']);

      const state = await billingState(user.id);
      assertEquals(state.role, 'premium');
      assertEquals(state.customerId, cs.customer);
      assertEquals(state.subs.length, 1);
      assertEquals([state.subs[0].status, state.subs[0].plan_id, state.subs[0].stripe_checkout_session_id], ['active', 'premium', session.sessionId]);
      const billing = await withDb(async (db) => (await db.query(`select billing_period::text from public.subscriptions where user_id = $1`, [user.id])).rows[0]);
      assertEquals(billing.billing_period, 'quarterly');

      const again = await invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken });
      assertEquals([again.status, again.body.subscriptionId], [200, cs.subscription]);
      assertEquals((await billingState(user.id)).subs.length, 1);

      const guard = await withDb(async (db) => {
        await db.query('begin');
        await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: user.id, role: 'authenticated' })]);
        const r = (await db.query('select public.has_active_subscription() as ok')).rows[0].ok;
        await db.query('rollback');
        return r;
      });
      assertEquals(guard, true, 'has_active_subscription() for the paying user');

      // The activation mail is queued once, however often verify-payment and the webhooks sync.
      await new Promise((r) => setTimeout(r, 1000));
      const mails = await withDb(async (db) => (await db.query(
        `select payload from public.email_queue where user_id = $1 and email_type = 'subscription_activated'`, [user.id])).rows);
      assertEquals(mails.length, 1);
      assertEquals(mails[0].payload.plan, 'Premium');
      assertEquals(mails[0].payload.amount, '139,00 €');
    });

    await t.step('unpaid session → 400 Payment not completed, nothing stored', async () => {
      const user = await createConfirmedUser('vp-unpaid');
      const session = await startCheckout(user, prices.basic_monthly, 'basic');
      const declined = await payCheckout(session.url, CARDS.declined);
      assertEquals(declined.status, 402);
      const res = await invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken });
      assertEquals(res.status, 400);
      assertEquals(res.body.error, { code: 'payment_not_completed', message: 'Payment not completed' });
      const state = await billingState(user.id);
      assertEquals([state.subs.length, state.role], [0, 'free']);
    });

    await t.step('no session id → 400; malformed → 400; unknown → 404; anonymous → 401', async () => {
      const user = await createConfirmedUser('vp-bad');
      for (const body of [{}, { sessionId: '' }, { sessionId: null }]) {
        const res = await invoke('verify-payment', body, { token: user.accessToken });
        assertEquals([res.status, res.body.error?.code, res.body.error?.message], [400, 'missing_session_id', 'Session ID is required'], JSON.stringify(body));
      }
      const bad = await invoke('verify-payment', { sessionId: 'not-a-session' }, { token: user.accessToken });
      assertEquals([bad.status, bad.body.error?.code], [400, 'validation_failed']);
      const unknown = await invoke('verify-payment', { sessionId: 'cs_test_doesnotexist' }, { token: user.accessToken });
      assertEquals([unknown.status, unknown.body.error?.code], [404, 'session_not_found']);
      const anon = await invoke('verify-payment', { sessionId: 'cs_test_x' });
      assertEquals(anon.status, 401);
    });

    await t.step("someone else's session → 403; the service role may verify", async () => {
      const owner = await createConfirmedUser('vp-owner');
      const other = await createConfirmedUser('vp-other');
      const session = await startCheckout(owner, prices.basic_monthly, 'basic');
      assertEquals((await payCheckout(session.url)).status, 303);
      const res = await invoke('verify-payment', { sessionId: session.sessionId }, { token: other.accessToken });
      assertEquals([res.status, res.body.error?.code], [403, 'forbidden']);
      assertEquals((await billingState(other.id)).role, 'free');
      const svc = await invoke('verify-payment', { sessionId: session.sessionId }, { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey });
      assertEquals([svc.status, svc.body.userRole], [200, 'basic']);
    });

    await t.step('Stripe down during verify-payment → 503 retryable; later verify and the webhook retry complete the sync', async () => {
      const user = await createConfirmedUser('vp-outage');
      const session = await startCheckout(user, prices.enterprise_monthly, 'enterprise');
      const t0 = new Date();
      const outage = await sandboxCall('POST', '/_sandbox/outage', { seconds: '120', status: '503' });
      assertEquals(outage.status, 200, await outage.text());
      try {
        // The hosted page is not part of the API: the customer can still pay.
        assertEquals((await payCheckout(session.url)).status, 303);
        const res = await invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken });
        assertEquals([res.status, res.body.error?.code], [503, 'stripe_unavailable'], JSON.stringify(res.body));
        assertEquals((await billingState(user.id)).role, 'free');
        // The webhook delivery of the completed checkout fails too and stays open for a retry.
        const failed = await eventually(async () => await withDb(async (db) => (await db.query(
          `select id from public.stripe_events where type = 'checkout.session.completed' and received_at >= $1 and processed_at is null and error is not null`,
          [t0])).rows[0]?.id as string | undefined), 30_000);
        assert(failed, 'the webhook attempt during the outage is recorded as failed');
      } finally {
        await sandboxCall('DELETE', '/_sandbox/outage');
      }
      const res = await invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken });
      assertEquals([res.status, res.body.userRole], [200, 'enterprise'], JSON.stringify(res.body));

      // Stripe's retry of the failed delivery (resent now instead of after the backoff) is handled
      // again, not dropped as a duplicate.
      const evt = await withDb(async (db) => (await db.query(
        `select id from public.stripe_events where type = 'checkout.session.completed' and received_at >= $1 and processed_at is null`, [t0])).rows[0]?.id as string | undefined);
      assert(evt, 'the failed ledger entry is still open');
      {
        const resend = await sandboxCall('POST', `/v1/events/${evt}/resend`);
        assertEquals(resend.status, 200, await resend.text());
        const done = await eventually(async () => await withDb(async (db) => (await db.query(
          `select processed_at is not null and error is null as ok from public.stripe_events where id = $1`, [evt])).rows[0]?.ok), 20_000);
        assertEquals(done, true);
      }
      const state = await billingState(user.id);
      assertEquals([state.role, state.subs.length, state.subs[0].status], ['enterprise', 1, 'active']);
    });
  },
});
