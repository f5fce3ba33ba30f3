import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { IntlProvider, type IntlConfig, ReactIntlErrorCode, useIntl } from 'react-intl';
import { Outlet, useLocation } from 'react-router';
import { DEFAULT_LOCALE, type Locale, localeFromPath } from '@site/locale';
import { loadedMessages, loadMessages, subscribeMessages } from '@/lib/i18n';
import { setNotifyCloseLabel } from '@/lib/notify';
import { useBrandFontOnNavigation } from './brand-font';
import { AccountSession } from './session/account-session';

/** Keeps the snackbars' close-button label in the current language. */
function NotifyLabels() {
  const intl = useIntl();
  useEffect(() => setNotifyCloseLabel(intl.formatMessage({ id: 'common.close' })), [intl]);
  return null;
}

/**
 * A message missing from the shell catalogue (a page rendered with it alone uses a key outside
 * src/i18n/shell.ts): load the full catalogue, RootShell re-renders with it. Logs like react-intl's
 * default handler (development only).
 */
const intlErrorHandler = (locale: Locale): NonNullable<IntlConfig['onError']> => (error) => {
  if (error.code === ReactIntlErrorCode.MISSING_TRANSLATION) void loadMessages(locale).catch(() => undefined);
  if (import.meta.env.DEV) console.error(error);
};

/** Locale from the URL: sets `<html lang>` and provides the messages (loaded by the navigation check). */
export function RootShell() {
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  useBrandFontOnNavigation();
  const messages = useSyncExternalStore(subscribeMessages, () => loadedMessages(locale));
  const onError = useMemo(() => intlErrorHandler(locale), [locale]);
  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messages ?? {}} onError={onError}>
      <NotifyLabels />
      <AccountSession />
      <Outlet />
    </IntlProvider>
  );
}
