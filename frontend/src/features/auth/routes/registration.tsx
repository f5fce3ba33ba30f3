import { PagePlaceholder } from '@/components/page-placeholder';

/** /registration (login-register layout): placeholder until the auth feature lands. */
export default function RegistrationRoute() {
  return <PagePlaceholder titleKey="page.registration.title" descriptionKey="page.registration.description" />;
}
