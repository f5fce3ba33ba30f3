import type { RouteDef } from '@/lib/route-def';

/**
 * Routes of the analytics feature (issue 15): /user/analytics for the signed-in user's own items,
 * /org/{slug}/analytics for an organisation's owners and admins.
 * A session is enough: Premium and better see the report, free and Basic users the upgrade path
 * (the database gates with PT402).
 */
export const analyticsRoutes: RouteDef[] = [
  {
    id: 'user-analytics',
    pattern: '/user/analytics',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-analytics.title',
    descriptionKey: 'page.user-analytics.description',
    noindex: true,
    load: () => import('./user-analytics'),
  },
  {
    id: 'org-analytics',
    pattern: '/org/:slug/analytics',
    layout: 'default',
    guards: ['auth'],
    noindex: true,
    validate: (params) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(params.slug ?? ''),
    titleKey: 'page.org-analytics.title',
    descriptionKey: 'page.org-analytics.description',
    load: () => import('./org-analytics'),
  },
];
