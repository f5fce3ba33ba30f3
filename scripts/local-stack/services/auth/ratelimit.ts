/**
 * Rate limiting as GoTrue does it: per-client-IP fixed windows on /token, /signup, /otp and
 * /verify (budgets per 5 minutes by default, see settings.ts), the project-wide budget of Auth
 * e-mails per hour (IntervalLimiter), and the client address / rate-limit key of a request.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { AuthSettings } from './settings.ts';

/** Counts hits per key in fixed windows; `now` is injectable for tests. */
export class WindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private windowMs: number,
    private now: () => number = Date.now,
  ) {}

  /**
   * Records a hit for `key`; returns false when the key already used `limit` hits in the
   * current window (the hit is then not counted).
   */
  hit(key: string, limit: number): boolean {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(t);
    }
    if (w.count >= limit) return false;
    w.count += 1;
    return true;
  }

  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/**
 * A project-wide budget of `events` per interval, as GoTrue's IntervalLimiter (supabase/auth
 * `internal/ratelimit/interval.go`), which a plain number such as GOTRUE_RATE_LIMIT_EMAIL_SENT=30
 * selects (`internal/conf/rate.go` Rate.Decode: "30" is 30 events per hour, interval type): the
 * count restarts when a whole interval has passed since the last restart, which is counted in
 * whole intervals from when the limiter was made (so the windows stay aligned to that moment);
 * within a window the first `events` calls pass, the rest do not.
 */
export class IntervalLimiter {
  private last: number;
  private count = 0;

  constructor(
    private readonly events: number,
    private readonly intervalMs: number,
    now: number = Date.now(),
  ) {
    this.last = now;
  }

  /** Counts one event at `now` (ms); true when it is within the budget of its window. */
  allow(now: number = Date.now()): boolean {
    const intervals = Math.floor((now - this.last) / this.intervalMs);
    if (intervals > 0) {
      this.last += intervals * this.intervalMs;
      this.count = 0;
    }
    if (this.count < this.events) {
      this.count += 1;
      return true;
    }
    return false;
  }
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The first comma-separated value of a header, trimmed (Go's strings.SplitN(v, ",", 2)[0]). */
function firstValue(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value.join(',') : (value ?? '');
  return (v.split(',')[0] ?? '').trim();
}

/** `ip` in canonical form (as Go's net.ParseIP(..).String()), or null when it is no address. */
function parseIp(ip: string): string | null {
  const v = ip.replace(/^\[|\]$/g, '');
  if (isIP(v) === 0) return null;
  return v.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1').toLowerCase();
}

/**
 * The `Sb-Forwarded-For` address when the setting is on and the header's first value is an
 * address (supabase/auth `internal/sbff/sbff.go`), else null.
 */
function sbForwardedFor(req: IncomingMessage, settings: AuthSettings): string | null {
  if (!settings.sbForwardedForEnabled) return null;
  return parseIp(firstValue(req.headers['sb-forwarded-for']));
}

/**
 * The client address as GoTrue records it (audit log, sessions): `Sb-Forwarded-For` (when
 * enabled), else the first valid `X-Forwarded-For` entry, else the socket address
 * (supabase/auth `internal/utilities/request.go` GetIPAddress).
 */
export function clientIp(req: IncomingMessage, settings: AuthSettings): string {
  const sbff = sbForwardedFor(req, settings);
  if (sbff) return sbff;
  const xff = req.headers['x-forwarded-for'];
  for (const entry of (Array.isArray(xff) ? xff.join(',') : (xff ?? '')).split(',')) {
    const ip = parseIp(entry.trim());
    if (ip) return ip;
  }
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/**
 * The key of GoTrue's per-IP rate limits: `Sb-Forwarded-For` (when enabled), else the first
 * value of the configured rate-limit header (`settings.rateLimitHeader`, GoTrue's
 * GOTRUE_RATE_LIMIT_HEADER); null when that header is unset or empty, and then no per-IP limit
 * applies, as in GoTrue (supabase/auth `internal/api/middleware.go` performRateLimiting).
 */
export function rateLimitKey(req: IncomingMessage, settings: AuthSettings): string | null {
  const sbff = sbForwardedFor(req, settings);
  if (sbff) return sbff;
  if (!settings.rateLimitHeader) return null;
  return firstValue(req.headers[settings.rateLimitHeader.toLowerCase()]) || null;
}

/** True for 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return LOOPBACK.test(ip);
}
