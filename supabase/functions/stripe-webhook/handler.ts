/**
 * `stripe-webhook` (spec §7 "webhook event verification (tolerance 300 s)"; issue 7).
 * Stripe posts events here (`verify_jwt = false`: Stripe sends no Supabase JWT; the signature
 * is the authentication).
 *
 * POST raw event JSON with `Stripe-Signature: t=…,v1=…`.
 * 1. The signature is verified with `constructEventAsync` (SubtleCrypto) against
 *    STRIPE_WEBHOOK_SECRET, tolerance 300 s → 400 `invalid_signature` when forged, stale or
 *    missing (nothing is recorded).
 *    A correctly signed body that is not a Stripe event (no `evt_` id, type, created time or data
 *    object), or a handled event whose object lacks the subscription it names, → 400
 *    `malformed_event`, nothing recorded (issue 12 finding 11: it answered 500).
 * 2. The event id goes into the ledger `stripe_events` (`record_stripe_event`); an event already
 *    processed → 200 `{ received: true, duplicate: true }` and nothing else happens.
 * 3. checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid and
 *    invoice.payment_failed name a subscription; it is re-read from Stripe and stored with the
 *    shared `syncSubscription` (older state never overwrites newer: last_synced_at). The role
 *    follows (a canceled subscription returns the account to free).
 * 4. Ticket checkouts (issue 16: checkout.session.completed and checkout.session.expired of a
 *    payment-mode session with metadata.kind = event_ticket, and charge.refunded of its payment)
 *    re-read the session and store it with `syncTicketCheckout` (forward-only states: duplicate,
 *    late and out-of-order events change nothing; an expired session releases its seat).
 * 5. Success → ledger row processed, 200 `{ received: true, type, synced }` (tickets:
 *    `{ received: true, type, ticket: status }`). Other event types → 200 `{ received: true, ignored: true }`.
 * A subscription Stripe does not know (404) cannot be synced by retrying: acknowledged with
 * `{ received: true, ignored: true, reason: 'resource_missing' }`.
 * Any other failure while handling → the ledger row keeps `processed_at` null with the error, and the
 * answer is 500 `processing_failed` (503 `stripe_unavailable` when Stripe was unreachable), so
 * Stripe retries and the retry is handled again.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import { cryptoProvider, type Stripe } from '../_shared/stripe.ts';
import { isStripeMissing, isStripeUnavailable, syncSubscription } from '../_shared/billing-sync.ts';
import { syncTicketCheckout, TICKET_KIND } from '../_shared/tickets.ts';
import { HANDLED_EVENTS, TICKET_EVENTS } from './events.ts';

/** Signature tolerance in seconds (spec §7). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A ticket change an event names: the checkout session, or the payment intent of a refund. */
type TicketTarget = { sessionId: string } | { paymentIntentId: string };

/** The ticket an event is about, or null (subscription checkouts, other products' charges). */
export function ticketTarget(event: Stripe.Event): TicketTarget | null {
  const obj = event.data.object as unknown as Record<string, unknown>;
  if (event.type === 'charge.refunded') {
    // the payment intent is looked up among the tickets; other charges (invoices) find none
    const pi = idOf(obj.payment_intent);
    return pi ? { paymentIntentId: pi } : null;
  }
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.expired') {
    const meta = (obj.metadata ?? {}) as Record<string, string>;
    if (obj.mode !== 'payment' || meta.kind !== TICKET_KIND) return null;
    return typeof obj.id === 'string' ? { sessionId: obj.id } : null;
  }
  return null;
}

/** Dependencies of stripe-webhook. */
export interface WebhookDeps {
  stripe: Stripe;
  /** Service-role client (ledger and sync RPCs). */
  admin: SupabaseClient;
  /** The endpoint's signing secret (whsec_…). */
  webhookSecret: string;
}

/** The envelope every Stripe event has; anything else is refused before the ledger is touched. */
const EventEnvelope = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9_]+$/).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const MALFORMED = (detail: string) => new HttpError(400, 'malformed_event', `The signed body is not a valid Stripe event: ${detail}`);

function idOf(value: unknown): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value;
  return typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : null;
}

/** What to sync for an event: a subscription id plus what the event vouches for. */
interface Target {
  subscriptionId: string;
  userId?: string | null;
  checkoutSessionId?: string | null;
}

/** The subscription an event is about, or null (e.g. a payment-mode checkout, a one-off invoice). */
export function eventTarget(event: Stripe.Event): Target | null {
  const obj = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed': {
      const sub = idOf(obj.subscription);
      if (!sub) return null;
      const meta = (obj.metadata ?? {}) as Record<string, string>;
      return { subscriptionId: sub, userId: meta.userId ?? (obj.client_reference_id as string | null) ?? null, checkoutSessionId: obj.id as string };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { subscriptionId: obj.id as string };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      // API 2023-10-16: invoice.subscription; newer versions: parent.subscription_details.subscription.
      const parent = obj.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
      const sub = idOf(obj.subscription) ?? idOf(parent?.subscription_details?.subscription);
      return sub ? { subscriptionId: sub } : null;
    }
    default:
      return null;
  }
}

/**
 * The `t=` value of a Stripe-Signature header (Unix seconds), or null when absent or not a number.
 * Stripe's format: `t=<seconds>,v1=<hex>[,v1=…]` (docs "Verify webhook signatures manually").
 */
export function signatureTimestamp(header: string): number | null {
  const t = header.split(',').map((part) => part.trim().split('=')).find(([key]) => key === 't')?.[1];
  return t && /^\d+$/.test(t) ? Number(t) : null;
}

/** Builds the request handler of `stripe-webhook` over its dependencies. */
export function createStripeWebhookHandler(deps: WebhookDeps): (req: Request) => Promise<Response> {
  return withErrors('stripe-webhook', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const signature = req.headers.get('Stripe-Signature');
    const payload = await req.text();
    if (!signature) throw new HttpError(400, 'invalid_signature', 'Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = await deps.stripe.webhooks.constructEventAsync(payload, signature, deps.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, cryptoProvider);
    } catch (err) {
      throw new HttpError(400, 'invalid_signature', `Webhook signature verification failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    // The SDK refuses only timestamps older than the tolerance; spec §7's window holds both ways
    // (a signed event from the future is as suspect as a stale one; issue 31).
    const signedAt = signatureTimestamp(signature);
    if (signedAt === null || signedAt - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
      throw new HttpError(400, 'invalid_signature', 'Webhook signature verification failed: Timestamp outside the tolerance zone (in the future)');
    }
    const envelope = EventEnvelope.safeParse(event);
    if (!envelope.success) throw MALFORMED(envelope.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    const target = HANDLED_EVENTS.has(event.type) ? eventTarget(event) : null;
    if (target && !/^sub_[A-Za-z0-9_]+$/.test(target.subscriptionId)) throw MALFORMED(`${event.type} names no subscription`);
    const ticket = !target && TICKET_EVENTS.has(event.type) ? ticketTarget(event) : null;
    if (ticket && 'sessionId' in ticket && !/^cs_[A-Za-z0-9_]+$/.test(ticket.sessionId)) throw MALFORMED(`${event.type} names no checkout session`);

    const recorded = await deps.admin.rpc('record_stripe_event', {
      p_id: event.id,
      p_type: event.type,
      p_created_at: new Date(event.created * 1000).toISOString(),
    });
    if (recorded.error) throw new Error(`record_stripe_event: ${recorded.error.message}`);
    if (recorded.data === false) return json({ received: true, duplicate: true });

    if (!target && !ticket) {
      await finish(deps.admin, event.id, null);
      return json({ received: true, ignored: true });
    }
    try {
      if (ticket) {
        let sessionId = 'sessionId' in ticket ? ticket.sessionId : null;
        if (!sessionId && 'paymentIntentId' in ticket) {
          const found = await deps.admin.rpc('ticket_by_payment_intent', { p_payment_intent: ticket.paymentIntentId });
          if (found.error) throw new Error(`ticket_by_payment_intent: ${found.error.message}`);
          sessionId = (found.data as string | null) ?? null;
        }
        const synced = sessionId ? await syncTicketCheckout(deps.stripe, deps.admin, sessionId) : null;
        await finish(deps.admin, event.id, null);
        return synced ? json({ received: true, type: event.type, ticket: synced.status }) : json({ received: true, ignored: true });
      }
      if (!target) throw new Error('unreachable: no target');
      const result = await syncSubscription(deps.stripe, deps.admin, target.subscriptionId, {
        userId: target.userId ?? null,
        checkoutSessionId: target.checkoutSessionId ?? null,
      });
      await finish(deps.admin, event.id, null);
      return json({ received: true, type: event.type, synced: result.subscriptions.length, userRole: result.userRole });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (isStripeMissing(err)) {
        // Stripe does not know the subscription (deleted test data, another account's event):
        // a retry cannot succeed, so acknowledge and keep the reason in the ledger.
        console.warn(JSON.stringify({ level: 'warn', fn: 'stripe-webhook', event: event.id, type: event.type, ignored: message }));
        await finish(deps.admin, event.id, null);
        return json({ received: true, ignored: true, reason: 'resource_missing' });
      }
      console.error(JSON.stringify({ level: 'error', fn: 'stripe-webhook', event: event.id, type: event.type, error: message }));
      await finish(deps.admin, event.id, message.slice(0, 1000)).catch(() => undefined);
      if (isStripeUnavailable(err)) throw new HttpError(503, 'stripe_unavailable', 'Stripe is unreachable; retry later');
      throw new HttpError(500, 'processing_failed', `Event ${event.id} could not be processed; retry later`);
    }
  });
}

async function finish(admin: SupabaseClient, id: string, error: string | null): Promise<void> {
  const res = await admin.rpc('finish_stripe_event', { p_id: id, p_error: error });
  if (res.error) throw new Error(`finish_stripe_event: ${res.error.message}`);
}
