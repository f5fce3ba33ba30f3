import { PagePlaceholder } from '@/components/page-placeholder';

/** /cancel-subscription (default layout): placeholder until the billing feature lands. */
export default function CancelSubscriptionRoute() {
  return <PagePlaceholder titleKey="page.cancel-subscription.title" descriptionKey="page.cancel-subscription.description" />;
}
