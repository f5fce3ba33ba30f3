/**
 * cancel-contract and confirm-cancellation (§312k BGB; issue 12 finding 2) against the running
 * local stack and its Stripe sandbox:
 * - anonymous with a subscriber's address: stored, nothing changes at Stripe, the ACCOUNT's address
 *   gets a confirmation link (greeting with the account's name, none of the form's text); the link
 *   schedules the end (cancel_at_period_end) once; forged, expired and reused links are refused;
 * - signed in: the caller's own account ends at once, whatever address was typed;
 * - unknown address: the same answer, stored, no mail at all;
 * - a later requested date uses cancel_at; bad input and past dates are refused with nothing
 *   stored; only admins read the requests; anonymous submissions are rate limited (429).
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { anonClient, createConfirmedUser, invoke, stack, stackConf, uniqueEmail, withDb } from '../_shared/testing.ts';
import { ensurePrices, payCheckout, sandboxStripe } from '../_shared/billing-testing.ts';
import { berlinToday, CANCEL_LINK_TTL_SECONDS, endOfBerlinDay } from './handler.ts';
import { signToken } from '../_shared/tokens.ts';
import { createClient } from '@supabase/supabase-js';

const stripe = sandboxStripe();

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

async function queued(email: string, type = 'cancellation_confirmation') {
  return await withDb(async (db) => (await db.query(
    `select lang, payload, user_metadata from public.email_queue where email = lower($1) and email_type = $2 order by id`, [email, type])).rows);
}

async function stripeEnding(subscriptionId: string) {
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  return { atPeriodEnd: sub.cancel_at_period_end, cancelAt: sub.cancel_at, status: sub.status };
}

/** The token of the newest confirmation link mailed to `email`. */
async function linkToken(email: string): Promise<string> {
  const mails = await queued(email, 'cancellation_confirm_link');
  const link = new URL(mails.at(-1)!.payload.link as string);
  assertEquals(link.pathname.endsWith('/cancel-subscription/confirm'), true, link.href);
  return link.searchParams.get('token')!;
}

async function resetRateLimits() {
  await withDb((db) => db.query(`delete from private.rate_limits where bucket like 'cancel:%'`));
}

Deno.test({
  name: 'cancel-contract',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();
    let answerKeys: string[] = [];

    await resetRateLimits();

    await t.step('anonymous with a subscriber\'s address: stored, Stripe untouched, a link to the account; the link cancels once', async () => {
      const user = await subscriber('cc-victim', prices.premium_monthly, 'premium');
      const res = await invoke('cancel-contract', {
        name: 'Eve <a href="https://evil.example">Klick</a>', email: user.email.toUpperCase(), plan: 'premium', reason: 'Zu teuer', requestedDate: 'asap', locale: 'de',
      }, { token: null });
      assertEquals(res.status, 202, JSON.stringify(res.body));
      assertEquals([res.body.received, res.body.confirmation], [true, 'email']);
      answerKeys = Object.keys(res.body).sort();

      assertEquals(await stripeEnding(user.subscriptionId), { atPeriodEnd: false, cancelAt: null, status: 'active' });
      const [req] = await requests(user.email);
      assertEquals([req.user_id, req.status, req.plan_id, req.reason, req.stripe_subscription_ids], [user.id, 'awaiting_confirmation', 'premium', 'Zu teuer', []]);
      assertEquals((await queued(user.email)).length, 0, 'no receipt before the holder confirms');
      const [mail] = await queued(user.email, 'cancellation_confirm_link');
      assertEquals(mail.user_metadata.firstname, 'Test', 'greeting with the account\'s own name');
      assertEquals(JSON.stringify(mail).includes('evil.example') || JSON.stringify(mail).includes('Eve'), false, 'no form text in the mail');

      const token = await linkToken(user.email);
      const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      assertEquals((await invoke('confirm-cancellation', { token: forged }, { token: null })).body.error?.code, 'token_expired');
      const expired = await signToken('cancel_contract', user.id, {
        secret: stack.tokenSecret, requestId: req.id, now: Date.now() - (CANCEL_LINK_TTL_SECONDS + 60) * 1000,
      });
      assertEquals((await invoke('confirm-cancellation', { token: expired }, { token: null })).body.error?.code, 'token_expired');
      const otherRequest = await signToken('cancel_contract', user.id, { secret: stack.tokenSecret, requestId: crypto.randomUUID() });
      assertEquals((await invoke('confirm-cancellation', { token: otherRequest }, { token: null })).body.error?.code, 'token_used');
      assertEquals((await stripeEnding(user.subscriptionId)).atPeriodEnd, false, 'refused links change nothing');

      const ok = await invoke('confirm-cancellation', { token }, { token: null });
      assertEquals(ok.status, 200, JSON.stringify(ok.body));
      assertEquals([ok.body.confirmed, ok.body.status], [true, 'scheduled']);
      const sub = await stripe.subscriptions.retrieve(user.subscriptionId);
      assertEquals([sub.cancel_at_period_end, sub.status], [true, 'active']);
      const row = await withDb(async (db) => (await db.query(
        'select cancel_at_period_end, status::text from public.subscriptions where stripe_subscription_id = $1', [user.subscriptionId])).rows[0]);
      assertEquals([row.cancel_at_period_end, row.status], [true, 'active']);
      const [after] = await requests(user.email);
      assertEquals([after.status, after.stripe_subscription_ids], ['scheduled', [user.subscriptionId]]);
      assertEquals(new Date(after.effective_at).getTime() / 1000, (sub as unknown as { current_period_end: number }).current_period_end);
      const receipts = await queued(user.email);
      assertEquals(receipts.length, 1);
      assertEquals([receipts[0].lang, receipts[0].payload.plan, receipts[0].user_metadata.firstname], ['de', 'Premium', 'Test']);
      assertEquals((await invoke('confirm-cancellation', { token }, { token: null })).body.error?.code, 'token_used');
      // The plan stays usable until the period ends.
      assertEquals((await withDb(async (db) => (await db.query('select user_role::text from public.profiles where id = $1', [user.id])).rows[0])).user_role, 'premium');
    });

    await t.step('signed in: the caller\'s own subscription ends at once, even with someone else\'s address typed', async () => {
      const victim = await subscriber('cc-other', prices.basic_monthly, 'basic');
      const user = await subscriber('cc-self', prices.premium_monthly, 'premium');
      const res = await invoke('cancel-contract', { name: 'Kai Kündig', email: victim.email, requestedDate: 'asap', locale: 'en' }, { token: user.accessToken });
      assertEquals(res.status, 202, JSON.stringify(res.body));
      assertEquals(res.body.confirmation, 'done');
      assertEquals((await stripeEnding(user.subscriptionId)).atPeriodEnd, true);
      assertEquals((await stripeEnding(victim.subscriptionId)).atPeriodEnd, false, 'the typed address does not decide');
      const [req] = await requests(victim.email);
      assertEquals([req.user_id, req.status], [user.id, 'scheduled']);
      assertEquals((await queued(user.email)).length, 1, 'receipt to the caller\'s account address');
      assertEquals((await queued(victim.email)).length, 0);
      const bad = await invoke('cancel-contract', { name: 'X', email: victim.email }, { token: 'not-a-valid-jwt' });
      assertEquals(bad.status, 401);
    });

    await t.step('unknown address: the same answer, stored without account, no mail at all', async () => {
      const email = uniqueEmail('cc-unknown');
      const res = await invoke('cancel-contract', { name: 'Nora Niemand', email, requestedDate: 'asap', locale: 'en' }, { token: null });
      assertEquals(res.status, 202);
      assertEquals(Object.keys(res.body).sort(), answerKeys);
      assertEquals(res.body.confirmation, 'email');
      const [req] = await requests(email);
      assertEquals([req.user_id, req.status, req.lang], [null, 'no_subscription', 'en']);
      assertEquals((await queued(email)).length, 0);
      assertEquals((await queued(email, 'cancellation_confirm_link')).length, 0);
    });

    await t.step('as supabase-js sends it without a session: a public key as bearer (legacy anon JWT or publishable key) means not signed in', async () => {
      for (const key of [stack.anonKey, stackConf.publishableKey]) {
        const email = uniqueEmail('cc-public-key');
        const res = await invoke('cancel-contract', { name: 'Paula Public', email, requestedDate: 'asap', locale: 'de' }, { token: key, apikey: key });
        assertEquals([res.status, res.body.confirmation], [202, 'email']);
        assertEquals((await requests(email)).length, 1);
      }
    });

    await t.step('a requested date after the period end → cancel_at at the end of that day (Berlin)', async () => {
      const user = await subscriber('cc-date', prices.basic_monthly, 'basic');
      const date = new Date(Date.now() + 75 * 86_400_000).toISOString().slice(0, 10);
      const res = await invoke('cancel-contract', { name: 'Kai Später', email: user.email, contract: 'Kundennr. 4711', requestedDate: date }, { token: user.accessToken });
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

    await t.step('anonymous submissions: at most 5 per address and day, then 429 with nothing stored or mailed', async () => {
      await resetRateLimits(); // the steps before used up part of this address's hourly allowance
      const user = await createConfirmedUser('cc-flood');
      for (let i = 0; i < 5; i++) {
        const res = await invoke('cancel-contract', { name: 'Flut', email: user.email }, { token: null });
        assertEquals(res.status, 202);
      }
      const refused = await invoke('cancel-contract', { name: 'Flut', email: user.email }, { token: null });
      assertEquals([refused.status, refused.body.error?.code], [429, 'rate_limited']);
      assertEquals((await requests(user.email)).length, 5);
      assertEquals((await queued(user.email, 'cancellation_confirm_link')).length, 5);
      await resetRateLimits();
    });
  },
});
