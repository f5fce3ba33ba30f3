import type { RouteDef } from '@/lib/route-def';

/** Routes of the search feature (spec §2). */
export const searchRoutes: RouteDef[] = [
  {
    id: 'search',
    pattern: '/search',
    layout: 'default',
    titleKey: 'page.search.title',
    descriptionKey: 'page.search.description',
    sitemap: true,
    load: () => import('./search'),
  },
  {
    id: 'unified-search',
    pattern: '/unified-search',
    layout: 'default',
    titleKey: 'page.unified-search.title',
    descriptionKey: 'page.unified-search.description',
    noindex: true,
    load: () => import('./unified-search'),
  },
];
