import { PagePlaceholder } from '@/components/page-placeholder';

/** /password-reset (login-register layout): placeholder until the auth feature lands. */
export default function PasswordResetRoute() {
  return <PagePlaceholder titleKey="page.password-reset.title" descriptionKey="page.password-reset.description" />;
}
