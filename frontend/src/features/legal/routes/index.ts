import type { RouteDef } from '@/lib/route-def';

/** Routes of the legal feature (spec §2). */
export const legalRoutes: RouteDef[] = [
  {
    id: 'impressum',
    pattern: '/impressum',
    layout: 'default',
    titleKey: 'page.impressum.title',
    descriptionKey: 'page.impressum.description',
    sitemap: true,
    load: () => import('./impressum'),
  },
  {
    id: 'withdrawal',
    pattern: '/legal/widerufsbelehrung',
    layout: 'default',
    titleKey: 'page.withdrawal.title',
    descriptionKey: 'page.withdrawal.description',
    sitemap: true,
    load: () => import('./withdrawal'),
  },
  {
    id: 'privacy',
    pattern: '/legal/Datenschutzhinweise',
    layout: 'default',
    titleKey: 'page.privacy.title',
    descriptionKey: 'page.privacy.description',
    sitemap: true,
    load: () => import('./privacy'),
  },
  {
    id: 'terms',
    pattern: '/legal/nutzungsvereinbarung',
    layout: 'default',
    titleKey: 'page.terms.title',
    descriptionKey: 'page.terms.description',
    sitemap: true,
    load: () => import('./terms'),
  },
  {
    id: 'provider',
    pattern: '/legal/anbieterkennzeichnung',
    layout: 'default',
    titleKey: 'page.provider.title',
    descriptionKey: 'page.provider.description',
    sitemap: true,
    load: () => import('./provider'),
  },
];
