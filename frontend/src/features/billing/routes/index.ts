import type { RouteDef } from '@/lib/route-def';

/** Routes of the billing feature (spec §2). */
export const billingRoutes: RouteDef[] = [
  {
    id: 'prices',
    pattern: '/prices',
    layout: 'default',
    titleKey: 'page.prices.title',
    descriptionKey: 'page.prices.description',
    sitemap: true,
    next: ['registration', 'login', 'contact'],
    load: () => import('./prices'),
  },
  {
    id: 'signup',
    pattern: '/signup',
    layout: 'default',
    titleKey: 'page.signup.title',
    descriptionKey: 'page.signup.description',
    noindex: true,
    load: () => import('./signup'),
  },
  {
    id: 'payment-success',
    pattern: '/payment/success',
    layout: 'default',
    titleKey: 'page.payment-success.title',
    descriptionKey: 'page.payment-success.description',
    noindex: true,
    load: () => import('./payment-success'),
  },
  {
    id: 'subscription-required',
    pattern: '/subscription-required',
    layout: 'default',
    titleKey: 'page.subscription-required.title',
    descriptionKey: 'page.subscription-required.description',
    noindex: true,
    next: ['prices'],
    load: () => import('./subscription-required'),
  },
  {
    id: 'cancel-subscription',
    pattern: '/cancel-subscription',
    layout: 'default',
    titleKey: 'page.cancel-subscription.title',
    descriptionKey: 'page.cancel-subscription.description',
    load: () => import('./cancel-subscription'),
  },
];
