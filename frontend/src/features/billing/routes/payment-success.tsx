import { PagePlaceholder } from '@/components/page-placeholder';

/** /payment/success (default layout): placeholder until the billing feature lands. */
export default function PaymentSuccessRoute() {
  return <PagePlaceholder titleKey="page.payment-success.title" descriptionKey="page.payment-success.description" />;
}
