/**
 * Billing period arithmetic in UTC, anchored like Stripe: period k of a monthly subscription ends
 * on the anchor's day of month, clamped to the month's last day (Jan 31 → Feb 28 → Mar 31).
 */

export type Interval = 'day' | 'week' | 'month' | 'year';

/**
 * `anchor` (unix seconds) moved forward by `count` intervals. Months and years keep the anchor's
 * day and time of day, clamped to the target month's length.
 */
export function addInterval(anchor: number, interval: Interval, count: number): number {
  if (interval === 'day') return anchor + count * 86400;
  if (interval === 'week') return anchor + count * 7 * 86400;
  const d = new Date(anchor * 1000);
  const months = interval === 'month' ? count : count * 12;
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

export const DAY = 86400;
