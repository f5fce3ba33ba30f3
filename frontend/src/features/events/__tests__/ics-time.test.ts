import { describe, expect, it } from 'vitest';
import { berlinLocalToUtc, utcToBerlinLocal } from '../lib/berlin-time';
import { buildIcs, escapeIcsText, foldIcsLine } from '@site/ics';

describe('Europe/Berlin wall clock', () => {
  it('converts winter and summer times', () => {
    expect(berlinLocalToUtc('2026-12-01T18:00')?.toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(berlinLocalToUtc('2026-07-01T18:00')?.toISOString()).toBe('2026-07-01T16:00:00.000Z');
    expect(berlinLocalToUtc('2026-03-29T03:30')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(berlinLocalToUtc('2026-07-01')?.toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(berlinLocalToUtc('nope')).toBeNull();
  });
  it('round-trips', () => {
    expect(utcToBerlinLocal(new Date('2026-12-01T17:00:00Z'))).toBe('2026-12-01T18:00');
    expect(utcToBerlinLocal(new Date('2026-07-01T16:00:00Z'))).toBe('2026-07-01T18:00');
  });
});

describe('iCalendar export (RFC 5545)', () => {
  const event = {
    id: 7,
    slug: 'gruender-treff',
    title: 'Gründer-Treff; Berlin, Mitte',
    summary: 'Line one\nline two \\ end',
    starts_at: '2026-12-01T17:00:00+00:00',
    ends_at: '2026-12-01T19:30:00+00:00',
    status: 'published',
    is_online: false,
    online_url: null,
    venue_name: 'Haus A',
    street: 'Weg 1',
    zipcode: '10115',
    city: 'Berlin',
  };
  it('escapes text', () => {
    expect(escapeIcsText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
  });
  it('folds long lines at 75 octets without splitting characters', () => {
    const folded = foldIcsLine(`SUMMARY:${'ü'.repeat(60)}`);
    for (const line of folded.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(folded.split('\r\n').map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(`SUMMARY:${'ü'.repeat(60)}`);
  });
  it('has the required properties with CRLF line ends', () => {
    const ics = buildIcs(event, 'https://teamwerk.test/events/gruender-treff', 'teamwerk.test', new Date('2026-11-21T08:00:00Z'));
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics).not.toMatch(/[^\r]\n/);
    expect(ics).toContain('UID:event-7@teamwerk.test\r\n');
    expect(ics).toContain('DTSTAMP:20261121T080000Z\r\n');
    expect(ics).toContain('DTSTART:20261201T170000Z\r\n');
    expect(ics).toContain('DTEND:20261201T193000Z\r\n');
    expect(ics).toContain('SUMMARY:Gründer-Treff\\; Berlin\\, Mitte\r\n');
    expect(ics).toContain('LOCATION:Haus A\\, Weg 1\\, 10115 Berlin\r\n');
    expect(ics).toContain('URL:https://teamwerk.test/events/gruender-treff\r\n');
  });
});
