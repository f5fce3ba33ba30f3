import { PagePlaceholder } from '@/components/page-placeholder';

/** /admin (admin layout, guards: admin): placeholder until the admin feature lands. */
export default function AdminHomeRoute() {
  return <PagePlaceholder titleKey="page.admin.title" descriptionKey="page.admin.description" />;
}
