import { type Locale } from '@site/locale';

const intlLocale = (locale: Locale): string => (locale === 'de' ? 'de-DE' : 'en-GB');

/**
 * Formats a whole-euro amount for the locale: 19 → "19 €" (de), "€19" (en) (issue 5).
 * @param euros amount in euros (not cents)
 */
export function formatEuro(euros: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: Number.isInteger(euros) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(euros);
}

/** Formats a date (Date or ISO string) as a medium date for the locale, e.g. "21. Nov. 2026". */
export function formatDate(value: Date | string, locale: Locale): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'medium' }).format(date);
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/**
 * Relative time in the page's language, e.g. "5 minutes ago" / "vor 5 Minuten" (issue 13 "last
 * seen"); under a minute reads "now" / "jetzt".
 * @param value Date or ISO string; `now` the reference (tests)
 */
export function formatRelativeTime(value: Date | string, locale: Locale, now: Date = new Date()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  let amount = (date.getTime() - now.getTime()) / 1000;
  const rtf = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' });
  if (Math.abs(amount) < 45) return rtf.format(0, 'second');
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return rtf.format(Math.round(amount), unit);
    amount /= size;
  }
  return rtf.format(Math.round(amount), 'year');
}

/** Time of day, e.g. "14:05" (de) / "14:05" (en-GB). */
export function formatTime(value: Date | string, locale: Locale): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(intlLocale(locale), { hour: '2-digit', minute: '2-digit' }).format(date);
}

/** A day heading of the chat: "Today", "Yesterday" or the full date in the page's language. */
export function formatDayHeading(value: Date | string, locale: Locale, now: Date = new Date()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const start = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((start(now) - start(date)) / 86_400_000);
  if (days === 0 || days === 1) {
    return new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(-days, 'day').replace(/^\p{Ll}/u, (c) => c.toUpperCase());
  }
  return new Intl.DateTimeFormat(intlLocale(locale), { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}

/** The zone events are planned and shown in (spec §1). */
export const EVENT_TIME_ZONE = 'Europe/Berlin';

/** Start–end of an event in Europe/Berlin, e.g. "Tue, 1 Dec 2026, 18:00 – 20:30" (spec §1). */
export function formatEventRange(startsAt: string, endsAt: string, locale: Locale, style: 'full' | 'medium' = 'full'): string {
  const fmt = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: style, timeStyle: 'short', timeZone: EVENT_TIME_ZONE });
  return fmt.formatRange(new Date(startsAt), new Date(endsAt));
}
