import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/events/create-event (user layout, guards: auth, payment-required): placeholder until the events feature lands. */
export default function UserCreateEventRoute() {
  return <PagePlaceholder titleKey="page.user-create-event.title" descriptionKey="page.user-create-event.description" />;
}
