/**
 * `create-ticket-checkout` (issue 16: paid tickets). The signed-in user buys a ticket for a paid
 * event.
 *
 * POST `{ eventId: number, locale?: 'de'|'en' }` with the user's access token.
 * 1. `reserve_ticket` runs as the caller (RLS context, event row lock first): it holds a seat for
 *    30 minutes with a pending ticket, or puts the caller on the waitlist when no seat is free or
 *    half the seats are already held unpaid; a running hold comes back unchanged, never renewed
 *    (issue 31 §3).
 * 2. For a held seat a Stripe Checkout session in payment mode is opened (card; the event's price
 *    incl. VAT as one line item; Checkout in the caller's language; it expires with the hold) and
 *    stored on the ticket; an open session of the same ticket is reused.
 * → 200 `{ status: 'held', url, sessionId, holdExpiresAt }`, `{ status: 'waitlisted' }` or
 *   `{ status: 'going' }` (already has a ticket).
 * Errors (`{ error: { code, message } }`): 401 `unauthorized`; 400 `validation_failed`; the RPC's
 * refusals: 404 `event_not_found`, 400 `event_not_open` | `event_not_paid` | `refund_in_progress`,
 * 403 `account_suspended`, 429 `hold_cooldown` (the caller's hold ran out, or ended unpaid less
 * than 30 minutes ago; issue 31 §3); 503 `stripe_unavailable`; 502 `checkout_failed`.
 */
import { z } from 'zod';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import type { Stripe } from '../_shared/stripe.ts';
import { billingError } from '../_shared/billing-sync.ts';
import { TICKET_KIND } from '../_shared/tickets.ts';
import { localeBase } from '../create-checkout-session/handler.ts';
import { rpcError } from '../_shared/rpc-error.ts';

const Body = z.object({
  eventId: z.number().int().positive(),
  locale: z.enum(['de', 'en']).optional().default('en'),
});

/** What reserve_ticket returns. */
interface Reservation {
  status: 'held' | 'waitlisted' | 'going';
  ticket_id: number | null;
  ticket_number: string | null;
  amount_cents: number;
  currency: string;
  hold_expires_at: string | null;
  checkout_session_id: string | null;
}

/** Dependencies of create-ticket-checkout. */
export interface TicketCheckoutDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  /** A client acting as the caller (RLS applies). */
  callerClient: (accessToken: string) => SupabaseClient;
  /** Service-role client (event read, storing the session). */
  admin: SupabaseClient;
  stripe: Stripe;
  siteUrl: string;
}

/** Builds the request handler of `create-ticket-checkout` over its dependencies. */
export function createTicketCheckoutHandler(deps: TicketCheckoutDeps): (req: Request) => Promise<Response> {
  return withErrors('create-ticket-checkout', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'Tickets are bought by signed-in users');
    const body = await readBody(req, Body);
    const reserved = await deps.callerClient(caller.accessToken).rpc('reserve_ticket', { p_event_id: body.eventId, p_lang: body.locale });
    if (reserved.error) throw rpcError(reserved.error);
    const r = reserved.data as Reservation;
    if (r.status !== 'held') return json({ status: r.status });

    if (r.checkout_session_id) {
      try {
        const open = await deps.stripe.checkout.sessions.retrieve(r.checkout_session_id);
        if (open.status === 'open' && open.url) {
          return json({ status: 'held', url: open.url, sessionId: open.id, holdExpiresAt: r.hold_expires_at });
        }
      } catch (err) {
        throw billingError(err, 'checkout_failed', 'Failed to create checkout session');
      }
    }

    const ev = await deps.admin.from('events').select('id, slug, title, starts_at').eq('id', body.eventId).single();
    if (ev.error) throw new Error(`event lookup: ${ev.error.message}`);
    const event = ev.data as { id: number; slug: string; title: string; starts_at: string };
    const base = localeBase(deps.siteUrl, body.locale);
    const metadata = { kind: TICKET_KIND, ticketId: String(r.ticket_id), eventId: String(event.id), userId: caller.userId };
    const when = new Intl.DateTimeFormat(body.locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' })
      .format(new Date(event.starts_at));
    const params: Stripe.Checkout.SessionCreateParams & { payment_method_types: ['card'] } = {
      mode: 'payment',
      payment_method_types: ['card'],
      line_items: [{
        quantity: 1,
        price_data: {
          currency: r.currency,
          unit_amount: r.amount_cents,
          tax_behavior: 'inclusive',
          product_data: { name: `Ticket: ${event.title}`, description: when },
        },
      }],
      ...(caller.email ? { customer_email: caller.email } : {}),
      client_reference_id: caller.userId,
      metadata,
      payment_intent_data: { metadata, description: `Ticket ${r.ticket_number} · ${event.title}` },
      locale: body.locale,
      expires_at: Math.floor(Date.parse(r.hold_expires_at!) / 1000),
      success_url: `${base}/events/ticket/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}/events/${event.slug}`,
    };
    let session: Stripe.Checkout.Session;
    try {
      try {
        session = await deps.stripe.checkout.sessions.create(params, { idempotencyKey: `teamwerk-ticket-checkout-${r.ticket_id}` });
      } catch (err) {
        // Stripe measures expires_at on its clock; when ours is behind (or a test moved Stripe's),
        // the session keeps Stripe's default lifetime: a payment after our hold ended is refunded.
        if ((err as { param?: string }).param !== 'expires_at') throw err;
        console.warn(JSON.stringify({ level: 'warn', fn: 'create-ticket-checkout', ticket: r.ticket_id, message: 'expires_at refused; default lifetime' }));
        const { expires_at: _dropped, ...rest } = params;
        session = await deps.stripe.checkout.sessions.create(rest, { idempotencyKey: `teamwerk-ticket-checkout-${r.ticket_id}-default-ttl` });
      }
    } catch (err) {
      const mapped = billingError(err, 'checkout_failed', 'Failed to create checkout session');
      throw mapped.status === 500 && mapped.code === 'checkout_failed' ? new HttpError(502, mapped.code, mapped.message) : mapped;
    }
    if (!session.url) throw new HttpError(502, 'no_checkout_url', 'No checkout URL returned');
    const stored = await deps.admin.rpc('attach_ticket_checkout', { p_ticket_id: r.ticket_id, p_session_id: session.id });
    if (stored.error) throw new Error(`attach_ticket_checkout: ${stored.error.message}`);
    return json({ status: 'held', url: session.url, sessionId: session.id, holdExpiresAt: r.hold_expires_at });
  });
}
