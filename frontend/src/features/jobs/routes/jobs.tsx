import { PagePlaceholder } from '@/components/page-placeholder';

/** /jobs (default layout): placeholder until the jobs feature lands. */
export default function JobsRoute() {
  return <PagePlaceholder titleKey="page.jobs.title" descriptionKey="page.jobs.description" />;
}
