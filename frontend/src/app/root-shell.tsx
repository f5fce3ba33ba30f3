import { useEffect } from 'react';
import { IntlProvider } from 'react-intl';
import { Outlet, useLocation } from 'react-router';
import { DEFAULT_LOCALE } from '@/lib/constants';
import { loadedMessages } from '@/lib/i18n';
import { localeFromPath } from '@/lib/locale';
import { useSessionWatch } from './navigation/use-session-watch';
import { AccountSession } from '@/features/auth/session/account-session';

/** Locale from the URL: sets `<html lang>` and provides the messages (loaded by the navigation check). */
export function RootShell() {
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  useSessionWatch();
  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={loadedMessages(locale) ?? {}}>
      <AccountSession />
      <Outlet />
    </IntlProvider>
  );
}
