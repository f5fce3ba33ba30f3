import { type Locale } from '@site/locale';
import { formatEuro } from '@/lib/format';

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

/** Ticket price from cents, e.g. 1250 → "12,50 €". */
export function formatPriceCents(cents: number, locale: Locale): string {
  return formatEuro(cents / 100, locale);
}
