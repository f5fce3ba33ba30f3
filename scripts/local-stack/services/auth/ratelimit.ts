/**
 * Per-client-IP fixed-window rate limiting, like GoTrue's limiters on /token, /signup, /otp
 * and /verify (budgets per 5 minutes by default, see settings.ts).
 */
import type { IncomingMessage } from 'node:http';

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

/**
 * The client IP as GoTrue sees it behind Supabase's gateway: the first `X-Forwarded-For`
 * entry when the direct peer is the (loopback) gateway, else the socket's address.
 */
export function clientIp(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? '';
  const xff = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(xff) ? xff[0] : xff)?.split(',')[0]?.trim();
  if (forwarded && LOOPBACK.test(peer)) return forwarded;
  return peer;
}

/** True for 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return LOOPBACK.test(ip);
}
