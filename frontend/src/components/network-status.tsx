import { useEffect, useState, useSyncExternalStore } from 'react';
import { Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';

/**
 * Whether the browser has a network connection (`navigator.onLine`, updated by the window's
 * `online`/`offline` events). Server-side and in tests without a window: true.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('online', onChange);
      window.addEventListener('offline', onChange);
      return () => {
        window.removeEventListener('online', onChange);
        window.removeEventListener('offline', onChange);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

/** How long "You are back online" stays after the connection returned (ms). */
const BACK_ONLINE_MS = 4000;

/**
 * The connection notice under the header on every page (issue 17): while offline, that the page
 * keeps what was typed and that sending works again once the connection is back; for a few
 * seconds after it returns, that it is back. A polite live region, so screen readers hear both.
 * A tinted line of text rather than Mantine's Alert, which would add to every first page's JavaScript.
 */
export function NetworkStatus() {
  const online = useOnline();
  const [wasOffline, setWasOffline] = useState(false);
  const [showBack, setShowBack] = useState(false);
  // "back online" shows only after an offline period seen by this page, then hides itself
  if (!online && !wasOffline) setWasOffline(true);
  if (online && wasOffline) {
    setWasOffline(false);
    setShowBack(true);
  }
  useEffect(() => {
    if (!showBack) return;
    const timer = setTimeout(() => setShowBack(false), BACK_ONLINE_MS);
    return () => clearTimeout(timer);
  }, [showBack]);

  return (
    <div role="status" aria-live="polite" data-testid="network-status">
      {!online ? (
        <Text fz="sm" py={6} px="md" style={{ background: 'var(--mantine-color-yellow-light)' }} data-testid="network-offline">
          <FormattedMessage id="common.offline" />
        </Text>
      ) : showBack ? (
        <Text fz="sm" py={6} px="md" style={{ background: 'var(--mantine-color-teal-light)' }} data-testid="network-online">
          <FormattedMessage id="common.backOnline" />
        </Text>
      ) : null}
    </div>
  );
}
