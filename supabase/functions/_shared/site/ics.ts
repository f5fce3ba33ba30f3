/**
 * iCalendar export of an event (RFC 5545). Pure and dependency-free: the SPA offers it as a
 * download (the events feature's ics-download.ts) and the e-mail queue attaches it to ticket mails (issue 16).
 */
/** What the calendar export needs of an event (columns of public.events). */
export interface IcsEvent {
  id: number;
  slug: string;
  title: string;
  summary: string;
  starts_at: string;
  ends_at: string;
  status: string;
  is_online: boolean;
  online_url: string | null;
  venue_name: string | null;
  street: string | null;
  zipcode: string | null;
  city: string | null;
}

/** RFC 5545 §3.3.11 TEXT escaping: backslash, semicolon, comma, newline. */
export function escapeIcsText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** RFC 5545 §3.3.5 UTC DATE-TIME form, e.g. 20261201T170000Z. */
export function icsUtc(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 5545 §3.1: lines longer than 75 octets are folded with CRLF + space (never inside a UTF-8 sequence). */
export function foldIcsLine(line: string): string {
  const encoder = new TextEncoder();
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with one space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/**
 * Builds an iCalendar file (RFC 5545) with one VEVENT: UID, DTSTAMP, DTSTART/DTEND in UTC,
 * SUMMARY, DESCRIPTION, LOCATION (venue) and URL (event page or online link), STATUS.
 * @param pageUrl absolute URL of the event page
 * @param now DTSTAMP (defaults to the current time)
 * @returns the file text with CRLF line ends
 */
export function buildIcs(event: IcsEvent, pageUrl: string, host: string, now: Date = new Date()): string {
  const location = event.is_online
    ? event.online_url ?? ''
    : [event.venue_name, event.street, [event.zipcode, event.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Teamwerk//Events//DE',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:event-${event.id}@${host}`,
    `DTSTAMP:${icsUtc(now)}`,
    `DTSTART:${icsUtc(event.starts_at)}`,
    `DTEND:${icsUtc(event.ends_at)}`,
    `SUMMARY:${escapeIcsText(event.title)}`,
    ...(event.summary ? [`DESCRIPTION:${escapeIcsText(`${event.summary}\n\n${pageUrl}`)}`] : [`DESCRIPTION:${escapeIcsText(pageUrl)}`]),
    ...(location ? [`LOCATION:${escapeIcsText(location)}`] : []),
    `URL:${event.is_online && event.online_url ? event.online_url : pageUrl}`,
    `STATUS:${event.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
