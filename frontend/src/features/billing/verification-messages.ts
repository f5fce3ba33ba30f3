import { BillingFunctionError } from './api/billing-error';

/** A message shown when a payment step fails: message id, its values, and whether "Try again" is offered. */
export interface Failure {
  messageId: string;
  values?: Record<string, string>;
  retry: boolean;
}

/**
 * What the user reads when a step of the payment flow fails (spec §8). `success` is
 * /payment/success ("Payment success" messages), `signup` is /signup?session_id ("Payment
 * update" messages).
 * @param stage missing = no session id (no retry), verify = verify-payment failed, update = the
 *   database does not grant the plan yet (profile update)
 * @param error the verify-payment error: 5xx / no answer → 'An error occurred during
 *   verification. Please try again later.', otherwise 'We couldn't verify your payment. …'
 *   (success page); the signup page names the error ('There was an error verifying your payment: {error}');
 *   409 `duplicate_subscription` (the account already had a subscription, this payment was
 *   refunded) has its own message and no retry on both pages
 */
export function failureFor(variant: 'success' | 'signup', stage: 'missing' | 'verify' | 'update', error?: unknown): Failure {
  if (stage === 'missing') {
    return { messageId: variant === 'success' ? 'billing.verify.missingSession' : 'billing.verify.noSessionFound', retry: false };
  }
  if (stage === 'update') return { messageId: 'billing.verify.updateFailed', retry: true };
  // issue 12 finding 7: the account already had a subscription; this payment was refunded
  if (error instanceof BillingFunctionError && error.code === 'duplicate_subscription') return { messageId: 'billing.verify.duplicateRefunded', retry: false };
  if (variant === 'signup') {
    const detail = error instanceof Error ? error.message : String(error);
    return { messageId: 'billing.verify.errorWithDetail', values: { error: detail }, retry: true };
  }
  const retryable = !(error instanceof BillingFunctionError) || error.retryable;
  return { messageId: retryable ? 'billing.verify.errorLater' : 'billing.verify.couldNotVerify', retry: true };
}
