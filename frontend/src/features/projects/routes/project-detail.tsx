import { PagePlaceholder } from '@/components/page-placeholder';

/** /:id-:slug (default layout): placeholder until the projects feature lands. */
export default function ProjectDetailRoute() {
  return <PagePlaceholder titleKey="page.project-detail.title" descriptionKey="page.project-detail.description" />;
}
