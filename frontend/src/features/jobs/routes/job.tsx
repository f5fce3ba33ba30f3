import { PagePlaceholder } from '@/components/page-placeholder';

/** /jobs/:id (default layout): placeholder until the jobs feature lands. */
export default function JobRoute() {
  return <PagePlaceholder titleKey="page.job.title" descriptionKey="page.job.description" />;
}
