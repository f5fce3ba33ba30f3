import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/edit-portfolio/:id (user layout, guards: auth): placeholder until the portfolios feature lands. */
export default function UserEditPortfolioRoute() {
  return <PagePlaceholder titleKey="page.user-edit-portfolio.title" descriptionKey="page.user-edit-portfolio.description" />;
}
