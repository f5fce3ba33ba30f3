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
    // every signed-in member, paying or not: password, data export, deletion (issue 32 §5, DSGVO
    // Art. 15, 17, 20); /user/settings keeps the payment guard of spec §6
    id: 'user-account',
    pattern: '/user/account',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-account.title',
    descriptionKey: 'page.user-account.description',
    noindex: true,
    load: () => import('./user-account'),
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
