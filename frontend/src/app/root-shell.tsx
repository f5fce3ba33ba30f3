import { useEffect } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import { Outlet, useLocation } from 'react-router';
import { DEFAULT_LOCALE } from '@/lib/constants';
import { loadedMessages } from '@/lib/i18n';
import { setNotifyCloseLabel } from '@/lib/notify';
import { localeFromPath } from '@/lib/locale';
import { useSessionWatch } from './navigation/use-session-watch';
import { AccountSession } from '@/features/auth/session/account-session';

/** Keeps the snackbars' close-button label in the current language. */
function NotifyLabels() {
  const intl = useIntl();
  useEffect(() => setNotifyCloseLabel(intl.formatMessage({ id: 'common.close' })), [intl]);
  return null;
}

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
      <NotifyLabels />
      <AccountSession />
      <Outlet />
    </IntlProvider>
  );
}
