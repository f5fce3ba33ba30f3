/**
 * One live subscription per customer (issue 12 finding 7) against the running stack and its
 * Stripe sandbox: two checkouts opened one after the other and both paid end in ONE live
 * subscription; the second is cancelled at Stripe and refunded exactly once, although the
 * sandbox's own webhooks, two parallel verify-payment calls and a re-delivered
 * checkout.session.completed all handle it; the customer gets one mail; a third checkout is
 * refused; the database refuses a second live row whatever the client.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, withDb } from '../_shared/testing.ts';
import { CARDS, ensurePrices, eventually, payCheckout, postWebhook, sandboxStripe, signPayload, startCheckout } from '../_shared/billing-testing.ts';

const stripe = sandboxStripe();


Deno.test({
  name: 'one live subscription per customer',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();

    await t.step('two paid checkouts → one live subscription, the second cancelled and refunded once, one mail', async () => {
      const user = await createConfirmedUser('dup-sub');
      const first = await startCheckout(user, prices.basic_monthly, 'basic');
      const second = await startCheckout(user, prices.premium_monthly, 'premium');
      assertEquals((await payCheckout(first.url, CARDS.ok)).status, 303);
      const ok = await invoke('verify-payment', { sessionId: first.sessionId }, { token: user.accessToken });
      assertEquals(ok.status, 200, JSON.stringify(ok.body));

      assertEquals((await payCheckout(second.url, CARDS.ok)).status, 303);
      const cs2 = await stripe.checkout.sessions.retrieve(second.sessionId);
      const sub2 = cs2.subscription as string;
      // verify-payment twice in parallel while the sandbox delivers its own webhooks
      const answers = await Promise.all([1, 2].map(() => invoke('verify-payment', { sessionId: second.sessionId }, { token: user.accessToken })));
      for (const a of answers) assertEquals([a.status, a.body.error?.code], [409, 'duplicate_subscription'], JSON.stringify(a.body));
      // the same checkout.session.completed delivered again (a new event id: Stripe resends on its own schedule)
      for (let i = 0; i < 2; i++) {
        const event = {
          id: `evt_dup_${crypto.randomUUID().replaceAll('-', '')}`, object: 'event', api_version: '2023-10-16', created: Math.floor(Date.now() / 1000),
          livemode: false, type: 'checkout.session.completed', pending_webhooks: 1, request: { id: null, idempotency_key: null },
          data: { object: { id: cs2.id, object: 'checkout.session', subscription: sub2, customer: cs2.customer, metadata: cs2.metadata, client_reference_id: user.id } },
        };
        const payload = JSON.stringify(event);
        const res = await postWebhook(payload, await signPayload(payload));
        assertEquals(res.status, 200, JSON.stringify(res.body));
      }

      const live = await eventually(async () => {
        const rows = await withDb(async (db) => (await db.query(
          `select stripe_subscription_id, status::text from public.subscriptions where user_id = $1 order by created_at`, [user.id])).rows);
        assert(rows.length === 2 && rows[1].status === 'canceled', JSON.stringify(rows));
        return rows;
      });
      assertEquals(live.map((r) => r.status), ['active', 'canceled']);
      assertEquals(live[0].stripe_subscription_id, ok.body.subscriptionId);
      assertEquals((await stripe.subscriptions.retrieve(sub2)).status, 'canceled');
      assertEquals((await stripe.subscriptions.retrieve(ok.body.subscriptionId)).status, 'active');

      const invoice = (await stripe.invoices.retrieve((await stripe.subscriptions.retrieve(sub2)).latest_invoice as string)) as unknown as { charge: string; amount_paid: number };
      const refunds = await stripe.refunds.list({ charge: invoice.charge });
      assertEquals(refunds.data.length, 1, 'refunded exactly once');
      assertEquals([refunds.data[0]!.amount, refunds.data[0]!.reason], [invoice.amount_paid, 'duplicate']);
      const charge = await stripe.charges.retrieve(invoice.charge);
      assertEquals(charge.refunded, true);

      const ledger = await withDb(async (db) => (await db.query(
        `select kept_subscription_id, refund_id, refunded_cents from private.duplicate_subscriptions where stripe_subscription_id = $1`, [sub2])).rows);
      assertEquals(ledger, [{ kept_subscription_id: ok.body.subscriptionId, refund_id: refunds.data[0]!.id, refunded_cents: invoice.amount_paid }]);
      const mails = await withDb(async (db) => (await db.query(
        `select lang, payload from public.email_queue where user_id = $1 and email_type = 'subscription_duplicate_refunded'`, [user.id])).rows);
      assertEquals(mails.length, 1);
      assertEquals(mails[0].payload.amount, '49,00 €');
      const role = await withDb(async (db) => (await db.query(`select user_role::text from public.profiles where id = $1`, [user.id])).rows[0].user_role);
      assertEquals(role, 'basic', 'the kept subscription decides the plan');

      const third = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'X', priceId: prices.premium_monthly, planType: 'premium' }, { token: user.accessToken });
      assertEquals([third.status, third.body.error?.code], [409, 'already_subscribed']);
    });

    await t.step('syncs of the same new subscription racing each other are no duplicate: nothing is refunded', async () => {
      for (let round = 0; round < 3; round++) {
        const user = await createConfirmedUser(`race-${round}`);
        const session = await startCheckout(user, prices.basic_monthly, 'basic');
        assertEquals((await payCheckout(session.url, CARDS.ok)).status, 303);
        // the sandbox's webhooks and four verify-payment calls sync the same subscription at once
        const answers = await Promise.all([1, 2, 3, 4].map(() => invoke('verify-payment', { sessionId: session.sessionId }, { token: user.accessToken })));
        for (const a of answers) assertEquals(a.status, 200, JSON.stringify(a.body));
        const sub = answers[0]!.body.subscriptionId as string;
        assertEquals((await stripe.subscriptions.retrieve(sub)).status, 'active');
        const invoice = (await stripe.invoices.retrieve((await stripe.subscriptions.retrieve(sub)).latest_invoice as string)) as unknown as { charge: string };
        assertEquals((await stripe.refunds.list({ charge: invoice.charge })).data, []);
        const rows = await withDb(async (db) => (await db.query(`select status::text from public.subscriptions where user_id = $1`, [user.id])).rows);
        assertEquals(rows, [{ status: 'active' }]);
      }
    });

    await t.step('the database refuses a second live subscription row whatever the writer', async () => {
      const user = await createConfirmedUser('dup-db');
      const err = await withDb(async (db) => {
        await db.query(`insert into public.subscriptions (user_id, plan_id, status, stripe_customer_id, stripe_subscription_id, last_synced_at)
                        values ($1, 'basic', 'active', 'cus_dupdb', $2, now())`, [user.id, `sub_dupdb_${crypto.randomUUID().slice(0, 8)}`]);
        try {
          await db.query(`insert into public.subscriptions (user_id, plan_id, status, stripe_customer_id, stripe_subscription_id, last_synced_at)
                          values ($1, 'premium', 'trialing', 'cus_dupdb', $2, now())`, [user.id, `sub_dupdb_${crypto.randomUUID().slice(0, 8)}`]);
          return null;
        } catch (e) {
          return (e as { code?: string }).code;
        }
      });
      assertEquals(err, '23505');
    });
  },
});
