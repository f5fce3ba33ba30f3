import { useSearchParams } from 'react-router';
import type { PageProps } from '@/lib/route-def';
import { PaymentVerification } from '../components/payment-verification';

/** `/signup?session_id=…`: Stripe Checkout's success URL; verifies the payment and updates the profile (spec §2, §4, §8). */
export default function SignupRoute({ locale }: PageProps) {
  const [search] = useSearchParams();
  return <PaymentVerification sessionId={search.get('session_id')} variant="signup" locale={locale} />;
}
