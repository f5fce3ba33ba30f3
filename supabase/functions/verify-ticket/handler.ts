/**
 * `verify-ticket` (issue 16): the success page of a ticket checkout verifies the session, as
 * /payment/success does for subscriptions (verify-payment).
 *
 * POST `{ sessionId: 'cs_…' }` with the buyer's access token.
 * The session is re-read from Stripe and stored (`syncTicketCheckout`, idempotent with the
 * webhook); only the buyer (metadata.userId) may verify it.
 * → 200 `{ status: ticket status, ticketNumber, eventSlug, amountCents, currency }`; status
 *   `paid` means the seat is confirmed, `pending` that the payment is not complete,
 *   `refund_pending`/`refunded` that it came too late for a seat.
 * Errors: 401 `unauthorized`; 400 `validation_failed`; 404 `session_not_found` (unknown to
 * Stripe, not a ticket, or another user's); 503 `stripe_unavailable`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { billingError, isStripeMissing } from '../_shared/billing-sync.ts';
import { syncTicketCheckout, TICKET_KIND } from '../_shared/tickets.ts';

const Body = z.object({ sessionId: z.string().regex(/^cs_[A-Za-z0-9_]+$/).max(255) });

/** Dependencies of verify-ticket. */
export interface VerifyTicketDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  admin: SupabaseClient;
  stripe: Stripe;
}

const NOT_FOUND = () => new HttpError(404, 'session_not_found', 'We could not find this ticket purchase.');

/** Builds the request handler of `verify-ticket` over its dependencies. */
export function createVerifyTicketHandler(deps: VerifyTicketDeps): (req: Request) => Promise<Response> {
  return withErrors('verify-ticket', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    const body = await readBody(req, Body);
    let ownerId: string | undefined;
    try {
      const session = await deps.stripe.checkout.sessions.retrieve(body.sessionId);
      if (session.metadata?.kind !== TICKET_KIND) throw NOT_FOUND();
      ownerId = session.metadata?.userId;
    } catch (err) {
      if (isStripeMissing(err)) throw NOT_FOUND();
      throw billingError(err, 'verification_failed', "We couldn't verify your payment. Please try again or contact support.");
    }
    if (caller.kind === 'user' && ownerId !== caller.userId) throw NOT_FOUND();
    let ticket;
    try {
      ticket = await syncTicketCheckout(deps.stripe, deps.admin, body.sessionId);
    } catch (err) {
      throw billingError(err, 'verification_failed', "We couldn't verify your payment. Please try again or contact support.");
    }
    if (!ticket) throw NOT_FOUND();
    return json({
      status: ticket.status,
      ticketNumber: ticket.ticket_number,
      eventSlug: ticket.event_slug,
      amountCents: ticket.amount_cents,
      currency: ticket.currency,
    });
  });
}
