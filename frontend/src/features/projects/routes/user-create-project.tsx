import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/projects/create-project-:id (user layout, guards: auth, payment-required): placeholder until the projects feature lands. */
export default function UserCreateProjectRoute() {
  return <PagePlaceholder titleKey="page.user-create-project.title" descriptionKey="page.user-create-project.description" />;
}
