import type { RouteDef } from '@/lib/route-def';

/** Routes of the portfolios feature (spec §2). */
export const portfoliosRoutes: RouteDef[] = [
  {
    id: 'portfolio-create',
    pattern: '/portfolio/create',
    layout: 'default',
    titleKey: 'page.portfolio-create.title',
    descriptionKey: 'page.portfolio-create.description',
    noindex: true,
    load: () => import('./portfolio-create'),
  },
  {
    id: 'user-portfolios',
    pattern: '/user/portfolios',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-portfolios.title',
    descriptionKey: 'page.user-portfolios.description',
    load: () => import('./user-portfolios'),
  },
  {
    id: 'user-create-portfolio',
    pattern: '/user/create-portfolio',
    layout: 'user',
    guards: ['auth', 'payment-required'],
    titleKey: 'page.user-create-portfolio.title',
    descriptionKey: 'page.user-create-portfolio.description',
    load: () => import('./user-create-portfolio'),
  },
  {
    id: 'user-edit-portfolio',
    pattern: '/user/edit-portfolio/:id',
    layout: 'user',
    guards: ['auth'],
    titleKey: 'page.user-edit-portfolio.title',
    descriptionKey: 'page.user-edit-portfolio.description',
    load: () => import('./user-edit-portfolio'),
  },
];
