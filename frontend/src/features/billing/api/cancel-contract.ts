import { useMutation } from '@tanstack/react-query';
import { type Locale } from '@site/locale';
import type { PlanId } from './get-prices';
import { invokeBillingFunction } from './invoke-function';

/** The §312k BGB cancellation form ("Verträge hier kündigen"). */
export interface CancellationRequest {
  name: string;
  email: string;
  plan?: PlanId | null;
  contract?: string | null;
  reason?: string | null;
  /** 'asap' (next possible date) or a calendar day YYYY-MM-DD (Germany). */
  requestedDate: 'asap' | string;
  locale: Locale;
}

/** Answer of cancel-contract: `done` = the signed-in caller's own contract is cancelled; `email` = a confirmation link went to the account's address (the same answer for unknown addresses). */
export interface CancellationReceipt {
  received: boolean;
  requestId: string;
  confirmation: 'done' | 'email';
}

/**
 * Submits a cancellation (cancel-contract, 202). Signed in (supabase-js sends the session), the
 * caller's own contract ends at once; otherwise the account holder confirms with the mailed link
 * (issue 12 finding 2).
 * @throws BillingFunctionError 400 `validation_failed`, 429 `rate_limited`, 5xx
 */
export async function cancelContract(request: CancellationRequest): Promise<CancellationReceipt> {
  return invokeBillingFunction('cancel-contract', { ...request });
}

/** Mutation for the cancellation form. */
export const useCancelContract = () => useMutation({ mutationFn: cancelContract });

/** Answer of confirm-cancellation. */
export interface CancellationConfirmation {
  confirmed: true;
  requestId: string;
  status: 'scheduled' | 'no_subscription' | 'failed';
  /** ISO time the subscription ends, when scheduled. */
  effectiveAt: string | null;
}

/**
 * The account holder confirms an anonymous cancellation with the token from the mailed link.
 * @throws BillingFunctionError 400 `token_expired` | `token_used`, 5xx
 */
export async function confirmCancellation(token: string): Promise<CancellationConfirmation> {
  return invokeBillingFunction('confirm-cancellation', { token });
}

/** Mutation for the confirmation page. */
export const useConfirmCancellation = () => useMutation({ mutationFn: confirmCancellation });
