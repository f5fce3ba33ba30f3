/**
 * Event tickets (issue 16): the one write path from Stripe to `event_tickets`, and the refund
 * queue. As for subscriptions (billing-sync.ts), an event or a redirect only says *which*
 * checkout session changed; its state is re-read from Stripe and written with the service-role
 * RPC `sync_ticket_checkout`, whose states only move forward (pending → paid → refund_pending →
 * refunded, pending → expired), so duplicate, late and out-of-order events change nothing.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Stripe } from './stripe.ts';

/** The ticket row `sync_ticket_checkout` returns, with what the call did. */
export interface TicketSync {
  id: number;
  event_id: number;
  user_id: string | null;
  ticket_number: string;
  status: 'pending' | 'paid' | 'expired' | 'refund_pending' | 'refunded';
  amount_cents: number;
  currency: string;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  /** paid | expired | refund_needed | refunded | unchanged */
  action: string;
  event_slug: string;
}

/** metadata.kind of a ticket checkout session (subscription sessions carry none). */
export const TICKET_KIND = 'event_ticket';

function idOf(value: unknown): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value;
  return typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : null;
}

/**
 * Re-reads checkout session `sessionId` from Stripe (with its payment intent and charge) and
 * stores its state. Output: the ticket afterwards, or null when no ticket has this session
 * (another product's session). When the payment came too late for a seat (`refund_needed`),
 * the refund queue is run for it at once.
 * Errors: Stripe SDK errors unchanged (404 when Stripe does not know the session); database
 * failures as Error.
 */
export async function syncTicketCheckout(stripe: Stripe, admin: SupabaseClient, sessionId: string): Promise<TicketSync | null> {
  const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.latest_charge'] });
  const pi = session.payment_intent as Stripe.PaymentIntent | string | null;
  const charge = pi && typeof pi === 'object' ? (pi.latest_charge as Stripe.Charge | string | null) : null;
  const amountRefunded = charge && typeof charge === 'object' ? charge.amount_refunded : 0;
  let refundId: string | null = null;
  if (amountRefunded > 0 && pi) {
    const refunds = await stripe.refunds.list({ payment_intent: idOf(pi)!, limit: 1 });
    refundId = refunds.data[0]?.id ?? null;
  }
  const res = await admin.rpc('sync_ticket_checkout', {
    p_session_id: session.id,
    p_session_status: session.status ?? 'open',
    p_payment_status: session.payment_status,
    p_payment_intent: idOf(pi),
    p_amount_refunded: amountRefunded,
    p_refund_id: refundId,
  });
  if (res.error) throw new Error(`sync_ticket_checkout: ${res.error.message}`);
  const ticket = res.data as TicketSync | null;
  if (ticket?.action === 'refund_needed') await processTicketRefunds(stripe, admin, 5);
  return ticket;
}

/** Outcome of one refund queue run. */
export interface RefundRun {
  claimed: number;
  refunded: number;
  failed: number;
}

interface ClaimedRefund {
  id: number;
  payment_intent_id: string | null;
  amount_cents: number;
  refund_reason: string;
  refund_attempts: number;
}

/**
 * Runs the refund queue once: claims up to `limit` due refund_pending tickets, refunds each in
 * full through the Stripe refund API (idempotency key per ticket, so a retry never refunds
 * twice) and stores the result through `syncTicketCheckout`. A failure is kept on the row and
 * retried with backoff (fail_ticket_refund). Never throws for a single ticket; database errors
 * of the claim throw.
 */
export async function processTicketRefunds(stripe: Stripe, admin: SupabaseClient, limit = 20): Promise<RefundRun> {
  const claim = await admin.rpc('claim_ticket_refunds', { p_limit: limit });
  if (claim.error) throw new Error(`claim_ticket_refunds: ${claim.error.message}`);
  const rows = (claim.data ?? []) as ClaimedRefund[];
  const run: RefundRun = { claimed: rows.length, refunded: 0, failed: 0 };
  for (const row of rows) {
    try {
      if (!row.payment_intent_id) throw new Error('ticket has no payment intent');
      try {
        await stripe.refunds.create(
          { payment_intent: row.payment_intent_id, reason: 'requested_by_customer', metadata: { ticketId: String(row.id), reason: row.refund_reason } },
          { idempotencyKey: `teamwerk-ticket-refund-${row.id}` },
        );
      } catch (err) {
        // already refunded (e.g. an earlier attempt whose answer was lost): the re-read below stores it
        if ((err as { code?: string }).code !== 'charge_already_refunded') throw err;
      }
      const ticket = await admin.from('event_tickets').select('checkout_session_id').eq('id', row.id).single();
      if (ticket.error || !ticket.data?.checkout_session_id) throw new Error(`ticket ${row.id}: ${ticket.error?.message ?? 'no session'}`);
      const synced = await syncTicketCheckout(stripe, admin, ticket.data.checkout_session_id as string);
      if (synced?.status !== 'refunded') throw new Error(`refund of ticket ${row.id} not visible yet`);
      run.refunded += 1;
    } catch (err) {
      run.failed += 1;
      const message = err instanceof Error ? err.message : String(err);
      console.error(JSON.stringify({ level: 'error', fn: 'ticket-refunds', ticket: row.id, error: message }));
      await admin.rpc('fail_ticket_refund', { p_ticket_id: row.id, p_error: message });
    }
  }
  return run;
}
