import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';

/*
 * Taking part in an event: the caller's RSVP, free places and paid tickets (issue 16: checkout,
 * cancellation with refund, verification after payment).
 */

/** The caller's RSVP of an event and, when waitlisted, the place in the queue. */
export interface MyRsvp {
  status: Database['public']['Enums']['attendee_status'];
  position: number | null;
  /** Until when a held seat is kept (status held), else null. */
  holdExpiresAt: string | null;
  /** The caller's live or last ticket of this event (paid events), else null. */
  ticket: MyTicket | null;
}

/** A ticket as its buyer sees it (public.event_tickets; Stripe ids are not readable). */
export interface MyTicket {
  id: number;
  ticket_number: string;
  status: Database['public']['Enums']['ticket_status'];
  amount_cents: number;
  currency: string;
  paid_at: string | null;
  refunded_at: string | null;
}

/** Columns of public.event_tickets the caller sees of their own ticket (the RSVP read and /user/events). */
export const TICKET_COLUMNS = 'id, ticket_number, status, amount_cents, currency, paid_at, refunded_at';

/** Reads the caller's RSVP (null when none), waitlist position and ticket (issue 16). */
export async function getMyRsvp(eventId: number, userId: string): Promise<MyRsvp | null> {
  const { supabase } = await import('@/lib/supabase');
  const [rowRes, ticketRes] = await Promise.all([
    supabase.from('event_attendees').select('status, hold_expires_at').eq('event_id', eventId).eq('user_id', userId).maybeSingle().retry(false),
    supabase
      .from('event_tickets')
      .select(TICKET_COLUMNS)
      .eq('event_id', eventId)
      .eq('user_id', userId)
      .in('status', ['paid', 'refund_pending', 'refunded'])
      .order('created_at', { ascending: false })
      .limit(1)
      .retry(false),
  ]);
  const row = unwrap(rowRes, 'GET');
  const ticket = unwrap(ticketRes, 'GET')?.[0] ?? null;
  if (!row) return ticket ? { status: 'cancelled', position: null, holdExpiresAt: null, ticket } : null;
  let position: number | null = null;
  if (row.status === 'waitlisted') {
    position = unwrap(await supabase.rpc('event_waitlist_position', { p_event_id: eventId }).retry(false), 'POST') ?? null;
  }
  return { status: row.status, position, holdExpiresAt: row.hold_expires_at, ticket };
}

/** Hook for the caller's RSVP (disabled when logged out). */
export function useMyRsvp(eventId: number | undefined, userId: string | null) {
  return useQuery({
    queryKey: ['events', 'rsvp', eventId, userId],
    queryFn: () => getMyRsvp(eventId!, userId!),
    enabled: eventId !== undefined && userId !== null,
  });
}

/**
 * RSVP to a free event or cancel (RPCs rsvp_event / cancel_rsvp: the database locks the event,
 * decides going vs. waitlisted and promotes the next waitlisted person; issues 8, 16).
 * @throws ApiError (event_not_open, ticket_required, event_not_found)
 */
export async function setRsvp(eventId: number, attend: boolean): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  if (attend) unwrap(await supabase.rpc('rsvp_event', { p_event_id: eventId }), 'POST');
  else unwrap(await supabase.rpc('cancel_rsvp', { p_event_id: eventId }), 'POST');
}

/** Mutation hook for RSVP/cancel; refreshes the event, the RSVP and the lists. */
export function useSetRsvp(eventId: number, userId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ attend }: { attend: boolean }) => {
      if (!userId) throw new ApiError('not signed in', 401, 'POST');
      return setRsvp(eventId, attend);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });
}

/** Answer of create-ticket-checkout. */
export type TicketCheckout = { status: 'held'; url: string; sessionId: string; holdExpiresAt: string } | { status: 'waitlisted' | 'going' };

/**
 * Buys a ticket for a paid event (issue 16): the function holds a seat for 30 minutes and opens
 * Stripe Checkout (payment mode) in the page's language; no free seat → waitlisted.
 * @throws FunctionCallError (event_not_open, event_not_found, stripe_unavailable, …)
 */
export async function startTicketCheckout(eventId: number, locale: 'de' | 'en'): Promise<TicketCheckout> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  return invokeFunction<TicketCheckout>('create-ticket-checkout', { eventId, locale });
}

/**
 * Cancels the caller's ticket or held seat (issue 16): full refund until 48 hours before the
 * start. Output: refund refunded | pending | none.
 * @throws FunctionCallError (refund_window_closed, …)
 */
export async function cancelTicket(eventId: number): Promise<{ status: 'cancelled'; refund: 'refunded' | 'pending' | 'none' }> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  return invokeFunction('cancel-ticket', { eventId });
}

/** Verifies a ticket checkout on the success page (verify-ticket). */
export async function verifyTicket(sessionId: string): Promise<{ status: MyTicket['status']; ticketNumber: string; eventSlug: string; amountCents: number; currency: string }> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  return invokeFunction('verify-ticket', { sessionId });
}

/**
 * Nudges the refund queue after the organiser cancelled a paid event (the cron job would do it
 * within a minute; this makes the refunds visible at once). Never throws.
 */
export async function nudgeRefunds(): Promise<void> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  await invokeFunction('process-ticket-refunds', {}).catch(() => undefined);
}
