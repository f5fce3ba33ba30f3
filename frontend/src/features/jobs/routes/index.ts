import type { RouteDef } from '@/lib/route-def';

/** Routes of the jobs feature (spec §2). */
export const jobsRoutes: RouteDef[] = [
  {
    id: 'remote-jobs',
    pattern: '/working-remote-jobs',
    layout: 'default',
    titleKey: 'page.remote-jobs.title',
    descriptionKey: 'page.remote-jobs.description',
    sitemap: true,
    prefetch: (queryClient) => import('../api/get-remote-jobs').then((m) => queryClient.prefetchQuery(m.remoteJobsQueryOptions())),
    load: () => import('./remote-jobs'),
  },
  {
    id: 'jobs',
    pattern: '/jobs',
    layout: 'default',
    titleKey: 'page.jobs.title',
    descriptionKey: 'page.jobs.description',
    sitemap: true,
    load: () => import('./jobs'),
  },
  {
    id: 'user-create-job',
    pattern: '/user/jobs/create-job',
    layout: 'user',
    // issue 15: members of an organisation post jobs under it (no own subscription needed)
    guards: ['auth'],
    titleKey: 'page.user-create-job.title',
    descriptionKey: 'page.user-create-job.description',
    load: () => import('./user-create-job'),
  },
  {
    id: 'job',
    pattern: '/jobs/:id',
    layout: 'default',
    titleKey: 'page.job.title',
    descriptionKey: 'page.job.description',
    load: () => import('./job'),
  },
];
