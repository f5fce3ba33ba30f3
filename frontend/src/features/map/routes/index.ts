import type { RouteDef } from '@/lib/route-def';

/** Routes of the map feature (issue 14). */
export const mapRoutes: RouteDef[] = [
  {
    id: 'map',
    pattern: '/map',
    layout: 'default',
    titleKey: 'page.map.title',
    descriptionKey: 'page.map.description',
    sitemap: true,
    load: () => import('./map'),
    // the markers' data is requested beside the page's module (issue 34: first markers at 4x CPU)
    data: (queryClient, url) => import('../api/map').then((m) => queryClient.prefetchQuery(m.mapQueryOptions(m.parseMapParams(url.searchParams)))),
  },
];
