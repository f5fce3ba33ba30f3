import type { RouteDef } from '@/lib/route-def';

/** Routes of the contacts feature (spec §2). */
export const contactsRoutes: RouteDef[] = [
  {
    id: 'user-contacts',
    pattern: '/user/contacts',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-contacts.title',
    descriptionKey: 'page.user-contacts.description',
    load: () => import('./user-contacts'),
  },
];
