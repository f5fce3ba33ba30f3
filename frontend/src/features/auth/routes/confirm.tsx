import { PagePlaceholder } from '@/components/page-placeholder';

/** /confirm (default layout): placeholder until the auth feature lands. */
export default function ConfirmRoute() {
  return <PagePlaceholder titleKey="page.confirm.title" descriptionKey="page.confirm.description" />;
}
