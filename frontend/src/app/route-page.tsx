import { useEffect } from 'react';
import { useLoaderData, useLocation } from 'react-router';
import { PageHead } from '@/components/page-head';
import { PRELOAD_DELAY_MS } from '@/lib/constants';
import { loadMessages } from '@/lib/i18n';
import { localeFromPath } from '@/lib/locale';
import { moduleCache, type PageData } from './module-cache';
import { loadQueryLayer } from './query-layer';
import { ROUTE_BY_ID } from './routes';

/**
 * Renders the page the navigation check admitted, with its head tags, and 1 s after mount
 * preloads the modules and data of the pages a visitor likely opens next (spec §9) and the full
 * message catalogue (issue 5: the landing page renders with the shell catalogue alone). The
 * query layer around pages comes from their layout (layouts/layout-route.tsx, issue 18).
 */
export function RoutePage() {
  const data = useLoaderData() as PageData;
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const route = ROUTE_BY_ID.get(data.routeId);

  useEffect(() => {
    if (!route) return;
    const timer = window.setTimeout(() => {
      // a page shown with part of the catalogue (landing, PAGE_ROUTE_IDS) preloads the full one for the next page
      loadMessages(locale).catch(() => undefined);
      for (const id of route.next ?? []) {
        const next = ROUTE_BY_ID.get(id);
        if (next && !moduleCache.has(id)) {
          next
            .load()
            .then((mod) => moduleCache.set(id, mod))
            .catch(() => undefined);
        }
        if (next?.prefetch) {
          loadQueryLayer()
            .then((layer) => next.prefetch?.(layer.queryClient, locale))
            .catch(() => undefined);
        }
      }
    }, PRELOAD_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [route, locale]);

  const mod = route ? moduleCache.get(route.id) : undefined;
  if (!route || !mod) return null;
  const Page = mod.default;
  return (
    <>
      <PageHead route={route} locale={locale} pathname={pathname} />
      <Page params={data.params} locale={locale} />
    </>
  );
}
