import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { isHttpsUrl } from '@site';
import { berlinLocalToUtc } from '../lib/berlin-time';
import { CATEGORIES, isCategory } from '@/lib/categories';

/**
 * An event as the SPA reads it; online_url comes from public.event_join_link (null when the caller
 * may not have it); `organization` is the organisation it is published under (issue 15).
 */
export type EventRow = Omit<Database['public']['Tables']['events']['Row'], 'owner_listed' | 'owner_premium'> & {
  organization?: { slug: string; name: string } | null;
};
/** public.event_status. */
export type EventStatus = Database['public']['Enums']['event_status'];
/** Statuses listed publicly on /events (spec §1; drafts only for the organiser). */
export const LISTED_STATUSES: EventStatus[] = ['published', 'upcoming', 'ongoing'];
/** Events per page on /events. */
export const EVENTS_PAGE_SIZE = 12;

const EVENT_COLUMNS =
  'id, slug, title, summary, description, category, status, is_paid, price_cents, currency, starts_at, ends_at, timezone, is_online, venue_name, street, zipcode, city, capacity, going_count, waitlist_count, organizer_id, image, created_at, organization_id, organization:organizations(slug, name)' as const;

/** The ten values of public.project_category (events and jobs use it too). */

/** Filters of /events as they live in the URL. */
export interface EventFilters {
  city: string;
  from: string;
  to: string;
  price: '' | 'free' | 'paid';
  category: string;
  page: number;
  /** List or map view (issue 14). */
  view: 'list' | 'map';
}

/** Reads the /events filters from the URL query, dropping malformed values. */
export function parseEventFilters(search: URLSearchParams): EventFilters {
  const date = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : '');
  const price = search.get('price');
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  return {
    city: (search.get('city') ?? '').slice(0, 100),
    from: date(search.get('from')),
    to: date(search.get('to')),
    price: price === 'free' || price === 'paid' ? price : '',
    category: isCategory(search.get('category') ?? '') ? search.get('category')! : '',
    page: Number.isFinite(page) && page > 0 ? page : 1,
    view: search.get('view') === 'map' ? 'map' : 'list',
  };
}

/** Writes the /events filters into a URL query (only non-default values). */
export function toEventSearch(f: EventFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of ['city', 'from', 'to', 'price', 'category'] as const) if (f[key]) out.set(key, f[key].trim());
  if (f.page > 1) out.set('page', String(f.page));
  if (f.view === 'map') out.set('view', 'map');
  return out;
}

/** Listed event row as shown in lists. */
export type EventListItem = Pick<EventRow, 'id' | 'slug' | 'title' | 'summary' | 'category' | 'status' | 'is_paid' | 'price_cents' | 'starts_at' | 'ends_at' | 'is_online' | 'city' | 'capacity' | 'going_count' | 'venue_name'> & { latitude: number | null; longitude: number | null };

/**
 * Lists public events that have not ended, soonest first (spec §2 /events), with filters.
 * Dates are Europe/Berlin days: `from` = starting on or after that day, `to` = starting on or before it.
 * @returns one page and the total count
 * @throws ApiError
 */
export async function listEvents(f: EventFilters): Promise<{ rows: EventListItem[]; total: number }> {
  const { supabase } = await import('@/lib/supabase');
  let query = supabase
    .from('events')
    .select('id, slug, title, summary, category, status, is_paid, price_cents, starts_at, ends_at, is_online, city, capacity, going_count, venue_name, latitude, longitude', { count: 'exact' })
    .in('status', LISTED_STATUSES)
    .gte('ends_at', new Date().toISOString());
  if (f.city.trim()) query = query.ilike('city', f.city.trim().replace(/[%_\\]/g, (c) => `\\${c}`));
  const from = f.from ? berlinLocalToUtc(f.from) : null;
  const to = f.to ? berlinLocalToUtc(f.to) : null;
  if (from) query = query.gte('starts_at', from.toISOString());
  if (to) query = query.lt('starts_at', new Date(to.getTime() + 24 * 3600_000).toISOString());
  if (f.price) query = query.eq('is_paid', f.price === 'paid');
  if (f.category) query = query.eq('category', f.category as EventRow['category']);
  const start = (f.page - 1) * EVENTS_PAGE_SIZE;
  const result = await query
    .order('starts_at', { ascending: true })
    .order('id', { ascending: true })
    .range(start, start + EVENTS_PAGE_SIZE - 1)
    .retry(false);
  const rows = unwrap(result, 'GET') as EventListItem[];
  return { rows, total: result.count ?? rows.length };
}

/** Query options for an /events page. */
export const eventsQueryOptions = (f: EventFilters) =>
  queryOptions({ queryKey: ['events', 'list', toEventSearch({ ...f, view: 'list' }).toString()], queryFn: () => listEvents(f), placeholderData: keepPreviousData });

/** Hook for an /events page. */
export function useEvents(f: EventFilters) {
  return useQuery(eventsQueryOptions(f));
}

/**
 * Reads one event by slug (RLS: drafts only for the organiser, hidden for blocked users).
 * @returns the event or null when not found / not visible
 */
export async function getEvent(slug: string): Promise<EventRow | null> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.from('events').select(EVENT_COLUMNS).eq('slug', slug).maybeSingle().retry(false);
  return (await withJoinLink(unwrap(result, 'GET'))) as EventRow | null;
}

/**
 * Adds the join link of an online event: public.event_join_link gives it for free events to
 * everyone who sees the event, for paid events only to the organiser, admins and attendees with
 * a seat (issue 12); the events table does not expose the column.
 * @throws ApiError
 */
async function withJoinLink<T extends { id: number; is_online: boolean }>(ev: T | null): Promise<(T & { online_url: string | null }) | null> {
  if (!ev) return null;
  if (!ev.is_online) return { ...ev, online_url: null };
  const { supabase } = await import('@/lib/supabase');
  const link = unwrap(await supabase.rpc('event_join_link', { p_event_id: ev.id }).retry(false), 'POST');
  return { ...ev, online_url: link ?? null };
}

/** Query options for one event. */
export const eventQueryOptions = (slug: string) => queryOptions({ queryKey: ['events', 'detail', slug], queryFn: () => getEvent(slug) });

/** Hook for one event. */
export function useEvent(slug: string) {
  return useQuery(eventQueryOptions(slug));
}

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

const TICKET_COLUMNS = 'id, ticket_number, status, amount_cents, currency, paid_at, refunded_at';

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

/** Allowed status transitions (table event_status_transitions, the rule the trigger enforces). */
export async function getTransitions(): Promise<{ from_status: EventStatus; to_status: EventStatus }[]> {
  const { supabase } = await import('@/lib/supabase');
  return unwrap(await supabase.from('event_status_transitions').select('from_status, to_status').retry(false), 'GET') ?? [];
}

/** Hook for the transition table (static; cached for the session). */
export function useTransitions() {
  return useQuery({ queryKey: ['events', 'transitions'], queryFn: getTransitions, staleTime: Infinity });
}

/**
 * Changes an event's status (organiser). The trigger refuses transitions outside the table.
 * @throws ApiError (P0001 invalid_event_transition)
 */
export async function changeEventStatus(eventId: number, status: EventStatus): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  unwrap(await supabase.from('events').update({ status }).eq('id', eventId).select('id').single(), 'PATCH');
  // a cancelled paid event refunds every ticket (database queue); start the refunds now
  if (status === 'cancelled') await nudgeRefunds();
}

/** Mutation hook for status changes. */
export function useChangeEventStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, status }: { eventId: number; status: EventStatus }) => changeEventStatus(eventId, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });
}

/** The caller's own events (all statuses) and RSVPs for /user/events. */
export async function getMyEvents(userId: string) {
  const { supabase } = await import('@/lib/supabase');
  const organised = unwrap(
    await supabase
      .from('events')
      .select('id, slug, title, status, starts_at, ends_at, capacity, going_count, waitlist_count')
      .eq('organizer_id', userId)
      .order('starts_at', { ascending: false })
      .limit(100)
      .retry(false),
    'GET',
  );
  const rsvps = unwrap(
    await supabase
      .from('event_attendees')
      .select('status, event:events(id, slug, title, status, starts_at, ends_at)')
      .eq('user_id', userId)
      .neq('status', 'cancelled')
      .order('created_at', { ascending: false })
      .limit(100)
      .retry(false),
    'GET',
  );
  const tickets = unwrap(
    await supabase
      .from('event_tickets')
      .select(`${TICKET_COLUMNS}, event:events(id, slug, title, status, starts_at, ends_at)`)
      .eq('user_id', userId)
      .in('status', ['paid', 'refund_pending', 'refunded'])
      .order('created_at', { ascending: false })
      .limit(100)
      .retry(false),
    'GET',
  );
  return { organised: organised ?? [], rsvps: (rsvps ?? []).filter((r) => r.event !== null), tickets: tickets ?? [] };
}

/** Hook for /user/events. */
export function useMyEvents(userId: string | null) {
  return useQuery({ queryKey: ['events', 'mine', userId], queryFn: () => getMyEvents(userId!), enabled: userId !== null });
}

/** Form values of /user/events/create-event; messages are message ids. Mirrors the table's checks. */
export const createEventSchema = z
  .object({
    title: z.string().trim().min(3, 'events.form.error.title').max(140, 'events.form.error.title'),
    summary: z.string().max(500, 'events.form.error.summary'),
    description: z.string().max(20000, 'events.form.error.description'),
    category: z.enum(CATEGORIES),
    startsAt: z.string().refine((v) => berlinLocalToUtc(v) !== null, 'events.form.error.startsAt'),
    endsAt: z.string().refine((v) => berlinLocalToUtc(v) !== null, 'events.form.error.endsAt'),
    isOnline: z.boolean(),
    onlineUrl: z.string().trim().max(500),
    venueName: z.string().trim().max(200, 'events.form.error.venue'),
    street: z.string().trim().max(200, 'events.form.error.street'),
    zipcode: z.string().trim().max(20, 'events.form.error.zipcode'),
    city: z.string().trim().max(100, 'events.form.error.city'),
    capacity: z.union([z.literal(''), z.number().int('events.form.error.capacity').min(1, 'events.form.error.capacity').max(100000, 'events.form.error.capacity')]),
    isPaid: z.boolean(),
    price: z.union([z.literal(''), z.number().min(0.5, 'events.form.error.price').max(10000, 'events.form.error.price')]),
    /** Organisation the event is published under ('' = the organiser themself, issue 15). */
    organizationId: z.string().default(''),
  })
  .superRefine((v, ctx) => {
    const start = berlinLocalToUtc(v.startsAt);
    const end = berlinLocalToUtc(v.endsAt);
    if (start && end && end <= start) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'events.form.error.order' });
    if (v.isOnline && !isHttpsUrl(v.onlineUrl)) ctx.addIssue({ code: 'custom', path: ['onlineUrl'], message: 'events.form.error.onlineUrl' });
    if (!v.isOnline && !v.city) ctx.addIssue({ code: 'custom', path: ['city'], message: 'events.form.error.city' });
    if (v.isPaid && v.price === '') ctx.addIssue({ code: 'custom', path: ['price'], message: 'events.form.error.price' });
  });

/** Validated create-event form values. */
export type CreateEventValues = z.infer<typeof createEventSchema>;

/** What the edit rules need to know about the saved event (see migration 20261121017000_event_editing.sql). */
export interface EditBaseline {
  status: EventStatus;
  /** Saved start/end as Europe/Berlin `YYYY-MM-DDTHH:mm` (a value equal to these counts as unchanged). */
  startsAt: string;
  endsAt: string;
  goingCount: number;
  /** Going + waitlisted RSVPs. */
  activeRsvps: number;
  isPaid: boolean;
  priceCents: number | null;
}

/**
 * Edit-form schema: the create rules plus the database's edit rules, so most mistakes are shown
 * before saving (the database still decides): capacity ≥ going attendees, a changed start/end in
 * the future, fixed start once ongoing, no price rise with RSVPs. Messages are message ids.
 * @param base the saved event; `now` for tests
 */
export function editEventSchema(base: EditBaseline, now: () => Date = () => new Date()) {
  return createEventSchema.superRefine((v, ctx) => {
    if (v.capacity !== '' && v.capacity < base.goingCount) ctx.addIssue({ code: 'custom', path: ['capacity'], message: 'events.edit.error.capacity' });
    const startChanged = v.startsAt !== base.startsAt;
    const start = berlinLocalToUtc(v.startsAt);
    const end = berlinLocalToUtc(v.endsAt);
    if (startChanged && base.status === 'ongoing') ctx.addIssue({ code: 'custom', path: ['startsAt'], message: 'events.edit.error.started' });
    else if (startChanged && start && start <= now()) ctx.addIssue({ code: 'custom', path: ['startsAt'], message: 'events.edit.error.timePast' });
    if (v.endsAt !== base.endsAt && end && end <= now()) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'events.edit.error.timePast' });
    if (base.activeRsvps > 0 && v.isPaid && v.price !== '') {
      const cents = Math.round(v.price * 100);
      if (!base.isPaid || cents > (base.priceCents ?? 0)) ctx.addIssue({ code: 'custom', path: ['price'], message: 'events.edit.error.priceLocked' });
    }
  });
}

/** Form values of the event form (create and edit); alias of the validated shape. */
export type EventFormValues = CreateEventValues;

/**
 * The table columns written by the event form (create and edit), from validated values.
 * Times: Europe/Berlin wall clock → UTC instants; price: euros → cents (spec §1, §4).
 */
export function eventFormToColumns(v: CreateEventValues) {
  return {
    title: v.title.trim(),
    summary: v.summary.trim(),
    description: v.description.trim(),
    category: v.category,
    starts_at: berlinLocalToUtc(v.startsAt)!.toISOString(),
    ends_at: berlinLocalToUtc(v.endsAt)!.toISOString(),
    is_online: v.isOnline,
    online_url: v.isOnline ? v.onlineUrl.trim() : null,
    venue_name: v.isOnline ? null : v.venueName || null,
    street: v.isOnline ? null : v.street || null,
    zipcode: v.isOnline ? null : v.zipcode || null,
    city: v.isOnline ? v.city || null : v.city,
    capacity: v.capacity === '' ? null : v.capacity,
    is_paid: v.isPaid,
    price_cents: v.isPaid && v.price !== '' ? Math.round(v.price * 100) : null,
    organization_id: v.organizationId || null,
  };
}

/**
 * Inserts a new event as draft (the slug comes from the database trigger).
 * @returns id and slug of the new event
 * @throws ApiError (42501 RLS when the caller may not write)
 */
export async function createEvent(userId: string, v: CreateEventValues): Promise<{ id: number; slug: string }> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .from('events')
    .insert({ organizer_id: userId, slug: '', status: 'draft', ...eventFormToColumns(v) })
    .select('id, slug')
    .single();
  return unwrap(result, 'POST') as { id: number; slug: string };
}

/** Mutation hook for creating an event. */
export function useCreateEvent(userId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: CreateEventValues) => {
      if (!userId) throw new ApiError('not signed in', 401, 'POST');
      return createEvent(userId, v);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });
}

/** Error of an event update; `hint` carries the database hint (the going count for capacity_below_attendees). */
export class EventSaveError extends ApiError {
  readonly hint?: string;

  constructor(message: string, status: number, code?: string, hint?: string) {
    super(message, status, 'PATCH', code);
    this.name = 'EventSaveError';
    this.hint = hint;
  }
}

/**
 * Reads one event by id for the edit dialog (organiser or admin; RLS decides).
 * @returns the event or null when not found / not visible
 * @throws ApiError
 */
export async function getEventById(eventId: number): Promise<EventRow | null> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.from('events').select(EVENT_COLUMNS).eq('id', eventId).maybeSingle().retry(false);
  return (await withJoinLink(unwrap(result, 'GET'))) as EventRow | null;
}

/** Hook for the edit dialog: always fresh (counts decide what may change), only while open. */
export function useEventForEdit(eventId: number, enabled: boolean) {
  return useQuery({ queryKey: ['events', 'edit', eventId], queryFn: () => getEventById(eventId), enabled, staleTime: 0, gcTime: 0 });
}

/**
 * Saves the edited content of an event (organiser; slug and status stay). The database enforces
 * the rules of migration 20261121017000_event_editing.sql: finished/cancelled events are
 * read-only (P0001 event_read_only), a changed start/end lies in the future (event_time_past), an
 * ongoing event keeps its start (event_started), capacity ≥ going attendees
 * (capacity_below_attendees, hint = going count), no price rise with RSVPs (event_price_locked),
 * end after start (23514 events_time_order). Raising the capacity promotes waitlisted RSVPs; an
 * upcoming event moved more than 7 days ahead becomes published again.
 * @returns the event's slug (unchanged)
 * @throws EventSaveError (PGRST116 when the caller may not edit the event)
 */
export async function updateEvent(eventId: number, v: CreateEventValues): Promise<{ id: number; slug: string }> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.from('events').update(eventFormToColumns(v)).eq('id', eventId).select('id, slug').single();
  if (result.error) {
    throw new EventSaveError(result.error.message || 'Request failed', result.status ?? 0, result.error.code, result.error.hint || undefined);
  }
  return result.data;
}

/** Mutation hook for editing an event; refreshes lists, detail pages and RSVPs. */
export function useUpdateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, values }: { eventId: number; values: CreateEventValues }) => updateEvent(eventId, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });
}
