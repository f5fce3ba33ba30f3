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

/**
 * What a visitor reads about an event's state (issue 33 §10): the workflow statuses (draft,
 * published, upcoming) are the organiser's business, so a visitor sees only what matters to
 * them, from the event's times in real time: cancelled, happening now, or over.
 * @param ev status and the ISO start and end times
 * @param now the current time (ms since the epoch)
 * @returns a message id, or null when there is nothing to say (an upcoming event)
 */
export function visitorStatusLabel(ev: { status: string; starts_at: string; ends_at: string }, now: number): string | null {
  if (ev.status === 'cancelled') return 'events.status.cancelled';
  if (ev.status === 'draft') return 'events.status.draft';
  if (Date.parse(ev.ends_at) <= now) return 'events.status.finished';
  if (Date.parse(ev.starts_at) <= now) return 'events.status.ongoing';
  return null;
}

/**
 * The label of one of my RSVPs (issue 33 §10): after the event's end a seat reads "Attended" and
 * a waitlist place or a held seat "Past event", never "Attending".
 * @param status going / waitlisted / held
 * @param endsAt ISO end time of the event
 * @param now the current time (ms since the epoch)
 */
export function rsvpLabel(status: string, endsAt: string, now: number): string {
  if (Date.parse(endsAt) <= now) return status === 'going' ? 'events.mine.attended' : 'events.mine.past';
  return status === 'going' ? 'events.mine.going' : status === 'held' ? 'events.mine.held' : 'events.mine.waitlisted';
}

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
