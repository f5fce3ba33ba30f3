import type { RouteDef } from '@/lib/route-def';

/** Routes of the contact feature (spec §2). */
export const contactRoutes: RouteDef[] = [
  {
    id: 'contact',
    pattern: '/contact',
    layout: 'default',
    titleKey: 'page.contact.title',
    descriptionKey: 'page.contact.description',
    sitemap: true,
    load: () => import('./contact'),
  },
];
