import type { RouteDef } from '@/lib/route-def';

/** Routes of the admin feature (spec §2). */
export const adminRoutes: RouteDef[] = [
  {
    id: 'admin',
    pattern: '/admin',
    layout: 'admin',
    guards: ['admin'],
    titleKey: 'page.admin.title',
    descriptionKey: 'page.admin.description',
    noindex: true,
    load: () => import('./admin-home'),
  },
  {
    id: 'admin-users',
    pattern: '/admin/users',
    layout: 'admin',
    guards: ['admin'],
    titleKey: 'page.admin-users.title',
    descriptionKey: 'page.admin-users.description',
    noindex: true,
    load: () => import('./admin-users'),
  },
  {
    id: 'admin-messages',
    pattern: '/admin/messages',
    layout: 'admin',
    guards: ['admin'],
    titleKey: 'page.admin-messages.title',
    descriptionKey: 'page.admin-messages.description',
    noindex: true,
    load: () => import('./admin-messages'),
  },
  {
    id: 'admin-feedback',
    pattern: '/admin/feedback',
    layout: 'admin',
    guards: ['admin'],
    titleKey: 'page.admin-feedback.title',
    descriptionKey: 'page.admin-feedback.description',
    noindex: true,
    load: () => import('./admin-feedback'),
  },
  {
    id: 'admin-login',
    pattern: '/admin/login',
    layout: 'login-register',
    titleKey: 'page.admin-login.title',
    descriptionKey: 'page.admin-login.description',
    noindex: true,
    load: () => import('./admin-login'),
  },
];
