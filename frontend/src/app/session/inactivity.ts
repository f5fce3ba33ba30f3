/** Auto-logout after this long without activity (spec §4, issue 6: 30 minutes). */
export const INACTIVITY_TIMEOUT_MS = 30 * 60 * 1000;
/** The timer is reset at most this often (issue 6: every 3 s). */
export const RESET_THROTTLE_MS = 3000;
/** Mouse presses and key presses are debounced by this much before they count as activity (issue 6: 300 ms). */
export const MOUSE_DEBOUNCE_MS = 300;

/**
 * The last activity of any tab of this site (ms since the epoch), shared so that a person working
 * in one tab is not logged out by the countdown of another (issue 33 §15).
 */
export interface SharedActivity {
  read: () => number;
  write: (ms: number) => void;
}

/** localStorage key of the last activity of any tab. */
export const LAST_ACTIVITY_KEY = 'teamwerk.lastActivity';

/** SharedActivity in localStorage (nothing shared when storage is unavailable). */
export const localStorageActivity: SharedActivity = {
  read: () => {
    try {
      return Number(localStorage.getItem(LAST_ACTIVITY_KEY)) || 0;
    } catch {
      return 0;
    }
  },
  write: (ms) => {
    try {
      localStorage.setItem(LAST_ACTIVITY_KEY, String(ms));
    } catch {
      // storage unavailable: this tab's countdown only
    }
  },
};

/** Time source and timers; the browser's by default, a fake one in unit tests (Playwright's page.clock fakes the browser's). */
export interface Clock {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

/** The browser clock (window timers, Date.now), looked up on each call so a faked clock is honoured. */
export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Calls `onIdle` once after `timeoutMs` without activity (spec §4 auto-logout). `activity()`
 * restarts the countdown, but at most once per `throttleMs` (issue 6: at most every 3 s). With
 * `shared`, every restart is recorded there and a countdown that ends while another tab was
 * active more recently continues until `timeoutMs` after that activity instead.
 */
export class InactivityTimer {
  private handle: unknown = null;
  private lastReset = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly onIdle: () => void,
    private readonly clock: Clock = browserClock,
    private readonly timeoutMs: number = INACTIVITY_TIMEOUT_MS,
    private readonly throttleMs: number = RESET_THROTTLE_MS,
    private readonly shared: SharedActivity | null = null,
  ) {}

  /** True while a countdown is pending. */
  get running(): boolean {
    return this.handle !== null;
  }

  /** Starts (or restarts) the countdown: a page start counts as activity. */
  start(): void {
    this.schedule();
  }

  /** Records activity; restarts the countdown unless the last restart is less than `throttleMs` ago. */
  activity(): void {
    if (!this.running) return;
    if (this.clock.now() - this.lastReset < this.throttleMs) return;
    this.schedule();
  }

  /** Cancels the countdown (sign-out). */
  stop(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule(): void {
    this.lastReset = this.clock.now();
    this.shared?.write(this.lastReset);
    this.arm(this.timeoutMs);
  }

  private arm(ms: number): void {
    this.stop();
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      const elsewhere = (this.shared?.read() ?? 0) + this.timeoutMs - this.clock.now();
      if (elsewhere > 0) this.arm(elsewhere);
      else this.onIdle();
    }, ms);
  }
}

/** Trailing debounce: `fn` runs `ms` after the last call (mouse presses, issue 6). */
export function debounce(fn: () => void, ms: number, clock: Clock = browserClock): () => void {
  let handle: unknown = null;
  return () => {
    if (handle !== null) clock.clearTimeout(handle);
    handle = clock.setTimeout(() => {
      handle = null;
      fn();
    }, ms);
  };
}
