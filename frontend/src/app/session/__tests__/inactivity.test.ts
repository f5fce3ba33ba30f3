import { describe, expect, it } from 'vitest';
import { type Clock, debounce, InactivityTimer, INACTIVITY_TIMEOUT_MS, RESET_THROTTLE_MS, type SharedActivity } from '../inactivity';

/** A manual clock: `advance(ms)` runs due timers in order. */
function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { clock, advance };
}

describe('InactivityTimer (spec §4: 30 min, reset at most every 3 s)', () => {
  it('fires once after 30 minutes without activity', () => {
    const { clock, advance } = fakeClock();
    let fired = 0;
    const timer = new InactivityTimer(() => fired++, clock);
    timer.start();
    advance(INACTIVITY_TIMEOUT_MS - 1);
    expect(fired).toBe(0);
    advance(1);
    expect(fired).toBe(1);
    expect(timer.running).toBe(false);
    advance(INACTIVITY_TIMEOUT_MS * 2);
    expect(fired).toBe(1);
  });

  it('activity restarts the countdown, but not twice within 3 s', () => {
    const { clock, advance } = fakeClock();
    let fired = 0;
    const timer = new InactivityTimer(() => fired++, clock);
    timer.start(); // t = 0
    advance(2000);
    timer.activity(); // 2 s after the last reset: ignored
    advance(INACTIVITY_TIMEOUT_MS - 2000);
    expect(fired).toBe(1);

    timer.start(); // t0
    advance(10_000);
    timer.activity(); // restart at t0 + 10 s
    advance(INACTIVITY_TIMEOUT_MS - 1);
    expect(fired).toBe(1);
    advance(1);
    expect(fired).toBe(2);
  });

  it('stop cancels; activity without a running timer does nothing', () => {
    const { clock, advance } = fakeClock();
    let fired = 0;
    const timer = new InactivityTimer(() => fired++, clock);
    timer.start();
    timer.stop();
    timer.activity();
    advance(INACTIVITY_TIMEOUT_MS * 2);
    expect(fired).toBe(0);
  });
});

describe('InactivityTimer shared between tabs (issue 33 §15)', () => {
  it('a countdown that ends while another tab was active continues until 30 minutes after that activity', () => {
    const { clock, advance } = fakeClock();
    let last = 0;
    const shared: SharedActivity = { read: () => last, write: (ms) => void (last = ms) };
    let firedA = 0;
    let firedB = 0;
    const a = new InactivityTimer(() => firedA++, clock, INACTIVITY_TIMEOUT_MS, RESET_THROTTLE_MS, shared);
    const b = new InactivityTimer(() => firedB++, clock, INACTIVITY_TIMEOUT_MS, RESET_THROTTLE_MS, shared);
    a.start();
    b.start();
    advance(20 * 60_000);
    b.activity(); // the person works in tab B
    advance(INACTIVITY_TIMEOUT_MS - 20 * 60_000 + 1);
    expect([firedA, firedB]).toEqual([0, 0]); // tab A's own countdown ended, but B was active 10 minutes ago
    advance(20 * 60_000 - 2);
    expect([firedA, firedB]).toEqual([0, 0]);
    advance(1);
    expect([firedA, firedB]).toEqual([1, 1]); // 30 minutes after the last activity anywhere
  });
});

describe('debounce (mouse presses, 300 ms)', () => {
  it('runs once, 300 ms after the last call', () => {
    const { clock, advance } = fakeClock();
    let calls = 0;
    const fn = debounce(() => calls++, 300, clock);
    fn();
    advance(200);
    fn();
    advance(299);
    expect(calls).toBe(0);
    advance(1);
    expect(calls).toBe(1);
  });
});
