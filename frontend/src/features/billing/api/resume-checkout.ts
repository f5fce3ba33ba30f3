import { createIntl } from 'react-intl';
import { loadMessages } from '@/lib/i18n';
import { localeFromPath } from '@site/locale';
import { notify } from '@/lib/notify';
import { createCheckoutSession } from './create-checkout-session';
import { createPortalSession } from './create-portal-session';
import { BillingFunctionError } from './billing-error';
import { clearPendingCheckout, readPendingCheckout } from './pending-checkout';

export { clearPendingCheckout, PRICE_PLAN_KEY, readPendingCheckout, rememberPendingCheckout, SELECTED_PLAN_KEY } from './pending-checkout';

/**
 * Resumes a checkout chosen before login (spec §4 "Checkout"); the login flow calls it right
 * after a successful sign-in. With a remembered plan it creates the checkout session and sends
 * the browser to Stripe (`window.location.assign(url)`); a user who already pays goes to the
 * billing portal instead (409 already_subscribed). The stored values are removed in every case.
 * @returns true when the browser is being sent to Stripe (the caller must not navigate), false
 *   when nothing was pending or creation failed; on failure the snackbar 'Failed to process
 *   subscription. Please try again.' (spec §8, German under /de) is shown and the caller goes on
 *   to /user as after every login
 */
export async function resumePendingCheckout(): Promise<boolean> {
  const choice = readPendingCheckout();
  clearPendingCheckout();
  if (!choice) return false;
  const locale = localeFromPath(window.location.pathname);
  try {
    const { url } = await createCheckoutSession(choice, locale);
    window.location.assign(url);
    return true;
  } catch (error) {
    if (error instanceof BillingFunctionError && error.code === 'already_subscribed') {
      try {
        const { url } = await createPortalSession(locale);
        window.location.assign(url);
        return true;
      } catch {
        // fall through to the failure message
      }
    }
    const messages = await loadMessages(locale).catch(() => ({}));
    const intl = createIntl({ locale, messages });
    notify('error', intl.formatMessage({ id: 'billing.checkout.failed', defaultMessage: 'Failed to process subscription. Please try again.' }));
    return false;
  }
}
