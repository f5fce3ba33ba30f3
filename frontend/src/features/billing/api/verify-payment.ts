import { invokeBillingFunction } from './invoke-function';

/** Checkout verification result (spec §3) plus the synced state (supabase/functions/verify-payment). */
export interface VerifiedPayment {
  customerId: string;
  subscriptionId: string;
  priceId: string;
  customerEmail: string;
  /** ISO 8601 (UTC) start and end of the current billing period. */
  periodStart: string;
  periodEnd: string;
  /** Stripe subscription status, e.g. active. */
  status: string;
  planId: string;
  /** profiles.user_role after the sync, e.g. premium. */
  userRole: string;
}

/**
 * Verifies a finished checkout and syncs the subscription (spec §4 "Payment flow", §5).
 * @param sessionId the `cs_…` id from `?session_id=`
 * @throws BillingFunctionError 400 `missing_session_id`, 400 `payment_not_completed`
 *   'Payment not completed', 401/403/404, 503 `stripe_unavailable`/`sync_failed` (retryable)
 */
export async function verifyPayment(sessionId: string): Promise<VerifiedPayment> {
  return invokeBillingFunction<VerifiedPayment>('verify-payment', { sessionId });
}

/**
 * The profile-update step after payment: true once the database grants the paid area to the
 * caller (public.has_active_subscription, the same rule as the payment-required guard, spec §6).
 * @throws Error when the RPC fails
 */
export async function confirmSubscriptionActive(): Promise<boolean> {
  const { supabase } = await import('@/lib/supabase');
  const { data, error } = await supabase.rpc('has_active_subscription');
  if (error) throw new Error(error.message);
  return data === true;
}
