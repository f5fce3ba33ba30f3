import type { RouteDef } from '@/lib/route-def';

/** Routes of the newsletter feature (spec §2). */
export const newsletterRoutes: RouteDef[] = [
  {
    id: 'newsletter',
    pattern: '/newsletter',
    layout: 'default',
    titleKey: 'page.newsletter.title',
    descriptionKey: 'page.newsletter.description',
    sitemap: true,
    load: () => import('./newsletter'),
  },
  {
    id: 'newsletter-thankyou',
    pattern: '/newsletter-thankyou',
    layout: 'default',
    titleKey: 'page.newsletter-thankyou.title',
    descriptionKey: 'page.newsletter-thankyou.description',
    noindex: true,
    load: () => import('./newsletter-thankyou'),
  },
  {
    id: 'newsletter-unsubscribe',
    pattern: '/newsletter-unsubscribe',
    layout: 'default',
    titleKey: 'page.newsletter-unsubscribe.title',
    descriptionKey: 'page.newsletter-unsubscribe.description',
    noindex: true,
    load: () => import('./newsletter-unsubscribe'),
  },
];
