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
    // the markers' data, the map component and maplibre load beside the page's module (issue 34);
    // a failure here shows when the page itself asks again
    preload: ({ queryClient, search }) => {
      const ignore = () => undefined;
      import('../api/map').then((m) => queryClient.prefetchQuery(m.mapQueryOptions(m.parseMapParams(search)))).catch(ignore);
      import('../lib/map-lib').then((m) => m.loadMapLib()).catch(ignore);
      import('../components/map-canvas').catch(ignore);
    },
  },
];
