import { PagePlaceholder } from '@/components/page-placeholder';

/** /unified-search (default layout): placeholder until the search feature lands. */
export default function UnifiedSearchRoute() {
  return <PagePlaceholder titleKey="page.unified-search.title" descriptionKey="page.unified-search.description" />;
}
