import type { RouteDef } from '@/lib/route-def';

/** Routes of the chat feature (spec §2). */
export const chatRoutes: RouteDef[] = [
  {
    id: 'user-chat',
    pattern: '/user/chat',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-chat.title',
    descriptionKey: 'page.user-chat.description',
    load: () => import('./user-chat'),
  },
];
