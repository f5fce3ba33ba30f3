/**
 * The Stripe event types the product reacts to: the one list the webhook handler dispatches on
 * and the deploy script subscribes the webhook endpoint to (scripts/deploy). Plain TypeScript
 * without imports, so Deno and Node read it alike.
 */

/** Event types that change subscription state (issue 7). */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Event types that change ticket state (issue 16). */
export const TICKET_EVENTS: ReadonlySet<string> = new Set(['checkout.session.completed', 'checkout.session.expired', 'charge.refunded']);

/** Every event type the webhook endpoint must receive, sorted. */
export const WEBHOOK_EVENTS: readonly string[] = [...new Set([...HANDLED_EVENTS, ...TICKET_EVENTS])].sort();
