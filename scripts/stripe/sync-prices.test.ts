/**
 * sync-prices against the local stack's Stripe sandbox and Postgres: every price row gets a
 * Stripe price with the row's amount, currency and period under its lookup key; a rerun changes
 * nothing; a lost id is found again by lookup key; anonymous visitors read the ids.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type pg from 'pg';
import { config, anonClient, superuserDb } from '../test-support/clients.ts';
import { RECURRING, SEAT_ITEM, lookupKey, productId, sandboxStripe, syncPrices } from './sync-prices.ts';

const stripe = sandboxStripe(config);
let db: pg.Client;

beforeAll(async () => {
  db = await superuserDb();
});
afterAll(async () => {
  await db.end();
});

async function rows() {
  return (await db.query<{ id: number; plan_id: string; billing_period: string; amount_cents: number; currency: string; stripe_price_id: string | null }>(
    `select id::int, plan_id, billing_period::text, amount_cents, currency, stripe_price_id from public.prices where active order by id`,
  )).rows;
}

describe('sync-prices', () => {
  test('every row has a matching Stripe price under its lookup key; a rerun changes nothing', async () => {
    await syncPrices(config);
    const before = await rows();
    expect(before).toHaveLength(12);
    for (const row of before) {
      expect(row.stripe_price_id).toMatch(/^price_/);
      const price = await stripe.prices.retrieve(row.stripe_price_id!);
      expect(price).toMatchObject({
        active: true,
        product: productId(row.plan_id),
        unit_amount: row.amount_cents,
        currency: row.currency,
        lookup_key: lookupKey(row.plan_id, row.billing_period),
        tax_behavior: 'inclusive',
        recurring: expect.objectContaining(RECURRING[row.billing_period]),
      });
    }
    const again = await syncPrices(config);
    expect(again.unchanged).toBe(true);
    expect(again.prices.every((p) => p.action === 'unchanged')).toBe(true);
    expect(await rows()).toEqual(before);
  });

  test('a lost id is found again by lookup key (no duplicate price); a dry run writes nothing', async () => {
    const [first] = await rows();
    await db.query('update public.prices set stripe_price_id = null where id = $1', [first!.id]);
    const dry = await syncPrices(config, { dryRun: true });
    expect(dry.prices.find((p) => p.planId === first!.plan_id && p.billingPeriod === first!.billing_period)?.action).toBe('linked');
    expect((await db.query('select stripe_price_id from public.prices where id = $1', [first!.id])).rows[0].stripe_price_id).toBeNull();
    const real = await syncPrices(config);
    expect(real.prices.filter((p) => p.action !== 'unchanged')).toEqual([
      expect.objectContaining({ planId: first!.plan_id, billingPeriod: first!.billing_period, action: 'linked', stripePriceId: first!.stripe_price_id }),
    ]);
    const withKey = await stripe.prices.list({ lookup_keys: [lookupKey(first!.plan_id, first!.billing_period)] });
    expect(withKey.data.map((p) => p.id)).toEqual([first!.stripe_price_id]);
  });

  test('visitors read prices with their Stripe ids (the SPA passes them to create-checkout-session)', async () => {
    const { data, error } = await anonClient().from('prices').select('plan_id, billing_period, amount_cents, stripe_price_id').eq('plan_id', 'premium');
    expect(error).toBeNull();
    expect(data).toHaveLength(4);
    expect(data!.every((p) => typeof p.stripe_price_id === 'string' && p.stripe_price_id.startsWith('price_'))).toBe(true);
  });

  test('extra seats (issue 15): one Stripe price per billing period, marked as extra seat, ids readable by visitors', async () => {
    await syncPrices(config);
    const seatRows = (await db.query<{ billing_period: string; amount_cents: number; currency: string; stripe_price_id: string | null }>(
      `select billing_period::text, amount_cents, currency, stripe_price_id from public.seat_prices where active order by billing_period`,
    )).rows;
    expect(seatRows.map((r) => r.billing_period).sort()).toEqual(['monthly', 'quarterly', 'semiannual', 'yearly']);
    for (const row of seatRows) {
      const price = await stripe.prices.retrieve(row.stripe_price_id!);
      expect(price).toMatchObject({
        active: true,
        product: productId(SEAT_ITEM),
        unit_amount: row.amount_cents,
        lookup_key: lookupKey(SEAT_ITEM, row.billing_period),
        metadata: { teamwerk_item: 'extra_seat', billing_period: row.billing_period },
        recurring: expect.objectContaining(RECURRING[row.billing_period]),
      });
      expect(price.metadata.plan_id).toBeUndefined();
    }
    const { data, error } = await anonClient().from('seat_prices').select('billing_period, amount_cents, currency, stripe_price_id');
    expect(error).toBeNull();
    expect(data).toHaveLength(4);
    expect(data!.find((r) => r.billing_period === 'monthly')?.stripe_price_id).toBe(seatRows.find((r) => r.billing_period === 'monthly')!.stripe_price_id);
  });
});
