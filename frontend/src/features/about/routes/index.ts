import type { RouteDef } from '@/lib/route-def';

/** Routes of the about feature (spec §2). */
export const aboutRoutes: RouteDef[] = [
  {
    id: 'guidelines',
    pattern: '/our-guidelines',
    layout: 'default',
    titleKey: 'page.guidelines.title',
    descriptionKey: 'page.guidelines.description',
    sitemap: true,
    load: () => import('./guidelines'),
  },
  {
    id: 'about',
    pattern: '/ueber-teamwerk',
    layout: 'default',
    titleKey: 'page.about.title',
    descriptionKey: 'page.about.description',
    sitemap: true,
    next: ['registration', 'prices'],
    load: () => import('./about'),
  },
];
