import type { RouteDef } from '@/lib/route-def';

/** Routes of the API access feature (issue 15): key management per organisation and the public API documentation. */
export const apiAccessRoutes: RouteDef[] = [
  {
    id: 'org-api',
    pattern: '/org/:slug/api',
    layout: 'default',
    guards: ['auth'],
    noindex: true,
    validate: (params) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(params.slug ?? ''),
    titleKey: 'page.org-api.title',
    descriptionKey: 'page.org-api.description',
    load: () => import('./org-api'),
  },
  {
    id: 'developers-api',
    pattern: '/developers/api',
    layout: 'default',
    sitemap: true,
    titleKey: 'page.developers-api.title',
    descriptionKey: 'page.developers-api.description',
    load: () => import('./developers-api'),
  },
];
