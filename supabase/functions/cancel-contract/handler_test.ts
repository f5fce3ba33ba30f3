/**
 * cancel-contract (§312k BGB) against the running local stack and its Stripe sandbox: a
 * subscriber's cancellation is stored, confirmed by a queued (and sent) e-mail, and sets
 * cancel_at_period_end in Stripe and the database; an unknown address gets the same answer; a
 * later requested date uses cancel_at; bad input and past dates are refused with nothing stored;
 * only admins read the requests; at most 5 confirmation mails per address and hour.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { anonClient, createConfirmedUser, invoke, stack, uniqueEmail, waitForMail, withDb } from '../_shared/testing.ts';
import { ensurePrices, payCheckout, sandboxStripe } from '../_shared/billing-testing.ts';
import { berlinToday, endOfBerlinDay } from './handler.ts';
import { createClient } from 'npm:@supabase/supabase-js@^2';

const stripe = sandboxStripe();
const service = { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey };

async function subscriber(tag: string, priceId: string, planType: string) {
  const user = await createConfirmedUser(tag);
  const cs = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'Kai Kündig', priceId, planType }, { token: user.accessToken });
  assertEquals(cs.status, 200, JSON.stringify(cs.body));
  assertEquals((await payCheckout(cs.body.url)).status, 303);
  const v = await invoke('verify-payment', { sessionId: cs.body.sessionId }, { token: user.accessToken });
  assertEquals(v.status, 200, JSON.stringify(v.body));
  return { ...user, subscriptionId: v.body.subscriptionId as string };
}

async function requests(email: string) {
  return await withDb(async (db) => (await db.query(
    `select id, user_id, status::text, plan_id, reason, requested_date::text, stripe_subscription_ids, effective_at, lang
     from public.cancellation_requests where email = lower($1) order by created_at`, [email])).rows);
}

async function queued(email: string) {
  return await withDb(async (db) => (await db.query(
    `select lang, payload, user_metadata from public.email_queue where email = lower($1) and email_type = 'cancellation_confirmation' order by id`, [email])).rows);
}

Deno.test({
  name: 'cancel-contract',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();
    let answerKeys: string[] = [];

    await t.step('subscriber, asap: stored, confirmation queued, cancel_at_period_end in Stripe and the database', async () => {
      const user = await subscriber('cc-sub', prices.premium_monthly, 'premium');
      const res = await invoke('cancel-contract', {
        name: 'Kai Kündig', email: user.email.toUpperCase(), plan: 'premium', reason: 'Zu teuer', requestedDate: 'asap', locale: 'de',
      }, { token: null });
      assertEquals(res.status, 202, JSON.stringify(res.body));
      assertEquals(res.body.received, true);
      answerKeys = Object.keys(res.body).sort();

      const sub = await stripe.subscriptions.retrieve(user.subscriptionId);
      assertEquals(sub.cancel_at_period_end, true);
      assertEquals(sub.status, 'active');
      const row = await withDb(async (db) => (await db.query(
        'select cancel_at_period_end, status::text from public.subscriptions where stripe_subscription_id = $1', [user.subscriptionId])).rows[0]);
      assertEquals([row.cancel_at_period_end, row.status], [true, 'active']);
      const [req] = await requests(user.email);
      assertEquals([req.user_id, req.status, req.plan_id, req.reason, req.requested_date, req.stripe_subscription_ids], [user.id, 'scheduled', 'premium', 'Zu teuer', null, [user.subscriptionId]]);
      assertEquals(new Date(req.effective_at).getTime() / 1000, (sub as unknown as { current_period_end: number }).current_period_end);
      const mails = await queued(user.email);
      assertEquals(mails.length, 1);
      assertEquals([mails[0].lang, mails[0].payload.plan, mails[0].user_metadata.firstname], ['de', 'Premium', 'Kai']);
      // The plan stays usable until the period ends.
      assertEquals((await withDb(async (db) => (await db.query('select user_role::text from public.profiles where id = $1', [user.id])).rows[0])).user_role, 'premium');
    });

    await t.step('unknown address: the same answer, stored without account, confirmation sent', async () => {
      const email = uniqueEmail('cc-unknown');
      const res = await invoke('cancel-contract', { name: 'Nora Niemand', email, requestedDate: 'asap', locale: 'en' }, { token: null });
      assertEquals(res.status, 202);
      assertEquals(Object.keys(res.body).sort(), answerKeys);
      const [req] = await requests(email);
      assertEquals([req.user_id, req.status, req.lang], [null, 'no_subscription', 'en']);
      assertEquals((await queued(email)).length, 1);
      const run = await invoke('process-email-queue', {}, service);
      assertEquals(run.status, 200, JSON.stringify(run.body));
      const [mail] = await waitForMail(email);
      assert(mail, 'confirmation delivered');
      assertEquals(mail.subject, 'Confirmation of your cancellation');
    });

    await t.step('a requested date after the period end → cancel_at at the end of that day (Berlin)', async () => {
      const user = await subscriber('cc-date', prices.basic_monthly, 'basic');
      const date = new Date(Date.now() + 75 * 86_400_000).toISOString().slice(0, 10);
      const res = await invoke('cancel-contract', { name: 'Kai Später', email: user.email, contract: 'Kundennr. 4711', requestedDate: date }, { token: null });
      assertEquals(res.status, 202);
      const sub = await stripe.subscriptions.retrieve(user.subscriptionId);
      assertEquals(sub.cancel_at, endOfBerlinDay(date));
      const [req] = await requests(user.email);
      assertEquals([req.status, req.requested_date, req.lang], ['scheduled', date, 'de']);
      const row = await withDb(async (db) => (await db.query(
        'select cancel_at_period_end from public.subscriptions where stripe_subscription_id = $1', [user.subscriptionId])).rows[0]);
      assertEquals(row.cancel_at_period_end, true, 'stored as ending');
    });

    await t.step('bad input and past dates → 400, nothing stored or queued', async () => {
      const email = uniqueEmail('cc-bad');
      const yesterday = berlinToday(Date.now() - 2 * 86_400_000);
      for (const body of [
        { email },
        { name: 'X', email: 'not-an-email' },
        { name: 'X', email, requestedDate: yesterday },
        { name: 'X', email, requestedDate: '31.12.2030' },
        { name: 'X', email, plan: 'gold' },
        { name: ' ', email },
      ]) {
        const res = await invoke('cancel-contract', body, { token: null });
        assertEquals([res.status, res.body.error?.code], [400, 'validation_failed'], JSON.stringify(body));
      }
      assertEquals((await requests(email)).length, 0);
      assertEquals((await queued(email)).length, 0);
    });

    await t.step('row-level security: anon and users cannot insert or read requests; admins read', async () => {
      const ins = await anonClient().from('cancellation_requests').insert({ name: 'X', email: 'x@example.com' });
      assert(ins.error, 'anon insert refused');
      const rpc = await anonClient().rpc('submit_cancellation_request', { p_name: 'X', p_email: 'x@example.com' });
      assert(rpc.error, 'anon RPC refused');
      const user = await createConfirmedUser('cc-reader');
      const asUser = createClient(stack.apiUrl, stack.anonKey, { global: { headers: { Authorization: `Bearer ${user.accessToken}` } }, auth: { persistSession: false } });
      const read = await asUser.from('cancellation_requests').select('id');
      assertEquals([read.error, read.data], [null, []]);
      const uIns = await asUser.from('cancellation_requests').insert({ name: 'X', email: user.email });
      assert(uIns.error, 'user insert refused');
      const admin = await createConfirmedUser('cc-admin');
      await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));
      const asAdmin = createClient(stack.apiUrl, stack.anonKey, { global: { headers: { Authorization: `Bearer ${admin.accessToken}` } }, auth: { persistSession: false } });
      const all = await asAdmin.from('cancellation_requests').select('id').limit(5);
      assertEquals(all.error, null);
      assert((all.data ?? []).length > 0, 'admin sees requests');
    });

    await t.step('at most 5 confirmation mails per address and hour; every request is stored', async () => {
      const email = uniqueEmail('cc-flood');
      for (let i = 0; i < 7; i++) {
        const res = await invoke('cancel-contract', { name: 'Flut', email }, { token: null });
        assertEquals(res.status, 202);
      }
      assertEquals((await requests(email)).length, 7);
      assertEquals((await queued(email)).length, 5);
    });
  },
});
