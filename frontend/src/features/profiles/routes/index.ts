import type { RouteDef } from '@/lib/route-def';
import { isOrganizationSlug } from '@site/slug';

/** Routes of the profiles feature: the public pages of people (spec §2) and organisations (issue 15). */
export const profilesRoutes: RouteDef[] = [
  {
    id: 'profile',
    pattern: '/u/:slug',
    layout: 'default',
    titleKey: 'page.profile.title',
    descriptionKey: 'page.profile.description',
    load: () => import('./profile'),
  },
  {
    id: 'org-page',
    pattern: '/org/:slug',
    layout: 'default',
    titleKey: 'page.org-page.title',
    descriptionKey: 'page.org-page.description',
    validate: (params) => isOrganizationSlug(params.slug),
    load: () => import('./org-page'),
  },
];
