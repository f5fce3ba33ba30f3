/**
 * delete-account (issue 32 §1 "Deleting an account keeps charging") against the running local
 * stack and its Stripe sandbox:
 * - a paying user deletes the account: the sandbox subscription is canceled at once, the
 *   cancellation is recorded (private.account_deletion_cancellations outlives the account), the
 *   confirmation mail reaches the mailbox; a wrong address deletes nothing and Stripe is untouched;
 * - webhooks arriving later for the deleted customer (subscription deleted / updated) answer 2xx,
 *   are processed in the ledger without error and store nothing for the gone account;
 * - an admin deleting a paying user: the same; a non-admin is refused and nothing changes;
 * - Stripe unreachable at deletion: the account is deleted, the cancellation stays queued with the
 *   error (the subscription is still active), and the cron run (service key) cancels it later, once,
 *   with one mail;
 * - a deletion past the function (the Auth admin API) is queued by the database too and cancelled
 *   by the cron run; an account that never paid gets the account_deleted mail and no queue row.
 * The cron job of the queue is paused while the test runs (restored at the end), so the test's own
 * runs decide what happens when.
 */
import Stripe from 'stripe';
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, mailbox, serviceClient, stack, withDb } from '../_shared/testing.ts';
import { ensurePrices, eventually, payCheckout, postWebhook, SANDBOX_KEY, sandboxStripe, signPayload } from '../_shared/billing-testing.ts';
import { adminClient, callerClient, resolveCaller } from '../_shared/supabase.ts';
import { createDeleteAccountHandler } from './handler.ts';

const stripe = sandboxStripe();
const service = { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey };

/** A confirmed user with a paid subscription (hosted checkout with 4242 + verify-payment). */
async function subscriber(tag: string, priceId: string, planType: string, lang: 'de' | 'en' = 'en') {
  const user = await createConfirmedUser(tag, { preferred_language: lang });
  const cs = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'Test', priceId, planType, locale: lang }, { token: user.accessToken });
  assertEquals(cs.status, 200, JSON.stringify(cs.body));
  assertEquals((await payCheckout(cs.body.url)).status, 303);
  const verified = await invoke('verify-payment', { sessionId: cs.body.sessionId }, { token: user.accessToken });
  assertEquals(verified.status, 200, JSON.stringify(verified.body));
  const sub = await stripe.subscriptions.retrieve(verified.body.subscriptionId as string);
  assertEquals(sub.status, 'active');
  return { ...user, subscriptionId: sub.id, customerId: verified.body.customerId as string };
}

async function record(userId: string) {
  return await withDb(async (db) => (await db.query(
    `select stripe_customer_id, known_subscription_ids, deleted_by, email, lang, status, canceled_subscription_ids, attempts,
            last_error, completed_at, next_attempt_at
     from private.account_deletion_cancellations where user_id = $1`, [userId])).rows[0] ?? null);
}

/**
 * Runs the queue as pg_cron does (the function with the service key) until the row of `userId` is
 * done: rows of earlier test files may be due before it (a run claims a batch), so one run is not
 * enough in the full suite. Errors: throws after 20 runs.
 */
async function cronRunsUntilDone(userId: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const run = await invoke('delete-account', {}, service);
    assertEquals(run.status, 200, JSON.stringify(run.body));
    if ((await record(userId))?.status === 'done') return;
  }
  throw new Error(`the deletion cancellation of ${userId} is not done after 20 cron runs`);
}

async function queued(email: string) {
  return await withDb(async (db) => (await db.query(
    `select email_type, lang, user_id, payload from public.email_queue where email = lower($1) and email_type like 'account_deleted%' order by id`,
    [email])).rows);
}

async function accountExists(userId: string): Promise<boolean> {
  return await withDb(async (db) => (await db.query(
    'select exists (select 1 from auth.users where id = $1) or exists (select 1 from public.profiles where id = $1) as e', [userId])).rows[0].e);
}

async function setCron(active: boolean) {
  await withDb((db) => db.query(`select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'delete-account-cancellations'`, [active]));
}

/** Delivers the queued mails now (what pg_cron does every minute); the subjects of `to`'s deletion mails in the mailbox. */
async function deliver(to: string): Promise<string[]> {
  assertEquals((await invoke('process-email-queue', {}, service)).status, 200);
  const deletion = /deleted|gelöscht/i;
  const end = Date.now() + 15_000;
  for (;;) {
    const found = (await mailbox(to)).filter((m) => deletion.test(m.subject));
    if (found.length || Date.now() > end) return found.map((m) => m.subject);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function fakeEvent(type: string, object: unknown) {
  return {
    id: `evt_test_${crypto.randomUUID().replaceAll('-', '')}`, object: 'event', api_version: '2023-10-16', created: Math.floor(Date.now() / 1000),
    livemode: false, type, data: { object }, pending_webhooks: 1, request: { id: null, idempotency_key: null },
  };
}

Deno.test({
  name: 'delete-account',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();
    await setCron(false);
    try {
      let selfDeleted: Awaited<ReturnType<typeof subscriber>> | null = null;

      await t.step('a paying user deletes the account: canceled in the sandbox at once, recorded, confirmation mailed', async () => {
        const user = await subscriber('del-self', prices.basic_monthly, 'basic', 'en');

        const wrong = await invoke('delete-account', { email: 'someone-else@test.teamwerk.de' }, { token: user.accessToken });
        assertEquals([wrong.status, wrong.body.error?.code], [400, 'email_mismatch'], JSON.stringify(wrong.body));
        assert(await accountExists(user.id), 'a wrong address deletes nothing');
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'active');
        assertEquals(await record(user.id), null);

        const res = await invoke('delete-account', { email: ` ${user.email.toUpperCase()} ` }, { token: user.accessToken });
        assertEquals(res.status, 200, JSON.stringify(res.body));
        assertEquals(res.body, { deleted: true, subscriptions: { canceled: [user.subscriptionId], pending: false } });
        assertEquals(await accountExists(user.id), false);

        const sub = await stripe.subscriptions.retrieve(user.subscriptionId);
        assertEquals(sub.status, 'canceled', 'no renewal: the sandbox subscription ended');
        assert(sub.ended_at && Math.abs(sub.ended_at - Date.now() / 1000) < 120, 'ended now, not at the period end');

        const row = await record(user.id);
        assertEquals([row.stripe_customer_id, row.known_subscription_ids, row.deleted_by, row.status, row.canceled_subscription_ids, row.lang, row.email],
          [user.customerId, [user.subscriptionId], 'self', 'done', [user.subscriptionId], 'en', null], 'recorded; the address forgotten once mailed');
        const mails = await queued(user.email);
        assertEquals(mails.map((m) => [m.email_type, m.lang, m.user_id, m.payload.plan, m.payload.subscription_ids]),
          [['account_deleted_subscription_cancelled', 'en', null, 'Basic', user.subscriptionId]]);
        assertEquals(await deliver(user.email), ['Account deleted, subscription cancelled']);
        const text = (await mailbox(user.email)).find((m) => m.subject.startsWith('Account deleted'))?.text ?? '';
        assert(text.includes(user.subscriptionId) && text.includes('not refunded'), text);
        selfDeleted = user;
      });

      await t.step('webhooks arriving later for the deleted customer answer 2xx and fail nothing', async () => {
        const user = selfDeleted!;
        const sub = await stripe.subscriptions.retrieve(user.subscriptionId);
        for (const type of ['customer.subscription.deleted', 'customer.subscription.updated']) {
          const event = fakeEvent(type, sub);
          const payload = JSON.stringify(event);
          const res = await postWebhook(payload, await signPayload(payload));
          assertEquals(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
          const ledger = await withDb(async (db) => (await db.query('select processed_at, error from public.stripe_events where id = $1', [event.id])).rows[0]);
          assert(ledger?.processed_at, `${type} processed`);
          assertEquals(ledger.error, null);
        }
        // and the event the sandbox itself sent for the cancellation was delivered and handled without error
        const sent = (await stripe.events.list({ type: 'customer.subscription.deleted', limit: 100 })).data
          .find((e) => (e.data.object as { id?: string }).id === user.subscriptionId);
        assert(sent, 'the sandbox announced the cancellation');
        const handled = await eventually(async () => (await withDb(async (db) => (await db.query(
          'select processed_at, error from public.stripe_events where id = $1 and (processed_at is not null or error is not null)', [sent.id])).rows[0])) ?? null);
        assert(handled?.processed_at, JSON.stringify(handled));
        assertEquals(handled.error, null);
        const stored = await withDb(async (db) => (await db.query('select count(*)::int as n from public.subscriptions where stripe_subscription_id = $1', [user.subscriptionId])).rows[0].n);
        assertEquals(stored, 0, 'nothing is stored for the gone account');
      });

      await t.step('an admin deletes a paying user: canceled at once, recorded as admin, mailed; a non-admin is refused', async () => {
        const admin = await createConfirmedUser('del-admin');
        await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));
        const plain = await createConfirmedUser('del-plain');
        const user = await subscriber('del-target', prices.premium_monthly, 'premium', 'de');

        const refused = await invoke('delete-account', { userId: user.id }, { token: plain.accessToken });
        assertEquals([refused.status, refused.body.error?.code], [403, 'forbidden'], JSON.stringify(refused.body));
        assert(await accountExists(user.id));
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'active');

        const res = await invoke('delete-account', { userId: user.id }, { token: admin.accessToken });
        assertEquals(res.status, 200, JSON.stringify(res.body));
        assertEquals(res.body.subscriptions, { canceled: [user.subscriptionId], pending: false });
        assertEquals(await accountExists(user.id), false);
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'canceled');
        const row = await record(user.id);
        assertEquals([row.deleted_by, row.status, row.canceled_subscription_ids], ['admin', 'done', [user.subscriptionId]]);
        assertEquals((await queued(user.email)).map((m) => [m.email_type, m.lang, m.payload.plan]), [['account_deleted_subscription_cancelled', 'de', 'Premium']]);
        assertEquals(await deliver(user.email), ['Konto gelöscht, Abo gekündigt']);
        assertEquals((await invoke('delete-account', { userId: user.id }, { token: admin.accessToken })).status, 404);
      });

      await t.step('Stripe unreachable at deletion: the account goes, the cancellation stays queued and the cron run completes it once', async () => {
        const user = await subscriber('del-down', prices.basic_monthly, 'basic', 'en');
        const down = new Stripe(SANDBOX_KEY, {
          apiVersion: '2023-10-16' as Stripe.LatestApiVersion,
          host: '127.0.0.1',
          port: 1,
          protocol: 'http',
          maxNetworkRetries: 0,
          httpClient: Stripe.createFetchHttpClient(),
        });
        const handler = createDeleteAccountHandler({ resolveCaller, callerClient, admin: adminClient(), stripe: down });
        const res = await handler(new Request('http://functions.local/delete-account', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${user.accessToken}` },
          body: JSON.stringify({ email: user.email }),
        }));
        assertEquals([res.status, await res.json()], [200, { deleted: true, subscriptions: { canceled: [], pending: true } }]);
        assertEquals(await accountExists(user.id), false);
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'active', 'Stripe was not reached');
        let row = await record(user.id);
        assertEquals([row.status, row.attempts, row.known_subscription_ids, row.email], ['pending', 1, [user.subscriptionId], user.email], 'the address is kept for the mail still owed');
        assert(row.last_error, 'the failure is kept');
        assert(new Date(row.next_attempt_at).getTime() > Date.now() + 30_000, 'retried after a backoff');
        assertEquals(await queued(user.email), [], 'no confirmation before Stripe confirmed');

        // the backoff is over; pg_cron calls the function with the service key
        await withDb((db) => db.query('update private.account_deletion_cancellations set next_attempt_at = now() where user_id = $1', [user.id]));
        await cronRunsUntilDone(user.id);
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'canceled');
        row = await record(user.id);
        assertEquals([row.status, row.attempts, row.last_error, row.canceled_subscription_ids], ['done', 2, null, [user.subscriptionId]]);

        await withDb((db) => db.query('update private.account_deletion_cancellations set next_attempt_at = now() where user_id = $1', [user.id]));
        assertEquals((await invoke('delete-account', {}, service)).status, 200);
        row = await record(user.id);
        assertEquals([row.status, row.attempts], ['done', 2], 'done rows are not claimed again');
        assertEquals((await queued(user.email)).map((m) => m.email_type), ['account_deleted_subscription_cancelled'], 'one mail');
        assertEquals(await deliver(user.email), ['Account deleted, subscription cancelled']);
      });

      await t.step('deleted past the function (Auth admin API): queued by the database, cancelled by the cron run', async () => {
        const user = await subscriber('del-authapi', prices.basic_monthly, 'basic', 'en');
        const { error } = await serviceClient().auth.admin.deleteUser(user.id);
        assertEquals(error, null);
        assertEquals([(await record(user.id))?.deleted_by, (await record(user.id))?.status], ['service', 'pending']);
        await cronRunsUntilDone(user.id);
        assertEquals((await stripe.subscriptions.retrieve(user.subscriptionId)).status, 'canceled');
      });

      await t.step('an account that never paid: account_deleted mail at once, no queue row; bad calls are refused', async () => {
        const user = await createConfirmedUser('del-free', { preferred_language: 'en' });
        assertEquals((await invoke('delete-account', {}, { token: user.accessToken })).status, 400);
        assertEquals((await invoke('delete-account', { email: user.email, userId: user.id }, { token: user.accessToken })).status, 400);
        assertEquals((await invoke('delete-account', { email: user.email }, { token: null })).status, 401);
        const res = await invoke('delete-account', { email: user.email }, { token: user.accessToken });
        assertEquals(res.body, { deleted: true, subscriptions: { canceled: [], pending: false } });
        assertEquals(await record(user.id), null);
        assertEquals((await queued(user.email)).map((m) => [m.email_type, m.lang]), [['account_deleted', 'en']]);
        assertEquals(await deliver(user.email), ['Your Teamwerk account has been deleted']);
      });
    } finally {
      await setCron(true);
    }
  },
});
