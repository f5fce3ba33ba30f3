import type { RouteDef } from '@/lib/route-def';

/** Routes of the profiles feature (spec §2). */
export const profilesRoutes: RouteDef[] = [
  {
    id: 'profile',
    pattern: '/u/:slug',
    layout: 'default',
    titleKey: 'page.profile.title',
    descriptionKey: 'page.profile.description',
    load: () => import('./profile'),
  },
];
