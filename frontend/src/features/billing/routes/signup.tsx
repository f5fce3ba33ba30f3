import { PagePlaceholder } from '@/components/page-placeholder';

/** /signup (default layout): placeholder until the billing feature lands. */
export default function SignupRoute() {
  return <PagePlaceholder titleKey="page.signup.title" descriptionKey="page.signup.description" />;
}
