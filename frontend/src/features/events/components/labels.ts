import type { Locale } from '@/lib/constants';
import { formatEuro } from '@/lib/format';
import { EVENT_TIME_ZONE } from '../lib/berlin-time';

/** Message ids of the event statuses. */
export const STATUS_LABEL: Record<string, string> = {
  draft: 'events.status.draft',
  published: 'events.status.published',
  upcoming: 'events.status.upcoming',
  ongoing: 'events.status.ongoing',
  finished: 'events.status.finished',
  cancelled: 'events.status.cancelled',
};

/** Message ids of the action that moves an event into a status. */
export const TRANSITION_LABEL: Record<string, string> = {
  draft: 'events.action.draft',
  published: 'events.action.published',
  upcoming: 'events.action.upcoming',
  ongoing: 'events.action.ongoing',
  finished: 'events.action.finished',
  cancelled: 'events.action.cancelled',
};

/** Message ids of the ten categories (shared with search and jobs). */
export { CATEGORY_LABEL } from '@/lib/category-labels';

const intlLocale = (locale: Locale) => (locale === 'de' ? 'de-DE' : 'en-GB');

/** Start–end of an event in Europe/Berlin, e.g. "Tue, 1 Dec 2026, 18:00 – 20:30" (spec §1). */
export function formatEventRange(startsAt: string, endsAt: string, locale: Locale, style: 'full' | 'medium' = 'full'): string {
  const fmt = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: style, timeStyle: 'short', timeZone: EVENT_TIME_ZONE });
  return fmt.formatRange(new Date(startsAt), new Date(endsAt));
}

/** Ticket price from cents, e.g. 1250 → "12,50 €". */
export function formatPriceCents(cents: number, locale: Locale): string {
  return formatEuro(cents / 100, locale);
}
