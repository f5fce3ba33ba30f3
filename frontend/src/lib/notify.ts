import { notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS } from './constants';

/** Snackbar types (spec §9). */
export type NotifyType = 'success' | 'error' | 'info' | 'warning';

const COLORS: Record<NotifyType, string> = { success: 'green', error: 'red', info: 'blue', warning: 'yellow' };

let closeLabel = 'Close';

/** Sets the accessible name of the snackbars' close button; the shell passes the locale's `common.close`. */
export function setNotifyCloseLabel(label: string): void {
  closeLabel = label;
}

/**
 * Shows a snackbar; the one way errors and confirmations reach the user.
 * @param durationMs how long it stays, default 4000 ms (spec §9); `false` keeps it open
 */
export function notify(type: NotifyType, message: string, durationMs: number | false = TOAST_DURATION_MS): string {
  return notifications.show({
    message,
    color: COLORS[type],
    autoClose: durationMs,
    withBorder: true,
    className: `notify-${type}`,
    closeButtonProps: { 'aria-label': closeLabel },
  });
}
