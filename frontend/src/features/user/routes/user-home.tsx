import { PagePlaceholder } from '@/components/page-placeholder';

/** /user (user layout, guards: auth, payment-required): placeholder until the user feature lands. */
export default function UserHomeRoute() {
  return <PagePlaceholder titleKey="page.user-home.title" descriptionKey="page.user-home.description" />;
}
