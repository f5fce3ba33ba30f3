import { describe, expect, it } from 'vitest';
import { parseEventFilters, toEventSearch } from '../api/get-events';
import { createEventSchema } from '../api/save-event';

describe('/events URL filters', () => {
  it('round-trips and drops malformed values', () => {
    const f = parseEventFilters(new URLSearchParams('city=K%C3%B6ln&from=2026-12-01&to=bad&price=paid&category=art&page=3'));
    expect(f).toEqual({ city: 'Köln', from: '2026-12-01', to: '', price: 'paid', category: 'art', page: 3, view: 'list' });
    expect(toEventSearch(f).toString()).toBe('city=K%C3%B6ln&from=2026-12-01&price=paid&category=art&page=3');
    expect(toEventSearch({ ...f, view: 'map' }).toString()).toBe('city=K%C3%B6ln&from=2026-12-01&price=paid&category=art&page=3&view=map');
    expect(parseEventFilters(new URLSearchParams('price=cheap&page=0&category=nope'))).toMatchObject({ price: '', page: 1, category: '' });
  });
});

describe('create-event form rules (the table checks, checked before sending)', () => {
  const base = {
    title: 'Gründer-Abend',
    summary: '',
    description: '',
    category: 'community' as const,
    startsAt: '2031-03-10T18:00',
    endsAt: '2031-03-10T20:00',
    isOnline: false,
    onlineUrl: '',
    venueName: '',
    street: '',
    zipcode: '',
    city: 'Leipzig',
    capacity: '' as const,
    isPaid: false,
    price: '' as const,
  };
  const issues = (v: object) => createEventSchema.safeParse({ ...base, ...v }).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];
  it('accepts a valid free event', () => expect(issues({})).toEqual([]));
  it('end after start, city for venues, https for online, price for paid events', () => {
    expect(issues({ endsAt: '2031-03-10T17:00' })).toEqual(['endsAt:events.form.error.order']);
    expect(issues({ city: '' })).toEqual(['city:events.form.error.city']);
    expect(issues({ isOnline: true, onlineUrl: 'http://x.de' })).toEqual(['onlineUrl:events.form.error.onlineUrl']);
    expect(issues({ isPaid: true })).toEqual(['price:events.form.error.price']);
    expect(issues({ capacity: 0 })).toEqual(['capacity:events.form.error.capacity']);
    expect(issues({ title: 'ab' })).toEqual(['title:events.form.error.title']);
  });
});
