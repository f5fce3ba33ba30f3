import type { RouteDef } from '@/lib/route-def';
import { DEV_PAGES_ENABLED } from '../flag';

/** Developer-only test pages for payment, webhook, subscription table and plan dropdown (spec §2; issue 7). */
const devOnlyRoutes: RouteDef[] = [
  {
    id: 'test-payment',
    pattern: '/test/payment',
    layout: 'default',
    titleKey: 'page.test-payment.title',
    descriptionKey: 'page.test-payment.description',
    noindex: true,
    load: () => import('./test-payment'),
  },
  {
    id: 'test-webhook',
    pattern: '/test/webhook',
    layout: 'default',
    titleKey: 'page.test-webhook.title',
    descriptionKey: 'page.test-webhook.description',
    noindex: true,
    load: () => import('./test-webhook'),
  },
  {
    id: 'test-subscriptions',
    pattern: '/test/subscriptions',
    layout: 'default',
    titleKey: 'page.test-subscriptions.title',
    descriptionKey: 'page.test-subscriptions.description',
    noindex: true,
    load: () => import('./test-subscriptions'),
  },
  {
    id: 'test-dropdown',
    pattern: '/test/dropdown',
    layout: 'default',
    titleKey: 'page.test-dropdown.title',
    descriptionKey: 'page.test-dropdown.description',
    noindex: true,
    load: () => import('./test-dropdown'),
  },
];

/** Routes of the dev feature (spec §2): the error test page, plus the billing test pages in development only. */
export const devRoutes: RouteDef[] = [
  {
    id: 'test-error',
    pattern: '/test/error',
    layout: 'default',
    titleKey: 'page.test-error.title',
    descriptionKey: 'page.test-error.description',
    noindex: true,
    load: () => import('./test-error'),
  },
  ...(DEV_PAGES_ENABLED ? devOnlyRoutes : []),
];
