import { useMutation } from '@tanstack/react-query';
import type { Locale } from '@/lib/constants';
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

/**
 * Submits a cancellation without login (cancel-contract, 202). The same answer comes for unknown
 * addresses; a confirmation e-mail follows.
 * @returns `{ received: true, requestId }`
 * @throws BillingFunctionError 400 `validation_failed`, 5xx
 */
export async function cancelContract(request: CancellationRequest): Promise<{ received: boolean; requestId: string }> {
  return invokeBillingFunction('cancel-contract', { ...request });
}

/** Mutation for the cancellation form. */
export const useCancelContract = () => useMutation({ mutationFn: cancelContract });
