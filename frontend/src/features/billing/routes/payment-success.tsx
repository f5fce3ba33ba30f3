import { useSearchParams } from 'react-router';
import type { PageProps } from '@/lib/route-def';
import { PaymentVerification } from '../components/payment-verification';

/** `/payment/success?session_id=…`: verification of a payment (spec §2, §4, §8 "Payment success"). */
export default function PaymentSuccessRoute({ locale }: PageProps) {
  const [search] = useSearchParams();
  return <PaymentVerification sessionId={search.get('session_id')} variant="success" locale={locale} />;
}
