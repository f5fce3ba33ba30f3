import { PagePlaceholder } from '@/components/page-placeholder';

/** /u/:slug (default layout): placeholder until the profiles feature lands. */
export default function ProfileRoute() {
  return <PagePlaceholder titleKey="page.profile.title" descriptionKey="page.profile.description" />;
}
