import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { berlinLocalToUtc } from '../lib/berlin-time';
import { isCategory } from '@/lib/categories';
import { TICKET_COLUMNS } from './event-attendance';

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

/** Columns of public.events the detail page and the edit dialog read (with the organisation it is published under). */
export const EVENT_COLUMNS =
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
