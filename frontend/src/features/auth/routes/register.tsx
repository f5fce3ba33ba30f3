import { PagePlaceholder } from '@/components/page-placeholder';

/** /register (default layout): placeholder until the auth feature lands. */
export default function RegisterRoute() {
  return <PagePlaceholder titleKey="page.register.title" descriptionKey="page.register.description" />;
}
