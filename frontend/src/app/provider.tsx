import './fonts.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { Card, createTheme, localStorageColorSchemeManager, MantineProvider, type MantineColorsTuple } from '@mantine/core';
import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { isNotificationsHostWanted, loadNotifications, subscribeNotificationsHost } from '@/lib/notify';

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

/**
 * Teamwerk's brand blue, from light to dark (shade 7 on white: 6.1:1, white on shade 8: 7.6:1,
 * shade 3 on the dark background: 7.4:1; WCAG 1.4.3 AA).
 */
const brand: MantineColorsTuple = ['#eaf1ff', '#d3e0fb', '#a6bff2', '#769ceb', '#4e7ee4', '#3569e0', '#2660d4', '#1d4fb5', '#17449f', '#0f3583'];

/** Inter once loaded, before that the system font (app/fonts.css, app/brand-font.ts). */
const FONT = 'var(--tw-font-family)';

/**
 * The visual identity (issue 18): brand colour, Inter (self-hosted from @fontsource-variable, app/fonts.css,
 * SIL Open Font License), rounded cards with a soft shadow, and light and dark schemes.
 */
export const theme = createTheme({
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 8 },
  fontFamily: FONT,
  headings: { fontFamily: FONT, fontWeight: '750', sizes: { h1: { fontSize: '2.25rem', lineHeight: '1.2' } } },
  defaultRadius: 'md',
  radius: { md: '10px', lg: '16px' },
  shadows: {
    xs: '0 1px 2px rgba(15, 23, 42, 0.06)',
    sm: '0 1px 3px rgba(15, 23, 42, 0.08), 0 1px 2px rgba(15, 23, 42, 0.04)',
    md: '0 6px 16px rgba(15, 23, 42, 0.08)',
  },
  components: {
    Card: Card.extend({ defaultProps: { radius: 'lg' } }),
  },
});

/** The colour scheme follows the system until the visitor picks one (stored in localStorage). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'teamwerk-color-scheme' });

/**
 * Providers that do not depend on the route: theme and snackbars. The query cache's provider is
 * loaded with the pages that use it (app/query-layer.ts, issue 18).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <NotificationsHost />
      {children}
    </MantineProvider>
  );
}
