import type { RouteDef } from '@/lib/route-def';

/** Routes of the user feature (spec §2). */
export const userRoutes: RouteDef[] = [
  {
    id: 'user-home',
    pattern: '/user',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-home.title',
    descriptionKey: 'page.user-home.description',
    load: () => import('./user-home'),
  },
  {
    id: 'user-feedback',
    pattern: '/user/feedback',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-feedback.title',
    descriptionKey: 'page.user-feedback.description',
    load: () => import('./user-feedback'),
  },
  {
    id: 'user-settings',
    pattern: '/user/settings',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-settings.title',
    descriptionKey: 'page.user-settings.description',
    load: () => import('./user-settings'),
  },
  {
    id: 'user-favorites',
    pattern: '/user/favorites',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-favorites.title',
    descriptionKey: 'page.user-favorites.description',
    load: () => import('./user-favorites'),
  },
  {
    id: 'unsubscribe',
    pattern: '/unsubscribe',
    layout: 'default',
    titleKey: 'page.unsubscribe.title',
    descriptionKey: 'page.unsubscribe.description',
    noindex: true,
    load: () => import('./unsubscribe'),
  },
];
