import { PagePlaceholder } from '@/components/page-placeholder';

/** /search (default layout): placeholder until the search feature lands. */
export default function SearchRoute() {
  return <PagePlaceholder titleKey="page.search.title" descriptionKey="page.search.description" />;
}
