import { ApiError, isPaymentRequired } from '@/lib/api-error';

/** Where and how a refused event save is shown: a form field (or the whole form) and a message id. */
export interface EventSaveProblem {
  /** Form field the message belongs to; null = a message for the whole form. */
  field: 'title' | 'startsAt' | 'endsAt' | 'capacity' | 'price' | null;
  /** Message id (en/de). */
  id: string;
  /** Values for the message, e.g. `count` of confirmed attendees. */
  values?: Record<string, number>;
}

/**
 * Maps an error of an event insert/update to a clear message. The codes come from the database
 * rules (events table checks, private.guard_event, private.guard_event_edit in migration
 * supabase/schemas/11_events.sql); `hint` of capacity_below_attendees is the going count.
 * Unknown errors map to the generic save message.
 */
export function eventSaveProblem(error: unknown): EventSaveProblem {
  if (!(error instanceof ApiError)) return { field: null, id: 'events.error.save' };
  const hint = (error as ApiError & { hint?: string }).hint;
  switch (error.message) {
    case 'capacity_below_attendees': {
      const count = Number.parseInt(hint ?? '', 10);
      return { field: 'capacity', id: 'events.edit.error.capacity', values: { count: Number.isFinite(count) ? count : 0 } };
    }
    case 'event_read_only':
      return { field: null, id: 'events.edit.error.readOnly' };
    case 'event_time_past':
      return { field: 'startsAt', id: 'events.edit.error.timePast' };
    case 'event_started':
      return { field: 'startsAt', id: 'events.edit.error.started' };
    case 'event_price_locked':
      return { field: 'price', id: 'events.edit.error.priceLocked' };
    case 'invalid_event_transition':
      return { field: null, id: 'events.error.transition' };
    default:
      break;
  }
  if (isPaymentRequired(error)) return { field: null, id: 'subscriptionRequired.error' };
  if (error.code === '23514' && error.message.includes('events_time_order')) return { field: 'endsAt', id: 'events.form.error.order' };
  if (error.code === 'PGRST116' || error.code === '42501') return { field: null, id: 'events.edit.error.notAllowed' };
  return { field: null, id: 'events.error.save' };
}
