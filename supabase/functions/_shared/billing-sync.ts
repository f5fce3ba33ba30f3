/**
 * The one write path from Stripe to the database (STYLE.md "Stripe sync"; issue 7): re-reads a
 * subscription (or all of a customer's subscriptions) from Stripe and writes it with the
 * service-role RPC `sync_subscription`, which keeps the newer state by `last_synced_at` and
 * recomputes `profiles.user_role`. verify-payment, stripe-webhook and cancel-contract all call
 * `syncSubscription`; event payloads are only hints about *which* subscription changed.
 *
 * Also the mapping of Stripe SDK errors to the functions' error answers (spec §8).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Stripe } from './stripe.ts';
import { STRIPE_NOT_CONFIGURED } from './stripe.ts';
import { HttpError } from './http.ts';

/** The row `sync_subscription` returns (public.subscriptions). */
export interface SubscriptionRow {
  id: string;
  user_id: string;
  plan_id: string;
  price_id: number | null;
  billing_period: string | null;
  status: string;
  current_period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  ended_at: string | null;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  stripe_checkout_session_id: string | null;
  last_synced_at: string;
}

/** Outcome of one sync. */
export interface SyncResult {
  /** Rows as stored after the sync (a stale write leaves the newer stored row). */
  subscriptions: SubscriptionRow[];
  /** The account the subscriptions belong to; null when none could be found (nothing written). */
  userId: string | null;
  /** profiles.user_role after the sync; null when no account was found. */
  userRole: string | null;
  /** The Stripe subscriptions as read (the state that was written). */
  stripeSubscriptions: Stripe.Subscription[];
  /** Subscriptions this sync cancelled and refunded because the account already had a live one. */
  duplicates: string[];
}

/** The database refused a second live subscription for one account (index subscriptions_one_live_per_user). */
class DuplicateLiveSubscription extends Error {}

const LIVE_STATUSES = ['active', 'trialing', 'past_due'];

/** Extra facts a caller already knows (from a verified checkout session). */
export interface SyncOptions {
  /** The account (checkout session metadata.userId, checked by the caller). */
  userId?: string | null;
  /** The checkout session that created the subscription (stored on the row). */
  checkoutSessionId?: string | null;
  /** Clock for the watermark; default Date.now. */
  now?: () => number;
}

/** A failure of the sync that is worth retrying (Stripe or the database unavailable). */
export class SyncError extends Error {
  constructor(
    message: string,
    public readonly retryable: boolean,
    public readonly code: string,
  ) {
    super(message);
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toIso(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;
}

/**
 * API version 2023-10-16 (spec §9) puts the period on the subscription; the SDK's types follow
 * newer versions that moved it to the items. Both are read.
 */
type SubscriptionV2023 = Stripe.Subscription & { current_period_start?: number; current_period_end?: number };

function periodOf(sub: Stripe.Subscription): { start: number | null; end: number | null } {
  const s = sub as SubscriptionV2023;
  const item = sub.items?.data?.[0] as { current_period_start?: number; current_period_end?: number } | undefined;
  return {
    start: s.current_period_start ?? item?.current_period_start ?? null,
    end: s.current_period_end ?? item?.current_period_end ?? null,
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Period start/end of a subscription in unix seconds (null when unknown). */
export const subscriptionPeriod = periodOf;

/**
 * Whether a price is an extra organisation seat (issue 15): metadata `teamwerk_item: extra_seat` or a
 * lookup key `teamwerk_extra_seat_<period>`, both set by scripts/stripe/sync-prices.ts.
 */
export function isSeatPrice(price: (Stripe.Price & { lookup_key?: string | null }) | null | undefined): boolean {
  return price?.metadata?.teamwerk_item === 'extra_seat' || (price?.lookup_key ?? '').startsWith('teamwerk_extra_seat_');
}

/**
 * The plan price of a subscription: its first item that is not an extra seat (the product sells
 * one plan item of quantity 1; an Enterprise subscription may add a seat item, issue 15).
 */
export function subscriptionPrice(sub: Stripe.Subscription): Stripe.Price | null {
  const items = sub.items?.data ?? [];
  return (items.find((item) => !isSeatPrice(item.price)) ?? items[0])?.price ?? null;
}

/** The subscription item holding the extra seats (issue 15), or null. */
export function seatItem(sub: Stripe.Subscription): Stripe.SubscriptionItem | null {
  return (sub.items?.data ?? []).find((item) => isSeatPrice(item.price)) ?? null;
}

/**
 * Extra organisation seats bought on a subscription (issue 15: Enterprise includes 5 seats, more as
 * a quantity on the Stripe subscription): the summed quantity of its items whose price is an extra
 * seat (isSeatPrice). Input: a Stripe subscription; output: a whole number 0..9995.
 */
export function extraSeats(sub: Stripe.Subscription): number {
  let n = 0;
  for (const item of sub.items?.data ?? []) {
    if (isSeatPrice(item.price)) n += item.quantity ?? 1;
  }
  return Math.max(0, Math.min(9995, Math.trunc(n)));
}

/** The plan a subscription is for: price metadata (set by sync-prices), then subscription metadata. */
function planHint(sub: Stripe.Subscription): string | null {
  const price = subscriptionPrice(sub);
  const fromPrice = price?.metadata?.plan_id;
  if (fromPrice) return fromPrice;
  const fromSub = sub.metadata?.planType;
  return fromSub && /^(basic|premium|enterprise)$/.test(fromSub) ? fromSub : null;
}

/** The plan id (basic | premium | enterprise) a subscription is for, or null: price metadata, then subscription metadata. */
export const subscriptionPlan = planHint;

/** Whether a Stripe SDK error means "Stripe unreachable or failing": retry later. */
export function isStripeUnavailable(err: unknown): boolean {
  const e = err as { type?: string; statusCode?: number } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.type === 'StripeConnectionError' || e.type === 'StripeAPIError' || e.type === 'StripeRateLimitError') return true;
  return typeof e.type === 'string' && e.type.startsWith('Stripe') && typeof e.statusCode === 'number' && e.statusCode >= 500;
}

/** Whether a Stripe SDK error means a missing or wrong secret key (spec §8). */
export function isStripeAuthError(err: unknown): boolean {
  const e = err as { type?: string; statusCode?: number } | null;
  return !!e && (e.type === 'StripeAuthenticationError' || (typeof e.type === 'string' && e.type.startsWith('Stripe') && e.statusCode === 401));
}

/** Whether a Stripe SDK error is Stripe's 404 resource_missing. */
export function isStripeMissing(err: unknown): boolean {
  const e = err as { code?: string; statusCode?: number; type?: string } | null;
  return !!e && typeof e.type === 'string' && e.type.startsWith('Stripe') && (e.code === 'resource_missing' || e.statusCode === 404);
}

/**
 * Turns a failure into the function's error answer: Stripe unreachable → 503
 * `stripe_unavailable` (retry later); a missing/wrong key → 500 `stripe_not_configured` with
 * "Stripe is not properly configured with a valid API key." (spec §8); a SyncError of the
 * database → 503 `sync_failed`; HttpError unchanged; anything else → 500 `code` with `message`.
 */
export function billingError(err: unknown, code: string, message: string): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof SyncError) {
    return err.retryable ? new HttpError(503, err.code, err.message) : new HttpError(500, err.code, err.message);
  }
  if (isStripeAuthError(err)) return new HttpError(500, 'stripe_not_configured', STRIPE_NOT_CONFIGURED);
  if (isStripeUnavailable(err)) {
    return new HttpError(503, 'stripe_unavailable', 'The payment provider is temporarily unavailable. Please try again in a moment.');
  }
  console.error(JSON.stringify({ level: 'error', code, error: err instanceof Error ? err.message : String(err) }));
  return new HttpError(500, code, message);
}

/**
 * Every subscription of Stripe customer `customerId` (all statuses, up to 100), as Stripe holds
 * them now: what cancel-contract (§312k) and the account-deletion cancellations (issue 32 §1) act
 * on. A customer Stripe does not know (404 resource_missing) has none: `[]`.
 * Errors: other Stripe SDK errors unchanged (see `billingError`, `isStripeUnavailable`).
 */
export async function customerSubscriptions(stripe: Stripe, customerId: string): Promise<Stripe.Subscription[]> {
  try {
    return (await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 })).data;
  } catch (err) {
    if (isStripeMissing(err)) return [];
    throw err;
  }
}

/** Finds the account a subscription belongs to, or null. Checked against profiles. */
async function resolveUser(db: SupabaseClient, sub: Stripe.Subscription, hint: string | null | undefined, stripe: Stripe): Promise<string | null> {
  const customerId = idOf(sub.customer as string | { id: string });
  const candidates: string[] = [];
  if (hint) candidates.push(hint);
  if (sub.metadata?.userId) candidates.push(sub.metadata.userId);
  for (const id of candidates.filter((c) => UUID_RE.test(c))) {
    const { data, error } = await db.from('profiles').select('id').eq('id', id).maybeSingle();
    if (error) throw new SyncError(`profile lookup: ${error.message}`, true, 'sync_failed');
    if (data) return (data as { id: string }).id;
  }
  if (customerId) {
    const { data, error } = await db.from('profiles').select('id').eq('stripe_customer_id', customerId).maybeSingle();
    if (error) throw new SyncError(`profile lookup: ${error.message}`, true, 'sync_failed');
    if (data) return (data as { id: string }).id;
    const customer = typeof sub.customer === 'object' && sub.customer ? sub.customer : await stripe.customers.retrieve(customerId);
    const metaUser = (customer as { metadata?: Record<string, string>; deleted?: boolean }).metadata?.userId;
    if (metaUser && UUID_RE.test(metaUser)) {
      const found = await db.from('profiles').select('id').eq('id', metaUser).maybeSingle();
      if (found.error) throw new SyncError(`profile lookup: ${found.error.message}`, true, 'sync_failed');
      if (found.data) return (found.data as { id: string }).id;
    }
  }
  return null;
}

/** Writes one subscription as read from Stripe; returns the stored row. */
async function writeSubscription(
  db: SupabaseClient,
  sub: Stripe.Subscription,
  userId: string,
  syncedAt: string,
  checkoutSessionId: string | null,
): Promise<SubscriptionRow> {
  const { data, error } = await db.rpc('sync_subscription', {
    p_user_id: userId,
    p_stripe_customer_id: idOf(sub.customer as string | { id: string }),
    p_stripe_subscription_id: sub.id,
    p_status: sub.status,
    p_stripe_price_id: subscriptionPrice(sub)?.id ?? null,
    p_plan_id: planHint(sub),
    p_current_period_start: toIso(periodOf(sub).start),
    p_current_period_end: toIso(periodOf(sub).end),
    // An end date set with cancel_at (cancel-contract for a later requested date) counts as "ends".
    p_cancel_at_period_end: sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at !== undefined),
    p_canceled_at: toIso(sub.canceled_at),
    p_ended_at: toIso(sub.ended_at),
    p_checkout_session_id: checkoutSessionId,
    p_synced_at: syncedAt,
  });
  if (error) {
    if (error.code === '23505' && /subscriptions_one_live_per_user/.test(`${error.message} ${error.details ?? ''}`)) {
      throw new DuplicateLiveSubscription(sub.id);
    }
    // 22023 unknown_price: Stripe sells a price the database does not know; retrying cannot help
    // until sync-prices ran, but Stripe's webhook retries give it that time.
    throw new SyncError(`sync_subscription: ${error.message}${error.details ? ` (${error.details})` : ''}`, true, 'sync_failed');
  }
  const row = data as SubscriptionRow;
  // issue 15: an Enterprise subscription pays an organisation's seats (5 + extra seats), same watermark
  if (row.plan_id === 'enterprise') {
    const seats = await db.rpc('sync_subscription_seats', { p_stripe_subscription_id: sub.id, p_extra_seats: extraSeats(sub), p_synced_at: syncedAt });
    if (seats.error) throw new SyncError(`sync_subscription_seats: ${seats.error.message}`, true, 'sync_failed');
  }
  return row;
}

/** The stripe id of another live subscription of `userId` than `subscriptionId`, or null. */
async function otherLiveSubscription(db: SupabaseClient, userId: string, subscriptionId: string): Promise<string | null> {
  const { data, error } = await db.from('subscriptions').select('stripe_subscription_id').eq('user_id', userId)
    .in('status', LIVE_STATUSES).neq('stripe_subscription_id', subscriptionId).limit(1).maybeSingle();
  if (error) throw new SyncError(`subscription lookup: ${error.message}`, true, 'sync_failed');
  return (data as { stripe_subscription_id: string } | null)?.stripe_subscription_id ?? null;
}

/**
 * Ends a second live subscription of an account (issue 12 finding 7): cancels it at Stripe at
 * once and refunds the payment of its latest invoice (reason duplicate), then records it
 * (`record_duplicate_subscription`, which mails the customer once). Idempotent: the Stripe calls
 * carry idempotency keys derived from the subscription id and the refund is skipped when the
 * charge is already refunded, so webhook retries and verify-payment racing them refund once.
 * Returns the subscription as Stripe holds it afterwards (canceled).
 */
async function settleDuplicate(stripe: Stripe, db: SupabaseClient, sub: Stripe.Subscription, userId: string): Promise<Stripe.Subscription> {
  const kept = await otherLiveSubscription(db, userId, sub.id);
  let ended = sub;
  if (sub.status !== 'canceled' && sub.status !== 'incomplete_expired') {
    ended = await stripe.subscriptions.cancel(sub.id, { cancellation_details: { comment: 'duplicate subscription (issue 12)' } },
      { idempotencyKey: `duplicate-cancel-${sub.id}` });
  }
  let refundId: string | null = null;
  let refunded = 0;
  let currency: string | null = null;
  const invoiceId = idOf(sub.latest_invoice as string | { id: string } | null);
  if (invoiceId) {
    // API 2023-10-16: the invoice names its payment intent and charge
    const invoice = (await stripe.invoices.retrieve(invoiceId)) as unknown as { payment_intent?: string | null; charge?: string | null; amount_paid: number; currency: string };
    currency = invoice.currency;
    if (invoice.charge && invoice.amount_paid > 0) {
      const charge = await stripe.charges.retrieve(invoice.charge);
      if (!charge.refunded) {
        const refund = await stripe.refunds.create(
          { charge: charge.id, reason: 'duplicate', metadata: { userId, subscription: sub.id } },
          { idempotencyKey: `duplicate-refund-${sub.id}` },
        );
        refundId = refund.id;
        refunded = refund.amount;
      } else {
        const existing = await stripe.refunds.list({ charge: charge.id, limit: 1 });
        refundId = existing.data[0]?.id ?? null;
        refunded = charge.amount_refunded;
      }
    }
  }
  const recorded = await db.rpc('record_duplicate_subscription', {
    p_stripe_subscription_id: sub.id,
    p_user_id: userId,
    p_kept_subscription_id: kept,
    p_refund_id: refundId,
    p_refunded_cents: refunded,
    p_currency: currency,
  });
  if (recorded.error) throw new SyncError(`record_duplicate_subscription: ${recorded.error.message}`, true, 'sync_failed');
  console.warn(JSON.stringify({ level: 'warn', message: 'duplicate subscription cancelled and refunded', subscription: sub.id, user: userId, refund: refundId }));
  return ended.status === 'canceled' ? ended : await stripe.subscriptions.retrieve(sub.id);
}

/**
 * Re-reads Stripe's truth and stores it (STYLE.md: one `syncSubscription` for the success page
 * and every webhook).
 * - `ref` `sub_…`: that subscription; `cus_…`: every subscription of the customer (all statuses,
 *   up to 100), so the role reflects the best one.
 * - The watermark `last_synced_at` is the time just before the read, so a slower sync that read
 *   older state never overwrites a newer one (the RPC compares).
 * - The account comes from `options.userId`, the subscription's `metadata.userId` (set by
 *   create-checkout-session), the profile holding the customer id, or the customer's metadata.
 *   Without an account nothing is written (`userId: null`).
 * - One live subscription per account (issue 12 finding 7): when the database refuses a second
 *   live one, it is cancelled and refunded at Stripe (`settleDuplicate`) and stored as canceled;
 *   its id is in `duplicates`.
 * Errors: Stripe SDK errors are thrown unchanged (see `billingError`); database failures throw
 * SyncError (retryable).
 */
export async function syncSubscription(stripe: Stripe, db: SupabaseClient, ref: string, options: SyncOptions = {}): Promise<SyncResult> {
  const now = options.now ?? Date.now;
  const syncedAt = new Date(now()).toISOString();
  let subs: Stripe.Subscription[];
  if (ref.startsWith('cus_')) {
    const list = await stripe.subscriptions.list({ customer: ref, status: 'all', limit: 100 });
    subs = list.data;
  } else if (ref.startsWith('sub_')) {
    subs = [await stripe.subscriptions.retrieve(ref)];
  } else {
    throw new Error(`syncSubscription: expected a customer (cus_) or subscription (sub_) id, got ${ref}`);
  }

  const rows: SubscriptionRow[] = [];
  const duplicates: string[] = [];
  let userId: string | null = null;
  for (let sub of subs) {
    const owner = await resolveUser(db, sub, options.userId, stripe);
    if (!owner) {
      console.warn(JSON.stringify({ level: 'warn', message: 'subscription without a known account; not stored', subscription: sub.id }));
      continue;
    }
    userId = owner;
    try {
      rows.push(await writeSubscription(db, sub, owner, syncedAt, options.checkoutSessionId ?? null));
    } catch (err) {
      if (!(err instanceof DuplicateLiveSubscription)) throw err;
      // Two syncs of the SAME new subscription racing (webhook and verify-payment) also meet the
      // index (ON CONFLICT covers only the stripe id): then the other write has landed and a
      // retry updates it. Only another live subscription makes this one a duplicate.
      if (!(await otherLiveSubscription(db, owner, sub.id))) {
        rows.push(await writeSubscription(db, sub, owner, syncedAt, options.checkoutSessionId ?? null));
        continue;
      }
      sub = await settleDuplicate(stripe, db, sub, owner);
      subs[subs.findIndex((s) => s.id === sub.id)] = sub;
      duplicates.push(sub.id);
      rows.push(await writeSubscription(db, sub, owner, new Date(now()).toISOString(), options.checkoutSessionId ?? null));
    }
  }

  let userRole: string | null = null;
  if (userId) {
    const { data, error } = await db.from('profiles').select('user_role').eq('id', userId).maybeSingle();
    if (error) throw new SyncError(`profile read: ${error.message}`, true, 'sync_failed');
    userRole = (data as { user_role?: string } | null)?.user_role ?? null;
  }
  return { subscriptions: rows, userId, userRole, stripeSubscriptions: subs, duplicates };
}
