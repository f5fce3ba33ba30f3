import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { editEventSchema, type EditBaseline, EventSaveError, eventFormToColumns } from '../api/save-event';
import { eventRowToFormValues } from '../components/event-form';
import { eventSaveProblem } from '../lib/event-save-error';

const saved = {
  title: 'Stammtisch',
  summary: '',
  description: 'Bei Kaffee',
  category: 'community' as const,
  starts_at: '2031-03-10T17:00:00.000Z', // 18:00 CET
  ends_at: '2031-07-10T17:30:00.000Z', // 19:30 CEST
  is_online: false,
  online_url: null,
  venue_name: 'Café Rot',
  street: null,
  zipcode: null,
  city: 'Leipzig',
  capacity: 10,
  is_paid: true,
  price_cents: 1250,
};
const values = eventRowToFormValues(saved);
const base: EditBaseline = { status: 'published', startsAt: values.startsAt, endsAt: values.endsAt, goingCount: 4, activeRsvps: 5, isPaid: true, priceCents: 1250 };
const now = () => new Date('2031-03-01T12:00:00Z');
const errors = (b: EditBaseline, v: typeof values, at = now) => {
  const r = editEventSchema(b, at).safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('saved event ⇄ form values', () => {
  it('shows Berlin wall-clock times and euros, and writes back the same columns', () => {
    expect(values).toMatchObject({ startsAt: '2031-03-10T18:00', endsAt: '2031-07-10T19:30', capacity: 10, price: 12.5, street: '', venueName: 'Café Rot' });
    const cols = eventFormToColumns(editEventSchema(base, now).parse(values));
    expect(cols).toMatchObject({ starts_at: saved.starts_at, ends_at: saved.ends_at, price_cents: 1250, capacity: 10, street: null, venue_name: 'Café Rot', online_url: null });
  });
});

describe('edit rules (checked again by supabase/schemas/11_events.sql)', () => {
  it('accepts the unchanged event, even when its start has passed', () => {
    expect(errors(base, values)).toEqual({});
    expect(errors({ ...base, status: 'ongoing' }, values, () => new Date('2031-03-10T18:00:00Z'))).toEqual({});
  });
  it('refuses a capacity below the going attendees, accepts exactly that many', () => {
    expect(errors(base, { ...values, capacity: 3 })).toEqual({ capacity: 'events.edit.error.capacity' });
    expect(errors(base, { ...values, capacity: 4 })).toEqual({});
  });
  it('a changed time must lie in the future; an ongoing event keeps its start', () => {
    expect(errors(base, { ...values, startsAt: '2031-02-27T18:00' })).toEqual({ startsAt: 'events.edit.error.timePast' });
    expect(errors({ ...base, status: 'ongoing' }, { ...values, startsAt: '2031-04-01T18:00' })).toEqual({ startsAt: 'events.edit.error.started' });
    expect(errors(base, { ...values, startsAt: '2031-04-01T18:00' })).toEqual({});
  });
  it('with RSVPs the price can fall but not rise; without RSVPs anything goes', () => {
    expect(errors(base, { ...values, price: 13 })).toEqual({ price: 'events.edit.error.priceLocked' });
    expect(errors(base, { ...values, price: 9.99 })).toEqual({});
    expect(errors({ ...base, isPaid: false, priceCents: null }, { ...values, price: 1 })).toEqual({ price: 'events.edit.error.priceLocked' });
    expect(errors({ ...base, activeRsvps: 0, goingCount: 0 }, { ...values, price: 99 })).toEqual({});
  });
});

describe('database refusals → messages', () => {
  it('maps the codes of the edit trigger and the checks', () => {
    expect(eventSaveProblem(new EventSaveError('capacity_below_attendees', 400, 'P0001', '7'))).toEqual({ field: 'capacity', id: 'events.edit.error.capacity', values: { count: 7 } });
    expect(eventSaveProblem(new EventSaveError('event_read_only', 400, 'P0001'))).toEqual({ field: null, id: 'events.edit.error.readOnly' });
    expect(eventSaveProblem(new EventSaveError('event_price_locked', 400, 'P0001')).field).toBe('price');
    expect(eventSaveProblem(new EventSaveError('new row for relation "events" violates check constraint "events_time_order"', 400, '23514'))).toEqual({ field: 'endsAt', id: 'events.form.error.order' });
    expect(eventSaveProblem(new ApiError('JSON object requested, multiple (or no) rows returned', 406, 'PATCH', 'PGRST116')).id).toBe('events.edit.error.notAllowed');
    expect(eventSaveProblem(new Error('network')).id).toBe('events.error.save');
  });
  it('a lapsed subscription (PT402 payment_required from the database, issue 12) gets the subscription message', () => {
    expect(eventSaveProblem(new ApiError('payment_required', 402, 'POST', 'PT402'))).toEqual({ field: null, id: 'subscriptionRequired.error' });
    expect(eventSaveProblem(new ApiError('new row violates row-level security policy', 403, 'POST', '42501')).id).toBe('events.edit.error.notAllowed');
  });
});
