/**
 * pg_cron schedule evaluation: 5-field cron in UTC (pg_cron's default `cron.timezone = GMT`),
 * `$` for the last day of the month, `@hourly`-style macros, and pg_cron's interval syntax
 * '<1-59> seconds'. `@reboot` runs once when the worker starts.
 */
import { CronExpressionParser } from 'cron-parser';

export type Schedule =
  | { kind: 'cron'; expression: string }
  | { kind: 'seconds'; seconds: number }
  | { kind: 'reboot' };

/**
 * Parses a pg_cron schedule. Returns null when cron-parser (or the seconds rule) rejects it,
 * so the worker can record a failed run instead of crashing.
 */
export function parseSchedule(schedule: string): Schedule | null {
  const text = schedule.trim();
  const seconds = /^(\d{1,2})\s+seconds?$/i.exec(text);
  if (seconds) {
    const n = Number(seconds[1]);
    return n >= 1 && n <= 59 ? { kind: 'seconds', seconds: n } : null;
  }
  if (text.toLowerCase() === '@reboot') return { kind: 'reboot' };
  // pg_cron writes "last day of month" as `$`; cron-parser as `L`.
  const expression = text
    .split(/\s+/)
    .map((field, i) => (i === 2 ? field.replace(/\$/g, 'L') : field))
    .join(' ');
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' });
    return { kind: 'cron', expression };
  } catch {
    return null;
  }
}

/**
 * The next run strictly after `after` (epoch ms) for a cron or seconds schedule, in epoch ms.
 * For `seconds` schedules runs are aligned to `after + seconds`. `reboot` has no next run (null).
 */
export function nextRun(schedule: Schedule, after: number): number | null {
  switch (schedule.kind) {
    case 'seconds':
      return after + schedule.seconds * 1000;
    case 'reboot':
      return null;
    case 'cron': {
      const it = CronExpressionParser.parse(schedule.expression, { tz: 'UTC', currentDate: new Date(after) });
      return it.next().getTime();
    }
  }
}
