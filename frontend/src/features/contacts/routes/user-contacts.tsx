import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/contacts (user layout, guards: auth, payment-required): placeholder until the contacts feature lands. */
export default function UserContactsRoute() {
  return <PagePlaceholder titleKey="page.user-contacts.title" descriptionKey="page.user-contacts.description" />;
}
