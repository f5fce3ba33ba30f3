import { EVENT_TIME_ZONE } from '@/lib/format';

/** Offset of Europe/Berlin from UTC at an instant, in minutes (60 in winter, 120 in summer). */
export function berlinOffsetMinutes(instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: EVENT_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
}

/**
 * Converts a wall-clock time in Europe/Berlin (`YYYY-MM-DDTHH:mm` as from `<input type="datetime-local">`,
 * or `YYYY-MM-DD` = midnight) into the UTC instant. In the autumn overlap hour the earlier (summer
 * time) instant is chosen. Returns null for malformed input.
 */
export function berlinLocalToUtc(local: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(local);
  if (!m) return null;
  const naive = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  if (Number.isNaN(naive)) return null;
  let guess = naive - berlinOffsetMinutes(new Date(naive)) * 60000;
  guess = naive - berlinOffsetMinutes(new Date(guess)) * 60000;
  return new Date(guess);
}

/** Inverse for form defaults: UTC instant → `YYYY-MM-DDTHH:mm` wall-clock time in Europe/Berlin. */
export function utcToBerlinLocal(instant: Date): string {
  const shifted = new Date(instant.getTime() + berlinOffsetMinutes(instant) * 60000);
  return shifted.toISOString().slice(0, 16);
}
