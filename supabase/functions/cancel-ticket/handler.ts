/**
 * `cancel-ticket` (issue 16): the attendee cancels a ticket or a held seat of a paid event.
 *
 * POST `{ eventId: number }` with the attendee's access token.
 * 1. `cancel_rsvp` runs as the caller (event row lock first): a paid ticket goes to the refund
 *    queue when the event starts in more than 48 hours; a held seat is released.
 * 2. The queue is run at once for the refund (full amount, Stripe refund API, idempotent); when
 *    Stripe is down the refund stays queued and process-ticket-refunds retries it.
 * 3. An open checkout session of a released seat is expired at Stripe (best effort: a payment
 *    that still completes is refunded).
 * → 200 `{ status: 'cancelled', refund: 'refunded' | 'pending' | 'none' }`.
 * Errors: 401 `unauthorized`; 400 `validation_failed`; 400 `refund_window_closed` ("Tickets can be
 * cancelled until 48 hours before the start."); 404 `event_not_found`; 403 `account_suspended`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { processTicketRefunds } from '../_shared/tickets.ts';
import { rpcError } from '../_shared/rpc-error.ts';

const Body = z.object({ eventId: z.number().int().positive() });

/** Dependencies of cancel-ticket. */
export interface CancelTicketDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  callerClient: (accessToken: string) => SupabaseClient;
  admin: SupabaseClient;
  stripe: Stripe;
}

/** Builds the request handler of `cancel-ticket` over its dependencies. */
export function createCancelTicketHandler(deps: CancelTicketDeps): (req: Request) => Promise<Response> {
  return withErrors('cancel-ticket', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'Only the attendee cancels a ticket');
    const body = await readBody(req, Body);
    const res = await deps.callerClient(caller.accessToken).rpc('cancel_rsvp', { p_event_id: body.eventId });
    if (res.error) throw rpcError(res.error);
    const out = res.data as { refund: 'pending' | 'none'; ticket_id: number | null };
    if (out.ticket_id) {
      const tk = await deps.admin.from('event_tickets').select('status, checkout_session_id').eq('id', out.ticket_id).single();
      if (out.refund === 'none' && tk.data?.checkout_session_id) {
        await deps.stripe.checkout.sessions.expire(tk.data.checkout_session_id as string).catch(() => undefined);
      }
    }
    if (out.refund !== 'pending') return json({ status: 'cancelled', refund: 'none' });
    await processTicketRefunds(deps.stripe, deps.admin, 5).catch((err) =>
      console.error(JSON.stringify({ level: 'error', fn: 'cancel-ticket', error: String(err) })));
    const after = await deps.admin.from('event_tickets').select('status').eq('id', out.ticket_id!).single();
    return json({ status: 'cancelled', refund: after.data?.status === 'refunded' ? 'refunded' : 'pending' });
  });
}
