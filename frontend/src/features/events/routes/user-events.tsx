import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/events (user layout, guards: auth, payment-required): placeholder until the events feature lands. */
export default function UserEventsRoute() {
  return <PagePlaceholder titleKey="page.user-events.title" descriptionKey="page.user-events.description" />;
}
