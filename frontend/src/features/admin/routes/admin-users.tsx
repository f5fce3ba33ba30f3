import { PagePlaceholder } from '@/components/page-placeholder';

/** /admin/users (admin layout, guards: admin): placeholder until the admin feature lands. */
export default function AdminUsersRoute() {
  return <PagePlaceholder titleKey="page.admin-users.title" descriptionKey="page.admin-users.description" />;
}
