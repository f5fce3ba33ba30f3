import { useIntl } from 'react-intl';
import { PRODUCT_NAME } from '@/lib/constants';
import { type Locale, LOCALES, stripLocale, withLocale } from '@site/locale';
import type { RouteDef } from '@/lib/route-def';
import { useTitleUnreadCount, withUnreadPrefix } from '@/lib/title-prefix';

/** Public origin for canonical and hreflang links: VITE_SITE_URL, else the current origin. */
const siteOrigin = (): string => (import.meta.env.VITE_SITE_URL || window.location.origin).replace(/\/+$/, '');

/**
 * Title, description, canonical link and hreflang alternates of a page (spec §2). React 19
 * hoists these elements into `<head>`.
 */
export function PageHead({ route, locale, pathname }: { route: RouteDef; locale: Locale; pathname: string }) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: route.titleKey }, { product: PRODUCT_NAME });
  const description = intl.formatMessage({ id: route.descriptionKey }, { product: PRODUCT_NAME });
  const plain = stripLocale(pathname);
  const origin = siteOrigin();
  const fullTitle = route.id === 'landing' ? title : `${title} | ${PRODUCT_NAME}`;
  const unread = useTitleUnreadCount();
  return (
    <>
      <title>{withUnreadPrefix(fullTitle, unread)}</title>
      <meta name="description" content={description} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:locale" content={locale === 'de' ? 'de_DE' : 'en_GB'} />
      {route.noindex && <meta name="robots" content="noindex" />}
      <link rel="canonical" href={`${origin}${withLocale(plain, locale)}`} />
      {LOCALES.map((alt) => (
        <link key={alt} rel="alternate" hrefLang={alt} href={`${origin}${withLocale(plain, alt)}`} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={`${origin}${plain}`} />
    </>
  );
}
