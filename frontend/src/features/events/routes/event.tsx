import { PagePlaceholder } from '@/components/page-placeholder';

/** /events/:slug (default layout): placeholder until the events feature lands. */
export default function EventRoute() {
  return <PagePlaceholder titleKey="page.event.title" descriptionKey="page.event.description" />;
}
