import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/projects/:id (user layout, guards: auth): placeholder until the projects feature lands. */
export default function UserProjectRoute() {
  return <PagePlaceholder titleKey="page.user-project.title" descriptionKey="page.user-project.description" />;
}
