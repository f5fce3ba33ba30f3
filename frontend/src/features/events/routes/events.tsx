import { PagePlaceholder } from '@/components/page-placeholder';

/** /events (default layout): placeholder until the events feature lands. */
export default function EventsRoute() {
  return <PagePlaceholder titleKey="page.events.title" descriptionKey="page.events.description" />;
}
