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
    // the markers' data, the map component and maplibre load beside the page's module (issue 34)
    preload: (context) => void import('../lib/preload').then((m) => m.preloadMap(context)).catch(() => undefined),
  },
];
