import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, unwrap } from '@/lib/api-error';
import { isHttpsUrl } from '@site/url';
import { berlinLocalToUtc } from '../lib/berlin-time';
import { CATEGORIES } from '@/lib/categories';
import { Checks } from '@/lib/database.checks';
import type { EventStatus } from './get-events';

/*
 * Creating and editing events: the form schemas, the columns they write, and the mutations.
 */

const C = Checks.events;

/**
 * Form values of /user/events/create-event with the lengths the CHECK constraints of public.events
 * state (database.checks.ts); messages are message ids. The location and price rules are
 * checked here first and again by the table (events_location, events_price).
 */
export const createEventSchema = z
  .object({
    title: z.string().trim().min(C.title.minLength, 'events.form.error.title').max(C.title.maxLength, 'events.form.error.title'),
    summary: z.string().max(C.summary.maxLength, 'events.form.error.summary'),
    description: z.string().max(C.description.maxLength, 'events.form.error.description'),
    category: z.enum(CATEGORIES),
    startsAt: z.string().refine((v) => berlinLocalToUtc(v) !== null, 'events.form.error.startsAt'),
    endsAt: z.string().refine((v) => berlinLocalToUtc(v) !== null, 'events.form.error.endsAt'),
    isOnline: z.boolean(),
    onlineUrl: z.string().trim().max(500),
    venueName: z.string().trim().max(C.venue_name.maxLength, 'events.form.error.venue'),
    street: z.string().trim().max(C.street.maxLength, 'events.form.error.street'),
    zipcode: z.string().trim().max(C.zipcode.maxLength, 'events.form.error.zipcode'),
    city: z.string().trim().max(C.city.maxLength, 'events.form.error.city'),
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

/** What the edit rules need to know about the saved event (see supabase/schemas/11_events.sql). */
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
 * Saves the edited content of an event (organiser; slug and status stay). The database enforces
 * the edit rules of supabase/schemas/11_events.sql: finished/cancelled events are
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
