/**
 * Database pieces of the billing functions (issue 7; supabase/schemas/04_billing.sql): the
 * payment-required rule has_active_subscription() per subscription status and caller, the
 * cancellation request RPC (service_role only, mail queued with the request), and the billing
 * mails queued once per status transition. Everything runs in one transaction that is rolled back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, serviceRole, TestDb, type Actor } from './support.ts';

let db: TestDb;
beforeAll(async () => {
  db = await TestDb.open();
});
afterAll(async () => db?.close());

let subSeq = 0;
/** Writes a subscription through the real write path (sync_subscription as postgres). */
async function subscribe(user: Actor & { kind: 'user' }, status: string, periodEnd = "now() + interval '20 days'", plan = 'premium'): Promise<string> {
  subSeq += 1;
  const subId = `sub_dbtest_${Date.now().toString(36)}_${subSeq}`;
  await db.sql(
    `select public.sync_subscription($1, 'cus_dbtest_' || $4, $2, $3::public.subscription_status, null, $5,
       now() - interval '10 days', ${periodEnd}, false, null, null, null, now())`,
    [user.id, subId, status, subSeq, plan],
  );
  return subId;
}

async function guard(actor: Actor): Promise<boolean> {
  const r = await db.as(actor, 'select public.has_active_subscription() as ok');
  expect(r.ok, r.message).toBe(true);
  return r.rows[0]!.ok as boolean;
}

describe('has_active_subscription() (spec §6 payment-required)', () => {
  test('active, trialing and past_due pass; canceled, unpaid, incomplete and none do not', async () => {
    for (const [status, expected] of [
      ['active', true], ['trialing', true], ['past_due', true],
      ['canceled', false], ['unpaid', false], ['incomplete', false], ['incomplete_expired', false], ['paused', false],
    ] as const) {
      const user = await db.user();
      await subscribe(user, status);
      expect(await guard(user), status).toBe(expected);
    }
    expect(await guard(await db.user())).toBe(false);
  });

  test('a period that ended more than a day ago does not pass', async () => {
    const user = await db.user();
    await subscribe(user, 'active', "now() - interval '2 days'");
    expect(await guard(user)).toBe(false);
  });

  test("admins pass; anon and the service role get false; another user's subscription does not count", async () => {
    expect(await guard(await db.user({ role: 'admin' }))).toBe(true);
    expect(await guard(anon)).toBe(false);
    expect(await guard(serviceRole)).toBe(false);
    const payer = await db.user();
    await subscribe(payer, 'active');
    expect(await guard(await db.user())).toBe(false);
  });
});

describe('submit_cancellation_request', () => {
  test('anon and users may not call it; the service role stores the request; the receipt goes out only once the holder confirmed (issue 12)', async () => {
    const user = await db.user({ name: 'Karla Kunde', lang: 'en' });
    const call = `select * from public.submit_cancellation_request('Eve Evil', $1, 'premium', null, 'Umzug', null, 'en')`;
    expect((await db.as(anon, call, [user.email])).code).toBe('42501');
    expect((await db.as(user, call, [user.email])).code).toBe('42501');
    const receipts = async () => db.sql<{ lang: string; payload: Record<string, string>; user_id: string; user_metadata: Record<string, string> }>(
      `select lang, payload, user_id, user_metadata from public.email_queue where email = $1 and email_type = 'cancellation_confirmation'`, [user.email]);
    // anonymous form: stored, waiting for the account holder; no receipt yet
    const anonymous = await db.keep(serviceRole, call, [user.email.toUpperCase()]);
    expect(anonymous.ok, anonymous.message).toBe(true);
    expect(anonymous.rows[0]).toMatchObject({ user_id: user.id, needs_confirmation: true, lang: 'en' });
    expect(await receipts()).toEqual([]);
    // the holder confirms: received, and the receipt greets with the account's own name
    const confirmed = await db.keep(serviceRole, `select * from public.confirm_cancellation_request($1, $2)`, [anonymous.rows[0]!.request_id, user.id]);
    expect(confirmed.ok, confirmed.message).toBe(true);
    const [mail] = await receipts();
    expect(mail).toMatchObject({ lang: 'en', user_id: user.id, payload: expect.objectContaining({ plan: 'Premium' }), user_metadata: { firstname: 'Karla', lastname: 'Kunde' } });
    const again = await db.as(serviceRole, `select * from public.confirm_cancellation_request($1, $2)`, [anonymous.rows[0]!.request_id, user.id]);
    expect(again.code).toBe('PT404');
    // signed in: confirmed at once, receipt queued in the same call
    const other = await db.user({ name: 'Sina Selbst', lang: 'de' });
    const signedIn = await db.keep(serviceRole,
      `select * from public.submit_cancellation_request('Sina Selbst', 'typed@example.com', null, null, null, null, 'de', $1)`, [other.id]);
    expect(signedIn.rows[0]).toMatchObject({ user_id: other.id, needs_confirmation: false });
    const [own] = await db.sql<{ email: string }>(`select email from public.email_queue where user_id = $1 and email_type = 'cancellation_confirmation'`, [other.id]);
    expect(own!.email).toBe(other.email);
  });

  test('users read no requests, admins read all', async () => {
    await db.keep(serviceRole, `select * from public.submit_cancellation_request('Nina Neu', 'nina-dbtest@example.com')`);
    const user = await db.user();
    const asUser = await db.as(user, 'select count(*)::int as n from public.cancellation_requests');
    expect(asUser.rows[0]!.n).toBe(0);
    const asAdmin = await db.as(await db.user({ role: 'admin' }), 'select count(*)::int as n from public.cancellation_requests');
    expect(asAdmin.rows[0]!.n as number).toBeGreaterThan(0);
    expect((await db.as(anon, 'select count(*) from public.cancellation_requests')).code).toBe('42501');
  });
});

describe('billing mails on status transitions', () => {
  const mails = async (userId: string, type: string) =>
    (await db.sql<{ n: number }>(`select count(*)::int as n from public.email_queue where user_id = $1 and email_type = $2`, [userId, type]))[0]!.n;

  test('activation once, payment_failed once per move to past_due, nothing for repeated syncs', async () => {
    const user = await db.user();
    const sub = await subscribe(user, 'active');
    const resync = (status: string) => db.sql(
      `select public.sync_subscription($1, 'cus_x', $2, $3::public.subscription_status, null, 'premium', null, null, false, null, null, null, now())`,
      [user.id, sub, status]);
    await resync('active');
    expect(await mails(user.id, 'subscription_activated')).toBe(1);
    await resync('past_due');
    await resync('past_due');
    expect(await mails(user.id, 'payment_failed')).toBe(1);
    await resync('active');
    expect(await mails(user.id, 'subscription_activated')).toBe(1);
    await resync('canceled');
    expect(await mails(user.id, 'subscription_activated') + await mails(user.id, 'payment_failed')).toBe(2);
  });
});
