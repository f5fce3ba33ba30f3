import { MantineProvider } from '@mantine/core';
import { IntlProvider } from 'react-intl';
import { useRouteError } from 'react-router';
import { DEFAULT_LOCALE, localeFromPath } from '@site/locale';
import { loadedMessages } from '@/lib/i18n';
import { ErrorView } from './error-view';

/** Last-resort error page when even the root shell fails; brings its own intl provider. */
export function RootError() {
  const error = useRouteError();
  const locale = localeFromPath(window.location.pathname);
  return (
    <MantineProvider>
      <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={loadedMessages(locale) ?? loadedMessages('en') ?? {}}>
        <main id="main">
          <ErrorView error={error} />
        </main>
      </IntlProvider>
    </MantineProvider>
  );
}
