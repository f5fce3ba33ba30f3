import type { RouteDef } from '@/lib/route-def';
import { isOrganizationSlug } from '@site/slug';


/** Routes of the organisations feature (issue 15: corporate profiles with several users); the public page /org/{slug} is in profiles. */
export const organizationsRoutes: RouteDef[] = [
  {
    id: 'org-create',
    pattern: '/org/new',
    layout: 'default',
    guards: ['auth'],
    titleKey: 'page.org-create.title',
    descriptionKey: 'page.org-create.description',
    noindex: true,
    load: () => import('./org-create'),
  },
  {
    id: 'org-settings',
    pattern: '/org/:slug/settings',
    layout: 'default',
    guards: ['auth'],
    titleKey: 'page.org-settings.title',
    descriptionKey: 'page.org-settings.description',
    noindex: true,
    validate: (params) => isOrganizationSlug(params.slug),
    load: () => import('./org-settings'),
  },
  {
    id: 'invitation',
    pattern: '/invitations/:token',
    layout: 'default',
    titleKey: 'page.invitation.title',
    descriptionKey: 'page.invitation.description',
    noindex: true,
    validate: (params) => /^[A-Za-z0-9_.~-]{16,512}$/.test(params.token ?? ''),
    load: () => import('./invitation'),
  },
  {
    id: 'user-organizations',
    pattern: '/user/organizations',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-organizations.title',
    descriptionKey: 'page.user-organizations.description',
    load: () => import('./user-organizations'),
  },
];
