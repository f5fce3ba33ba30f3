import { useMutation } from '@tanstack/react-query';
import { type Locale } from '@site/locale';
import { invokeBillingFunction } from './invoke-function';

/**
 * Opens a Stripe billing portal session for the signed-in user (issue 7 "Customer portal": card,
 * plan change, cancellation).
 * @param returnUrl absolute URL on this site the portal links back to (default: /user/settings)
 * @returns `{ url }` of the portal page
 * @throws BillingFunctionError 404 `no_customer` 'No payment customer ID found. Please contact
 *   support.' (spec §8), 401 `unauthorized`, 503 `stripe_unavailable`
 */
export async function createPortalSession(locale: Locale, returnUrl?: string): Promise<{ url: string }> {
  return invokeBillingFunction<{ url: string }>('create-portal-session', { locale, ...(returnUrl ? { returnUrl } : {}) });
}

/** Mutation that creates a portal session; the caller sends the browser to its url. */
export const useCreatePortalSession = () =>
  useMutation({ mutationFn: ({ locale, returnUrl }: { locale: Locale; returnUrl?: string }) => createPortalSession(locale, returnUrl) });
