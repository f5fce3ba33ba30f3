import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { isNotificationsHostWanted, loadNotifications, subscribeNotificationsHost } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';

// The snackbar host loads with the first notify() (issue 5: not part of the landing page's JavaScript).
const Notifications = lazy(() => loadNotifications().then((m) => ({ default: m.Notifications })));

/** Mounts the snackbar host once a snackbar has been requested. */
function NotificationsHost() {
  const wanted = useSyncExternalStore(subscribeNotificationsHost, isNotificationsHostWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="bottom-right" limit={4} />
    </Suspense>
  );
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
