import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { isNotificationsHostWanted, loadNotifications, subscribeNotificationsHost } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';

type NotificationsComponent = (typeof import('@mantine/notifications'))['Notifications'];

/**
 * Mounts the snackbar host once a snackbar has been requested; its module loads with the first
 * notify() (issue 5: not part of the landing page's JavaScript). When that load fails because the
 * browser is offline, the page stays usable and the host loads when the connection is back
 * (issue 17: a failed lazy chunk used to take the whole page down).
 */
function NotificationsHost() {
  const wanted = useSyncExternalStore(subscribeNotificationsHost, isNotificationsHostWanted, () => false);
  const [host, setHost] = useState<{ Component: NotificationsComponent } | null>(null);
  useEffect(() => {
    if (!wanted || host) return;
    let cancelled = false;
    const load = () => {
      loadNotifications().then(
        (m) => {
          if (!cancelled) setHost({ Component: m.Notifications });
        },
        () => window.addEventListener('online', load, { once: true }),
      );
    };
    load();
    return () => {
      cancelled = true;
      window.removeEventListener('online', load);
    };
  }, [wanted, host]);
  if (!host) return null;
  return <host.Component position="bottom-right" limit={4} />;
}

/** Theme: darker primary shade so white-on-primary and links meet WCAG AA contrast. */
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  defaultRadius: 'md',
});

/** Providers that do not depend on the route: theme, snackbars, query cache. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <NotificationsHost />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
