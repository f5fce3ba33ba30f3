/**
 * Pure parts of the billing sync (no stack needed): how Stripe SDK errors become answers
 * (spec §8 message for a bad key, 503 for an unreachable Stripe) and which subscription a
 * webhook event names (API 2023-10-16 and newer invoice shapes).
 */
import Stripe from 'stripe';
import { assertEquals } from './assert.ts';
import { billingError, extraSeats, seatItem, subscriptionPrice, SyncError } from './billing-sync.ts';
import { HttpError } from './http.ts';
import { eventTarget } from '../stripe-webhook/handler.ts';

const raw = { message: 'x', type: 'api_error' as const };

Deno.test('billingError maps Stripe failures to retryable or configuration answers', () => {
  const cases: [unknown, number, string][] = [
    [new Stripe.errors.StripeConnectionError(raw), 503, 'stripe_unavailable'],
    [new Stripe.errors.StripeAPIError({ ...raw, statusCode: 503 } as never), 503, 'stripe_unavailable'],
    [new Stripe.errors.StripeRateLimitError({ ...raw, statusCode: 429 } as never), 503, 'stripe_unavailable'],
    [new Stripe.errors.StripeAuthenticationError({ ...raw, statusCode: 401 } as never), 500, 'stripe_not_configured'],
    [new SyncError('db down', true, 'sync_failed'), 503, 'sync_failed'],
    [new HttpError(404, 'x', 'y'), 404, 'x'],
    [new Stripe.errors.StripeInvalidRequestError({ ...raw, statusCode: 400 } as never), 500, 'checkout_failed'],
    [new Error('boom'), 500, 'checkout_failed'],
  ];
  for (const [err, status, code] of cases) {
    const mapped = billingError(err, 'checkout_failed', 'Failed to create checkout session');
    assertEquals([mapped.status, mapped.code], [status, code], String(err));
  }
  assertEquals(billingError(new Stripe.errors.StripeAuthenticationError(raw), 'c', 'm').message, 'Stripe is not properly configured with a valid API key.');
  assertEquals(billingError(new Error('internal detail'), 'c', 'Failed to create checkout session').message, 'Failed to create checkout session');
});

Deno.test('eventTarget: the subscription each handled event names', () => {
  const ev = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, data: { object } }) as unknown as Stripe.Event;
  assertEquals(eventTarget(ev('checkout.session.completed', { id: 'cs_1', subscription: 'sub_1', metadata: { userId: 'u1' } })), { subscriptionId: 'sub_1', userId: 'u1', checkoutSessionId: 'cs_1' });
  assertEquals(eventTarget(ev('checkout.session.completed', { id: 'cs_2', subscription: null })), null);
  assertEquals(eventTarget(ev('customer.subscription.deleted', { id: 'sub_2' })), { subscriptionId: 'sub_2' });
  assertEquals(eventTarget(ev('invoice.paid', { id: 'in_1', subscription: 'sub_3' })), { subscriptionId: 'sub_3' });
  assertEquals(eventTarget(ev('invoice.payment_failed', { id: 'in_2', subscription: { id: 'sub_4' } })), { subscriptionId: 'sub_4' });
  assertEquals(eventTarget(ev('invoice.paid', { id: 'in_3', parent: { subscription_details: { subscription: 'sub_5' } } })), { subscriptionId: 'sub_5' });
  assertEquals(eventTarget(ev('invoice.paid', { id: 'in_4', subscription: null })), null);
  assertEquals(eventTarget(ev('customer.created', { id: 'cus_1' })), null);
});

Deno.test('extraSeats: summed quantity of the extra-seat items only (issue 15)', () => {
  const sub = (items: { quantity?: number; metadata?: Record<string, string>; lookup_key?: string | null }[]) =>
    ({ items: { data: items.map((i) => ({ quantity: i.quantity, price: { metadata: i.metadata ?? {}, lookup_key: i.lookup_key ?? null } })) } }) as unknown as Stripe.Subscription;
  assertEquals(extraSeats(sub([{ quantity: 1, metadata: { plan_id: 'enterprise' } }])), 0);
  assertEquals(extraSeats(sub([{ quantity: 1, metadata: { plan_id: 'enterprise' } }, { quantity: 3, metadata: { teamwerk_item: 'extra_seat' } }])), 3);
  assertEquals(extraSeats(sub([{ quantity: 2, lookup_key: 'teamwerk_extra_seat_yearly' }, { quantity: 4, metadata: { teamwerk_item: 'extra_seat' } }])), 6);
  assertEquals(extraSeats(sub([{ quantity: 2, lookup_key: 'teamwerk_enterprise_monthly' }])), 0);
  assertEquals(extraSeats({ items: { data: [] } } as unknown as Stripe.Subscription), 0);
  // the plan price is the first item that is not a seat, wherever Stripe lists the seat item
  const mixed = sub([{ quantity: 3, metadata: { teamwerk_item: 'extra_seat' } }, { quantity: 1, metadata: { plan_id: 'enterprise' } }]);
  assertEquals(subscriptionPrice(mixed)?.metadata, { plan_id: 'enterprise' });
  assertEquals(seatItem(mixed)?.quantity, 3);
  assertEquals(seatItem(sub([{ quantity: 1, metadata: { plan_id: 'enterprise' } }])), null);
});
