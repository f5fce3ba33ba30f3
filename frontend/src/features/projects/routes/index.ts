import type { RouteDef } from '@/lib/route-def';

/** Routes of the projects feature (spec §2). */
export const projectsRoutes: RouteDef[] = [
  {
    id: 'project-detail',
    pattern: '/:id-:slug',
    layout: 'default',
    titleKey: 'page.project-detail.title',
    descriptionKey: 'page.project-detail.description',
    // spec §2 catch-all detail page /{id}-{slug}: a numeric id and a slug, else 'Page Not Found'
    validate: (params) => /^\d+$/.test(params.id ?? '') && /^[A-Za-z0-9-]+$/.test(params.slug ?? ''),
    load: () => import('./project-detail'),
  },
  {
    id: 'user-projects',
    pattern: '/user/projects',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-projects.title',
    descriptionKey: 'page.user-projects.description',
    load: () => import('./user-projects'),
  },
  {
    id: 'user-create-project',
    pattern: '/user/projects/create-project-:id',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-create-project.title',
    descriptionKey: 'page.user-create-project.description',
    validate: (params) => /^[A-Za-z0-9-]+$/.test(params.id ?? ''),
    load: () => import('./user-create-project'),
  },
  {
    id: 'user-project',
    pattern: '/user/projects/:id',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-project.title',
    descriptionKey: 'page.user-project.description',
    validate: (params) => /^\d+$/.test(params.id ?? ''),
    load: () => import('./user-project'),
  },
];
