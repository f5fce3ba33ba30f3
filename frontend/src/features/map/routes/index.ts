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
  },
];
