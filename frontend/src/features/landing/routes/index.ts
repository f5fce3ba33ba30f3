import type { RouteDef } from '@/lib/route-def';

/** Routes of the landing feature (spec §2). */
export const landingRoutes: RouteDef[] = [
  {
    id: 'landing',
    pattern: '/',
    layout: 'landing',
    titleKey: 'page.landing.title',
    descriptionKey: 'page.landing.description',
    sitemap: true,
    next: ['prices', 'registration', 'remote-jobs'],
    load: () => import('./landing'),
  },
];
