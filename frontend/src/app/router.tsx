import { createBrowserRouter, type LoaderFunctionArgs, redirect, type RouteObject } from 'react-router';
import { PAGE_ROUTE_IDS, SHELL_ROUTE_IDS } from '@/i18n/shell';
import { LOCALE_COOKIE } from '@/lib/constants';
import { readCookie } from '@/lib/cookies';
import { loadMessages } from '@/lib/i18n';
import { loadChunk } from '@/lib/load-chunk';
import { DEFAULT_LOCALE, initialLocaleRedirect, localeFromPath, localePrefix, LOCALES } from '@site/locale';
import type { LayoutName, RouteDef } from '@/lib/route-def';
import { LayoutError } from './errors/layout-error';
import { RootError } from './errors/root-error';
import { LayoutRoute } from './layouts/layout-route';
import { moduleCache, type PageData } from './module-cache';
import { checkNavigation, type NavigationDeps } from './navigation/check-navigation';
import { compilePattern } from './navigation/pattern';
import { loadQueryLayer } from './query-layer';
import { sessionDeps } from './navigation/session-deps';
import { RootShell } from './root-shell';
import { RoutePage } from './route-page';
import { ROUTES } from './routes';

let firstNavigation = true;

/**
 * Builds the loader that performs the navigation check for one router entry (spec §2).
 * @param candidates the route definitions sharing this router path; null for the catch-all
 */
export function navigationLoader(candidates: readonly RouteDef[] | null, deps: NavigationDeps = sessionDeps) {
  const shellOnly = !!candidates && candidates.every((route) => SHELL_ROUTE_IDS.has(route.id));
  const pagesOnly = !!candidates && candidates.every((route) => SHELL_ROUTE_IDS.has(route.id) || PAGE_ROUTE_IDS.has(route.id));
  return async ({ request }: LoaderFunctionArgs): Promise<PageData> => {
    const url = new URL(request.url);
    if (firstNavigation) {
      firstNavigation = false;
      const target = initialLocaleRedirect(url.pathname, readCookie(LOCALE_COOKIE), navigator.languages ?? []);
      if (target) throw redirect(`${target}${url.search}${url.hash}`);
    }
    // the landing page needs only the shell catalogue, the pages of PAGE_ROUTE_IDS the shell and the
    // page part, every other page the full one (issues 5 and 18); the page admitted renders with it
    // offline, the navigation waits for the connection instead of ending on the error page (issue 17)
    const scope = shellOnly ? 'shell' : pagesOnly ? 'pages' : 'full';
    await loadChunk(() => loadMessages(localeFromPath(url.pathname), scope, { notify: false }));
    const outcome = await checkNavigation(url, candidates, deps);
    if (outcome.kind === 'redirect') throw redirect(outcome.to);
    if (outcome.kind === 'external') {
      window.location.assign(outcome.url);
      return new Promise<PageData>(() => undefined);
    }
    // the page's first data starts beside its module (issue 34); the page's query takes it over
    const { data } = outcome.route;
    if (data && !shellOnly) {
      void loadQueryLayer()
        .then((layer) => data(layer.queryClient, url))
        .catch(() => undefined);
    }
    // pages but the landing page use TanStack Query: its layer loads with the page's module (issue 18)
    const cached = moduleCache.get(outcome.route.id);
    const [mod] = await Promise.all([cached ?? loadChunk(outcome.route.load), shellOnly ? undefined : loadChunk(loadQueryLayer)]);
    moduleCache.set(outcome.route.id, mod);
    return { routeId: outcome.route.id, params: outcome.params };
  };
}

const LAYOUTS: readonly LayoutName[] = ['landing', 'login-register', 'default', 'user', 'admin'];

/** Groups route definitions per layout and router path, for both locales. */
export function buildRouteObjects(routes: readonly RouteDef[]): RouteObject[] {
  return LAYOUTS.map((layout) => {
    const groups = new Map<string, RouteDef[]>();
    for (const route of routes.filter((r) => r.layout === layout)) {
      const { routerPath } = compilePattern(route.pattern);
      groups.set(routerPath, [...(groups.get(routerPath) ?? []), route]);
    }
    const children: RouteObject[] = [];
    for (const [routerPath, candidates] of groups) {
      for (const prefix of LOCALES.map(localePrefix)) {
        children.push({
          path: routerPath === '/' ? prefix || '/' : `${prefix}${routerPath}`,
          loader: navigationLoader(candidates),
          Component: RoutePage,
        });
      }
    }
    if (layout === 'default') {
      for (const path of [...LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => `${localePrefix(l)}/*`), '*']) children.push({ path, loader: navigationLoader(null), Component: RoutePage });
    }
    return {
      id: `layout-${layout}`,
      element: <LayoutRoute layout={layout} />,
      errorElement: <LayoutError layout={layout} />,
      children,
    };
  });
}

/** The data router of the SPA. */
export const router = createBrowserRouter([
  {
    id: 'root',
    Component: RootShell,
    errorElement: <RootError />,
    HydrateFallback: () => null,
    children: buildRouteObjects(ROUTES),
  },
]);
