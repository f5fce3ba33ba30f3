import type { RouteDef } from '@/lib/route-def';

/**
 * Routes of the matching feature (issue 19): /dashboard, the signed-in matching home (spec §2),
 * and /matches (all matches with filters; Premium and Enterprise, the database gates). Both need
 * a session only: free users see how many matches they would have and the upgrade path.
 */
export const matchingRoutes: RouteDef[] = [
  {
    id: 'dashboard',
    pattern: '/dashboard',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.dashboard.title',
    descriptionKey: 'page.dashboard.description',
    noindex: true,
    next: ['matches'],
    load: () => import('./dashboard'),
  },
  {
    id: 'matches',
    pattern: '/matches',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.matches.title',
    descriptionKey: 'page.matches.description',
    noindex: true,
    load: () => import('./matches'),
  },
];
