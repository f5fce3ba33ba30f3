import type { RouteDef } from '@/lib/route-def';

/** Routes of the events feature (spec §2). */
export const eventsRoutes: RouteDef[] = [
  {
    id: 'events',
    pattern: '/events',
    layout: 'default',
    titleKey: 'page.events.title',
    descriptionKey: 'page.events.description',
    sitemap: true,
    load: () => import('./events'),
  },
  {
    id: 'event-ticket-success',
    pattern: '/events/ticket/success',
    layout: 'default',
    titleKey: 'page.event-ticket-success.title',
    descriptionKey: 'page.event-ticket-success.description',
    noindex: true,
    load: () => import('./ticket-success'),
  },
  {
    id: 'event',
    pattern: '/events/:slug',
    layout: 'default',
    titleKey: 'page.event.title',
    descriptionKey: 'page.event.description',
    load: () => import('./event'),
  },
  {
    id: 'user-events',
    pattern: '/user/events',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-events.title',
    descriptionKey: 'page.user-events.description',
    load: () => import('./user-events'),
  },
  {
    id: 'user-create-event',
    pattern: '/user/events/create-event',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-create-event.title',
    descriptionKey: 'page.user-create-event.description',
    load: () => import('./user-create-event'),
  },
];
