/**
 * organization-seats and Enterprise checkout with extra seats (issue 15) against the running local
 * stack, its Stripe sandbox and webhooks: seats bought at Checkout arrive through the webhook; the
 * paying owner buys more and gives some back (Stripe's subscription item changes, the stored seats
 * follow); never below the seats in use; only the paying owner; bad input changes nothing.
 */
import { createClient } from '@supabase/supabase-js';
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, stack, withDb } from '../_shared/testing.ts';
import { billingState, ensurePrices, eventually, payCheckout, sandboxStripe } from '../_shared/billing-testing.ts';

type User = { id: string; email: string; accessToken: string };

/** supabase-js acting as `user` (the RPCs check the caller). */
function asUser(user: User) {
  return createClient(stack.apiUrl, stack.anonKey, {
    global: { headers: { Authorization: `Bearer ${user.accessToken}` } },
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

/** organizations.seats and the extra seats copied from Stripe for the organisation. */
async function stored(orgId: string): Promise<{ seats: number; extra: number | null }> {
  return await withDb(async (db) => {
    const r = await db.query(
      `select o.seats, x.extra_seats from public.organizations o left join private.subscription_seats x on x.subscription_id = o.subscription_id where o.id = $1`,
      [orgId],
    );
    return { seats: r.rows[0].seats as number, extra: (r.rows[0].extra_seats as number | null) ?? null };
  });
}

Deno.test({
  name: 'organization-seats',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();
    const stripe = sandboxStripe();
    const owner = await createConfirmedUser('seats-owner');
    let orgId = '';
    let subId = '';

    await t.step('Checkout: extra seats only with Enterprise; Enterprise with 2 extra seats → 7 seats after the webhook', async () => {
      const premium = await invoke('create-checkout-session',
        { userId: owner.id, email: owner.email, priceId: prices.premium_monthly, planType: 'premium', extraSeats: 2 }, { token: owner.accessToken });
      assertEquals([premium.status, premium.body.error?.code], [400, 'validation_failed']);
      const tooMany = await invoke('create-checkout-session',
        { userId: owner.id, email: owner.email, priceId: prices.enterprise_monthly, planType: 'enterprise', extraSeats: 996 }, { token: owner.accessToken });
      assertEquals([tooMany.status, tooMany.body.error?.code], [400, 'validation_failed']);

      const cs = await invoke('create-checkout-session',
        { userId: owner.id, email: owner.email, name: 'Seat Owner', priceId: prices.enterprise_monthly, planType: 'enterprise', extraSeats: 2 },
        { token: owner.accessToken });
      assertEquals(cs.status, 200, JSON.stringify(cs.body));
      const items = await stripe.checkout.sessions.listLineItems(cs.body.sessionId);
      assertEquals(items.data.map((i) => i.quantity).sort(), [1, 2]);
      assertEquals((await payCheckout(cs.body.url)).status, 303);
      const state = await eventually(async () => {
        const s = await billingState(owner.id);
        return s.role === 'enterprise' ? s : null;
      });
      assert(state, 'the webhook made the owner an Enterprise subscriber');
      subId = state!.subs[0].stripe_subscription_id;
      assertEquals(state!.subs[0].plan_id, 'enterprise', 'the plan comes from the plan item, not the seat item');

      const created = await asUser(owner).rpc('create_organization', { p_name: `Seat Test ${crypto.randomUUID().slice(0, 6)}` });
      assertEquals(created.error, null);
      orgId = created.data as string;
      assertEquals(await stored(orgId), { seats: 7, extra: 2 });
    });

    await t.step('the paying owner buys 2 more (9 seats), a repeat changes nothing, giving all back leaves 5', async () => {
      const more = await invoke('organization-seats', { organizationId: orgId, extraSeats: 4 }, { token: owner.accessToken });
      assertEquals([more.status, more.body], [200, { seats: 9, extraSeats: 4, changed: true }]);
      let sub = await stripe.subscriptions.retrieve(subId);
      assertEquals(sub.items.data.map((i) => [i.price.metadata.plan_id ?? i.price.metadata.teamwerk_item, i.quantity]).sort(),
        [['enterprise', 1], ['extra_seat', 4]]);
      assertEquals(await stored(orgId), { seats: 9, extra: 4 });

      const again = await invoke('organization-seats', { organizationId: orgId, extraSeats: 4 }, { token: owner.accessToken });
      assertEquals([again.status, again.body], [200, { seats: 9, extraSeats: 4, changed: false }]);

      const none = await invoke('organization-seats', { organizationId: orgId, extraSeats: 0 }, { token: owner.accessToken });
      assertEquals([none.status, none.body], [200, { seats: 5, extraSeats: 0, changed: true }]);
      sub = await stripe.subscriptions.retrieve(subId);
      assertEquals(sub.items.data.length, 1, 'the seat item is removed');
      assertEquals((await billingState(owner.id)).role, 'enterprise');
      assertEquals(await stored(orgId), { seats: 5, extra: 0 });

      // issue 31 §8: the same transition again within 24 hours is a new request, done and told truly
      const moreAgain = await invoke('organization-seats', { organizationId: orgId, extraSeats: 4 }, { token: owner.accessToken });
      assertEquals([moreAgain.status, moreAgain.body], [200, { seats: 9, extraSeats: 4, changed: true }]);
      sub = await stripe.subscriptions.retrieve(subId);
      assertEquals(sub.items.data.find((i) => i.price.metadata.teamwerk_item === 'extra_seat')?.quantity, 4);
      const noneAgain = await invoke('organization-seats', { organizationId: orgId, extraSeats: 0 }, { token: owner.accessToken });
      assertEquals([noneAgain.status, noneAgain.body], [200, { seats: 5, extraSeats: 0, changed: true }]);
      assertEquals(await stored(orgId), { seats: 5, extra: 0 });
    });

    await t.step('never fewer seats than members + open invitations: 409 seats_in_use, nothing changes', async () => {
      const one = await invoke('organization-seats', { organizationId: orgId, extraSeats: 1 }, { token: owner.accessToken });
      assertEquals([one.status, one.body.seats], [200, 6]);
      await withDb((db) => db.query(
        `insert into public.organization_invitations (organization_id, email, token_hash, invited_by)
         select $1, 'seat-' || g || '-' || substr(md5(random()::text), 1, 6) || '@test.teamwerk.de', encode(sha256(gen_random_uuid()::text::bytea), 'hex'), $2
         from generate_series(1, 5) g`,
        [orgId, owner.id],
      ));
      const fewer = await invoke('organization-seats', { organizationId: orgId, extraSeats: 0 }, { token: owner.accessToken });
      assertEquals([fewer.status, fewer.body.error?.code], [409, 'seats_in_use']);
      assert(String(fewer.body.error?.message).includes('6 seats are in use'), fewer.body.error?.message);
      const sub = await stripe.subscriptions.retrieve(subId);
      assertEquals(sub.items.data.find((i) => i.price.metadata.teamwerk_item === 'extra_seat')?.quantity, 1);
      assertEquals(await stored(orgId), { seats: 6, extra: 1 });
    });

    await t.step('only the paying owner: outsider, co-owner without the subscription, anonymous; bad input → 400', async () => {
      const outsider = await createConfirmedUser('seats-outsider');
      const byOutsider = await invoke('organization-seats', { organizationId: orgId, extraSeats: 3 }, { token: outsider.accessToken });
      assertEquals([byOutsider.status, byOutsider.body.error?.code], [403, 'not_organization_owner']);

      const coOwner = await createConfirmedUser('seats-coowner');
      await withDb((db) => db.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'owner')`, [orgId, coOwner.id]));
      const byCoOwner = await invoke('organization-seats', { organizationId: orgId, extraSeats: 3 }, { token: coOwner.accessToken });
      assertEquals([byCoOwner.status, byCoOwner.body.error?.code], [403, 'not_billing_owner']);

      const anonymous = await invoke('organization-seats', { organizationId: orgId, extraSeats: 3 });
      assertEquals(anonymous.status, 401);
      for (const body of [{ organizationId: orgId, extraSeats: -1 }, { organizationId: orgId, extraSeats: 2.5 }, { organizationId: 'x', extraSeats: 1 }, {}]) {
        const bad = await invoke('organization-seats', body, { token: owner.accessToken });
        assertEquals([bad.status, bad.body.error?.code], [400, 'validation_failed'], JSON.stringify(body));
      }
      const unknown = await invoke('organization-seats', { organizationId: crypto.randomUUID(), extraSeats: 1 }, { token: owner.accessToken });
      assertEquals([unknown.status, unknown.body.error?.code], [404, 'organization_not_found']);
      assertEquals(await stored(orgId), { seats: 6, extra: 1 });
    });
  },
});
