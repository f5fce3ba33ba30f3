import { PagePlaceholder } from '@/components/page-placeholder';

/** /portfolio/create (default layout): placeholder until the portfolios feature lands. */
export default function PortfolioCreateRoute() {
  return <PagePlaceholder titleKey="page.portfolio-create.title" descriptionKey="page.portfolio-create.description" />;
}
