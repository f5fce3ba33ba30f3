import { PagePlaceholder } from '@/components/page-placeholder';

/** /login (login-register layout): placeholder until the auth feature lands. */
export default function LoginRoute() {
  return <PagePlaceholder titleKey="page.login.title" descriptionKey="page.login.description" />;
}
