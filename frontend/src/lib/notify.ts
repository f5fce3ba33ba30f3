import { TOAST_DURATION_MS } from './constants';

/** Snackbar types (spec §9). */
export type NotifyType = 'success' | 'error' | 'info' | 'warning';

const COLORS: Record<NotifyType, string> = { success: 'green', error: 'red', info: 'blue', warning: 'yellow' };

type NotificationsModule = typeof import('@mantine/notifications');

let closeLabel = 'Close';
let loading: Promise<NotificationsModule> | null = null;
let hostWanted = false;
const hostListeners = new Set<() => void>();

/** Sets the accessible name of the snackbars' close button; the shell passes the locale's `common.close`. */
export function setNotifyCloseLabel(label: string): void {
  closeLabel = label;
}

/**
 * Loads `@mantine/notifications` (its own chunk, so pages that never show a snackbar — the
 * landing page — do not download it, issue 5) and asks the shell to mount the snackbar host.
 * @returns the module; a failed load rejects and is tried again on the next call
 */
export function loadNotifications(): Promise<NotificationsModule> {
  if (!hostWanted) {
    hostWanted = true;
    for (const listener of hostListeners) listener();
  }
  loading ??= import('@mantine/notifications').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** For `useSyncExternalStore`: whether the snackbar host is needed (true after the first notify). */
export function isNotificationsHostWanted(): boolean {
  return hostWanted;
}

/** For `useSyncExternalStore`: called once when the snackbar host becomes needed. */
export function subscribeNotificationsHost(listener: () => void): () => void {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

/**
 * Shows a snackbar; the one way errors and confirmations reach the user. The first call loads the
 * snackbar module (one retry if the chunk fails to load); snackbars keep the order of the calls.
 * @param type success / error / info / warning (spec §9 colours)
 * @param message the text, already in the user's language
 * @param durationMs how long it stays, default 4000 ms (spec §9); `false` keeps it open
 */
export function notify(type: NotifyType, message: string, durationMs: number | false = TOAST_DURATION_MS): void {
  const data = {
    message,
    color: COLORS[type],
    autoClose: durationMs,
    withBorder: true,
    className: `notify-${type}`,
    closeButtonProps: { 'aria-label': closeLabel },
  };
  loadNotifications()
    .catch(() => loadNotifications())
    .then((mod) => mod.notifications.show(data))
    .catch((error: unknown) => console.error('snackbar could not be shown', message, error));
}
