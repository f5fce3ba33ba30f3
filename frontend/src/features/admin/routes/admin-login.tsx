import { PagePlaceholder } from '@/components/page-placeholder';

/** /admin/login (login-register layout): placeholder until the admin feature lands. */
export default function AdminLoginRoute() {
  return <PagePlaceholder titleKey="page.admin-login.title" descriptionKey="page.admin-login.description" />;
}
