import type { RouteDef } from '@/lib/route-def';

/** Slug rule of organizations.slug (lowercase a-z, 0-9, dashes; 3..60). */
const isOrgSlug = (slug: string | undefined) => /^[a-z0-9][a-z0-9-]{1,58}[a-z0-9]$/.test(slug ?? '');

/** Routes of the organisations feature (issue 15: corporate profiles with several users). */
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
    validate: (params) => isOrgSlug(params.slug),
    load: () => import('./org-settings'),
  },
  {
    id: 'org-page',
    pattern: '/org/:slug',
    layout: 'default',
    titleKey: 'page.org-page.title',
    descriptionKey: 'page.org-page.description',
    validate: (params) => isOrgSlug(params.slug),
    load: () => import('./org-page'),
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
