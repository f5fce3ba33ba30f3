/**
 * Per-client-IP fixed-window rate limiting, like GoTrue's limiters on /token, /signup, /otp
 * and /verify (budgets per 5 minutes by default, see settings.ts).
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
 * Remembers when a key was last let through; used to give unknown e-mail addresses the same
 * per-address mail interval as known ones, so /recover's answers do not reveal which
 * addresses have accounts.
 */
export class IntervalGate {
  private last = new Map<string, number>();

  /** Returns the ms to wait when `key` passed less than `intervalMs` ago, else records it and returns 0. */
  wait(key: string, intervalMs: number, now: number): number {
    const prev = this.last.get(key);
    if (prev !== undefined && now - prev < intervalMs) return intervalMs - (now - prev);
    this.last.set(key, now);
    if (this.last.size > 10_000) {
      for (const [k, t] of this.last) if (now - t >= intervalMs) this.last.delete(k);
    }
    return 0;
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
