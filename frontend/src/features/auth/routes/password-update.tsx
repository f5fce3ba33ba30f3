import { PagePlaceholder } from '@/components/page-placeholder';

/** /password-update (login-register layout): placeholder until the auth feature lands. */
export default function PasswordUpdateRoute() {
  return <PagePlaceholder titleKey="page.password-update.title" descriptionKey="page.password-update.description" />;
}
