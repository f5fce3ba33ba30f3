import { PagePlaceholder } from '@/components/page-placeholder';

/** /confirm-email (default layout): placeholder until the auth feature lands. */
export default function ConfirmEmailRoute() {
  return <PagePlaceholder titleKey="page.confirm-email.title" descriptionKey="page.confirm-email.description" />;
}
