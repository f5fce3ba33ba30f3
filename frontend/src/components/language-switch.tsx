import { Anchor } from '@mantine/core';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from '@/lib/constants';
import { writeCookie } from '@/lib/cookies';
import { localeFromPath, switchLocalePath } from '@site/locale';

/**
 * Link to the same page in the other language; remembers the choice in the locale cookie
 * (365 days, a necessary cookie since the visitor asked for it; spec §2, §9).
 */
export function LanguageSwitch() {
  const intl = useIntl();
  const { pathname, search, hash } = useLocation();
  const target = localeFromPath(pathname) === 'de' ? 'en' : 'de';
  return (
    <Anchor
      component={Link}
      to={switchLocalePath(pathname, search, hash, target)}
      hrefLang={target}
      lang={target}
      data-testid="language-switch"
      aria-label={intl.formatMessage({ id: target === 'de' ? 'nav.language.toGerman' : 'nav.language.toEnglish' })}
      onClick={() => writeCookie(LOCALE_COOKIE, target, LOCALE_COOKIE_MAX_AGE_SECONDS)}
      fw={600}
    >
      {target === 'de' ? 'Deutsch' : 'English'}
    </Anchor>
  );
}
