import { useEffect } from 'react';
import { useLoaderData, useLocation } from 'react-router';
import { PageHead } from '@/components/page-head';
import { PRELOAD_DELAY_MS } from '@/lib/constants';
import { preloadMessages } from '@/lib/i18n';
import { localeFromPath } from '@site/locale';
import { moduleCache, type PageData } from './module-cache';
import { loadQueryLayer } from './query-layer';
import { ROUTE_BY_ID } from './routes';

/**
 * Runs `jobs` one per task: the first after `delayMs`, each next one when the browser is idle
 * again (requestIdleCallback, else a 0 ms timer). Starting a dynamic import appends a
 * modulepreload link per dependency, about 1 ms each on a fast machine; the preloads of several
 * pages in one task were one long task right after the landing page's first paint (Lighthouse
 * TBT, issue 18). Returns a function that cancels the jobs not started yet.
 */
function runAsSeparateTasks(jobs: readonly (() => void)[], delayMs: number): () => void {
  let index = 0;
  let timer = 0;
  let idle = 0;
  const step = () => {
    jobs[index++]?.();
    if (index >= jobs.length) return;
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(step, { timeout: 1000 });
    else timer = window.setTimeout(step, 0);
  };
  timer = window.setTimeout(step, delayMs);
  return () => {
    window.clearTimeout(timer);
    if (idle) window.cancelIdleCallback(idle);
  };
}

/**
 * Renders the page the navigation check admitted, with its head tags, and 1 s after mount
 * preloads the modules and data of the pages a visitor likely opens next (spec §9) and fetches the
 * full message catalogue (issue 5: the landing page renders with the shell catalogue alone). The
 * query layer around pages comes from their layout (layouts/layout-route.tsx, issue 18).
 */
export function RoutePage() {
  const data = useLoaderData() as PageData;
  const { pathname } = useLocation();
  const locale = localeFromPath(pathname);
  const route = ROUTE_BY_ID.get(data.routeId);

  useEffect(() => {
    if (!route) return;
    // a page shown with part of the catalogue (landing, PAGE_ROUTE_IDS) fetches the full one for the
    // next page, without re-rendering itself with it
    const jobs: (() => void)[] = [() => void preloadMessages(locale)];
    for (const id of route.next ?? []) {
      const next = ROUTE_BY_ID.get(id);
      if (!next) continue;
      jobs.push(() => {
        if (moduleCache.has(id)) return;
        next
          .load()
          .then((mod) => moduleCache.set(id, mod))
          .catch(() => undefined);
      });
      if (next.prefetch) {
        jobs.push(() =>
          loadQueryLayer()
            .then((layer) => next.prefetch?.(layer.queryClient, locale))
            .catch(() => undefined),
        );
      }
    }
    return runAsSeparateTasks(jobs, PRELOAD_DELAY_MS);
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
