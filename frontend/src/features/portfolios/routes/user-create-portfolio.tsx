import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/create-portfolio (user layout, guards: auth, payment-required): placeholder until the portfolios feature lands. */
export default function UserCreatePortfolioRoute() {
  return <PagePlaceholder titleKey="page.user-create-portfolio.title" descriptionKey="page.user-create-portfolio.description" />;
}
