/**
 * stripe-webhook against the running local stack and its Stripe sandbox (which delivers its own
 * events to this function too): forged, tampered, stale and missing signatures (400, nothing
 * recorded); the same event twice changes nothing the second time; events out of order end in
 * the newest state (and an older snapshot never overwrites a newer one); a deleted subscription
 * returns the role to free; a renewal that fails after advancing a test clock (card 0341) ends
 * past_due in the database, then canceled after the last retry.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, serviceClient, withDb } from '../_shared/testing.ts';
import {
  billingState,
  CARDS,
  ensurePrices,
  eventually,
  payCheckout,
  postWebhook,
  sandboxStripe,
  signPayload,
} from '../_shared/billing-testing.ts';
import { syncSubscription } from '../_shared/billing-sync.ts';
import { adminClient } from '../_shared/supabase.ts';

const stripe = sandboxStripe();
const DAY = 86_400;

/** A user with a paid subscription (checkout on the hosted page + verify-payment). */
async function subscriber(tag: string, priceId: string, planType: string, card = CARDS.ok, customerId?: string) {
  const user = await createConfirmedUser(tag);
  if (customerId) await withDb((db) => db.query('update public.profiles set stripe_customer_id = $2 where id = $1', [user.id, customerId]));
  const cs = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'Test', priceId, planType }, { token: user.accessToken });
  assertEquals(cs.status, 200, JSON.stringify(cs.body));
  assertEquals((await payCheckout(cs.body.url, card)).status, 303);
  const verified = await invoke('verify-payment', { sessionId: cs.body.sessionId }, { token: user.accessToken });
  assertEquals(verified.status, 200, JSON.stringify(verified.body));
  return { ...user, subscriptionId: verified.body.subscriptionId as string, customerId: verified.body.customerId as string };
}

function fakeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${crypto.randomUUID().replaceAll('-', '')}`) {
  return { id, object: 'event', api_version: '2023-10-16', created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object }, pending_webhooks: 1, request: { id: null, idempotency_key: null } };
}

async function ledger(id: string) {
  return await withDb(async (db) => (await db.query('select type, processed_at, error from public.stripe_events where id = $1', [id])).rows[0] ?? null);
}

async function storedSub(subscriptionId: string) {
  return await withDb(async (db) => (await db.query(
    `select status::text, cancel_at_period_end, last_synced_at, updated_at, user_id from public.subscriptions where stripe_subscription_id = $1`,
    [subscriptionId])).rows[0]);
}

Deno.test({
  name: 'stripe-webhook',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();

    await t.step('forged, tampered, stale or missing signature → 400, nothing recorded', async () => {
      const event = fakeEvent('customer.subscription.updated', { id: 'sub_doesnotmatter', object: 'subscription' });
      const payload = JSON.stringify(event);
      const forged = await postWebhook(payload, await signPayload(payload, undefined, 'whsec_not_the_secret'));
      assertEquals([forged.status, forged.body.error?.code], [400, 'invalid_signature']);
      const tampered = await postWebhook(payload.replace('sub_doesnotmatter', 'sub_other'), await signPayload(payload));
      assertEquals(tampered.status, 400);
      const stale = await postWebhook(payload, await signPayload(payload, Math.floor(Date.now() / 1000) - 301));
      assertEquals([stale.status, stale.body.error?.code], [400, 'invalid_signature']);
      assert(/timestamp/i.test(stale.body.error.message), stale.body.error.message);
      // issue 31: correctly signed, but 10 minutes in the future
      const future = await postWebhook(payload, await signPayload(payload, Math.floor(Date.now() / 1000) + 600));
      assertEquals([future.status, future.body.error?.code], [400, 'invalid_signature']);
      assert(/timestamp/i.test(future.body.error.message), future.body.error.message);
      const missing = await postWebhook(payload, null);
      assertEquals(missing.status, 400);
      assertEquals(await ledger(event.id), null);
      // Within the 300 s tolerance the same event is accepted; Stripe does not know the
      // subscription, which no retry can fix: acknowledged and recorded.
      const recent = await postWebhook(payload, await signPayload(payload, Math.floor(Date.now() / 1000) - 290));
      assertEquals([recent.status, recent.body.reason], [200, 'resource_missing'], JSON.stringify(recent.body));
      assert((await ledger(event.id))?.processed_at);
    });

    await t.step('correctly signed but malformed bodies → 400 malformed_event, nothing recorded (issue 12 finding 11)', async () => {
      const good = fakeEvent('customer.subscription.updated', { id: 'sub_x', object: 'subscription' });
      const bodies: unknown[] = [
        {},
        [],
        'evt_string',
        { ...good, id: 'not-an-event-id' },
        { ...good, id: undefined },
        { ...good, created: 'yesterday' },
        { ...good, data: null },
        { ...good, data: { object: 'sub_x' } },
        fakeEvent('customer.subscription.updated', { object: 'subscription' }),
        fakeEvent('customer.subscription.deleted', { id: 42 }),
      ];
      for (const body of bodies) {
        const payload = JSON.stringify(body);
        const res = await postWebhook(payload, await signPayload(payload));
        assertEquals([res.status, res.body.error?.code], [400, 'malformed_event'], payload);
      }
      const unsigned = fakeEvent('customer.subscription.updated', { object: 'subscription' });
      assertEquals(await ledger(unsigned.id), null);
      const count = await withDb(async (db) => (await db.query(`select count(*)::int as n from public.stripe_events where id !~ '^evt_'`)).rows[0].n);
      assertEquals(count, 0);
    });

    await t.step('an event type the product does not handle is acknowledged and recorded', async () => {
      const event = fakeEvent('customer.created', { id: 'cus_x', object: 'customer' });
      const payload = JSON.stringify(event);
      const res = await postWebhook(payload, await signPayload(payload));
      assertEquals([res.status, res.body.ignored], [200, true]);
      const row = await ledger(event.id);
      assert(row?.processed_at, 'processed');
    });

    await t.step('the same event delivered twice changes nothing the second time', async () => {
      const user = await subscriber('wh-dup', prices.basic_monthly, 'basic');
      const event = fakeEvent('customer.subscription.updated', { id: user.subscriptionId, object: 'subscription' });
      const payload = JSON.stringify(event);
      const first = await postWebhook(payload, await signPayload(payload));
      assertEquals([first.status, first.body.synced, first.body.userRole], [200, 1, 'basic'], JSON.stringify(first.body));
      const afterFirst = await storedSub(user.subscriptionId);
      const ledgerFirst = await ledger(event.id);
      assert(ledgerFirst.processed_at);
      // A marker a second sync would overwrite (Stripe says cancel_at_period_end = false).
      await withDb((db) => db.query('update public.subscriptions set cancel_at_period_end = true where stripe_subscription_id = $1', [user.subscriptionId]));

      const second = await postWebhook(payload, await signPayload(payload));
      assertEquals([second.status, second.body.duplicate], [200, true]);
      const afterSecond = await storedSub(user.subscriptionId);
      assertEquals(afterSecond.cancel_at_period_end, true, 'not synced again');
      assertEquals(afterSecond.last_synced_at, afterFirst.last_synced_at);
      assertEquals((await ledger(event.id)).processed_at, ledgerFirst.processed_at);
      assertEquals(await withDb(async (db) => (await db.query('select count(*)::int as n from public.stripe_events where id = $1', [event.id])).rows[0].n), 1);
    });

    await t.step('events out of order end in the newest state; a deleted subscription returns the role to free', async () => {
      const user = await subscriber('wh-order', prices.premium_monthly, 'premium');
      assertEquals((await billingState(user.id)).role, 'premium');
      const created = (await stripe.events.list({ type: 'customer.subscription.created', limit: 100 })).data
        .find((e) => (e.data.object as { id: string }).id === user.subscriptionId);
      assert(created, 'the sandbox recorded customer.subscription.created');

      await stripe.subscriptions.cancel(user.subscriptionId);
      // The sandbox delivers customer.subscription.deleted to the function by itself.
      const ended = await eventually(async () => (await storedSub(user.subscriptionId)).status === 'canceled');
      assert(ended, 'customer.subscription.deleted synced');
      assertEquals((await billingState(user.id)).role, 'free');

      // The older "created" event (subscription active in its payload) arrives late, as a new delivery.
      const late = { ...created, id: `evt_late_${crypto.randomUUID().replaceAll('-', '')}` };
      const payload = JSON.stringify(late);
      const res = await postWebhook(payload, await signPayload(payload));
      assertEquals(res.status, 200, JSON.stringify(res.body));
      assertEquals((await storedSub(user.subscriptionId)).status, 'canceled');
      assertEquals((await billingState(user.id)).role, 'free');

      // An older snapshot never overwrites a newer one: a sync whose read started a minute ago
      // and a direct RPC call with an old watermark both leave the row alone.
      const before = await storedSub(user.subscriptionId);
      await syncSubscription(stripe, adminClient(), user.subscriptionId, { now: () => Date.now() - 60_000 });
      const stale = await serviceClient().rpc('sync_subscription', {
        p_user_id: user.id,
        p_stripe_customer_id: user.customerId,
        p_stripe_subscription_id: user.subscriptionId,
        p_status: 'active',
        p_plan_id: 'premium',
        p_synced_at: new Date(Date.now() - 3_600_000).toISOString(),
      });
      assertEquals(stale.error, null);
      const after = await storedSub(user.subscriptionId);
      assertEquals([after.status, after.last_synced_at], ['canceled', before.last_synced_at]);
      assertEquals((await billingState(user.id)).role, 'free');
    });

    await t.step('renewal fails after advancing the test clock (card 0341) → past_due, then canceled and free', async () => {
      const now = Math.floor(Date.now() / 1000);
      const clock = await stripe.testHelpers.testClocks.create({ frozen_time: now, name: 'renewal failure' });
      const customer = await stripe.customers.create({ email: 'renewal@test.teamwerk.de', test_clock: clock.id });
      const user = await subscriber('wh-renew', prices.basic_monthly, 'basic', CARDS.failsOnRenewal, customer.id);
      assertEquals(user.customerId, customer.id);
      assertEquals((await billingState(user.id)).role, 'basic');

      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: now + 32 * DAY });
      const pastDue = await eventually(async () => (await storedSub(user.subscriptionId)).status === 'past_due', 20_000);
      assert(pastDue, `past_due reflected in the database (is ${(await storedSub(user.subscriptionId)).status})`);
      assertEquals((await billingState(user.id)).role, 'basic', 'past_due keeps the plan while Stripe retries');
      const failedMail = await withDb(async (db) => (await db.query(
        `select count(*)::int as n from public.email_queue where user_id = $1 and email_type = 'payment_failed'`, [user.id])).rows[0].n);
      assertEquals(failedMail, 1);

      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: now + 42 * DAY });
      const canceled = await eventually(async () => (await storedSub(user.subscriptionId)).status === 'canceled', 20_000);
      assert(canceled, 'canceled after the last retry');
      assertEquals((await billingState(user.id)).role, 'free');
    });
  },
});
