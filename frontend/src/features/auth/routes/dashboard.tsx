import { PagePlaceholder } from '@/components/page-placeholder';

/** /dashboard (default layout): placeholder until the auth feature lands. */
export default function DashboardRoute() {
  return <PagePlaceholder titleKey="page.dashboard.title" descriptionKey="page.dashboard.description" />;
}
