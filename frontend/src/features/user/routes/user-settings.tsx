import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/settings (user layout, guards: auth, payment-required): placeholder until the user feature lands. */
export default function UserSettingsRoute() {
  return <PagePlaceholder titleKey="page.user-settings.title" descriptionKey="page.user-settings.description" />;
}
