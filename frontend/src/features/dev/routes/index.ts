import type { RouteDef } from '@/lib/route-def';

/** Routes of the dev feature (spec §2). */
export const devRoutes: RouteDef[] = [
  {
    id: 'test-error',
    pattern: '/test/error',
    layout: 'default',
    titleKey: 'page.test-error.title',
    descriptionKey: 'page.test-error.description',
    noindex: true,
    load: () => import('./test-error'),
  },
];
