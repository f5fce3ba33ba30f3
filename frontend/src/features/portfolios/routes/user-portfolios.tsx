import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/portfolios (user layout, guards: auth, payment-required): placeholder until the portfolios feature lands. */
export default function UserPortfoliosRoute() {
  return <PagePlaceholder titleKey="page.user-portfolios.title" descriptionKey="page.user-portfolios.description" />;
}
