import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/projects (user layout, guards: auth, payment-required): placeholder until the projects feature lands. */
export default function UserProjectsRoute() {
  return <PagePlaceholder titleKey="page.user-projects.title" descriptionKey="page.user-projects.description" />;
}
