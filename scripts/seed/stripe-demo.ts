/**
 * The demo accounts' subscriptions in the local Stripe sandbox (issue 32 §4): supabase/seed.sql
 * gives basic@, premium@ and enterprise@teamwerk.test a subscription row with placeholder ids
 * (`cus_demo_…`, `sub_demo_…`) and its plan, billing period and price; this module creates what a
 * paid checkout would have left in Stripe (a customer with the test card 4242 as default payment
 * method and a paid subscription on that price, metadata userId/planType as
 * create-checkout-session sets them) through the sandbox's API with the official SDK, and stores
 * the real ids and periods in the database. So "Manage subscription" opens the portal and
 * enterprise@'s organisation can buy seats.
 *
 * Only the README's demo accounts (`@teamwerk.test`); the generated people keep placeholder ids
 * (no Stripe objects, as for accounts billed elsewhere). Run by the local stack after a fresh seed
 * (scripts/local-stack/daemon.ts), before the gateway takes webhooks; never against production.
 */
import type pg from 'pg';
import type Stripe from 'stripe';

/** Domain of the README's demo accounts. */
export const DEMO_DOMAIN = 'teamwerk.test';

interface DemoSubscriptionRow {
  id: string;
  user_id: string;
  email: string;
  name: string;
  plan_id: string;
  stripe_price_id: string;
}

/**
 * Creates the Stripe customer and subscription of every demo account whose subscription row still
 * holds a placeholder id, and writes the real ids and periods to public.subscriptions and
 * profiles.stripe_customer_id.
 * Input: an SDK client of the sandbox; a database connection (superuser of the local stack).
 * Output: the number of subscriptions created. Errors: Stripe and database errors unchanged (a
 * row already converted is skipped on the next call, so a retry continues where it failed).
 */
export async function seedDemoStripe(stripe: Stripe, db: pg.ClientBase): Promise<number> {
  const rows = (
    await db.query<DemoSubscriptionRow>(
      `select s.id, s.user_id, p.email, btrim(coalesce(p.firstname, '') || ' ' || coalesce(p.lastname, '')) as name,
              s.plan_id, pr.stripe_price_id
       from public.subscriptions s
       join public.profiles p on p.id = s.user_id
       join public.prices pr on pr.id = s.price_id
       where s.stripe_subscription_id like 'sub\\_demo\\_%' and p.email like '%@' || $1
         and pr.stripe_price_id is not null
       order by p.email`,
      [DEMO_DOMAIN],
    )
  ).rows;
  for (const row of rows) {
    const customer = await stripe.customers.create({ email: row.email, name: row.name, metadata: { userId: row.user_id } });
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    // API version 2023-10-16 (spec §9) carries the period on the subscription; newer SDK types only on its items
    const sub = (await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: row.stripe_price_id }],
      default_payment_method: card.id,
      metadata: { userId: row.user_id, planType: row.plan_id },
    })) as unknown as Stripe.Subscription & { current_period_start: number; current_period_end: number };
    await db.query('begin');
    try {
      await db.query(
        `update public.subscriptions set stripe_customer_id = $2, stripe_subscription_id = $3, status = $4::public.subscription_status,
                current_period_start = to_timestamp($5), current_period_end = to_timestamp($6), stripe_checkout_session_id = null,
                last_synced_at = now()
         where id = $1`,
        [row.id, customer.id, sub.id, sub.status, sub.current_period_start, sub.current_period_end],
      );
      await db.query(`update public.profiles set stripe_customer_id = $2 where id = $1`, [row.user_id, customer.id]);
      await db.query('commit');
    } catch (err) {
      await db.query('rollback');
      throw err;
    }
  }
  return rows.length;
}
