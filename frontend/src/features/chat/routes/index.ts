import type { RouteDef } from '@/lib/route-def';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Routes of the chat feature (spec §2; issue 13). */
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
  {
    id: 'user-conversation',
    pattern: '/user/chat/:conversationId',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    validate: (params) => UUID.test(params.conversationId ?? ''),
    titleKey: 'page.user-conversation.title',
    descriptionKey: 'page.user-conversation.description',
    load: () => import('./user-conversation'),
  },
];
