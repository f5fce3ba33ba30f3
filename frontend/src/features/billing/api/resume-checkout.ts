import { createIntl } from 'react-intl';
import { loadMessages } from '@/lib/i18n';
import { localeFromPath } from '@/lib/locale';
import { notify } from '@/lib/notify';
import { isBillingPeriod } from '../pricing';
import { createCheckoutSession, type CheckoutChoice } from './create-checkout-session';
import { createPortalSession } from './create-portal-session';
import { BillingFunctionError } from './invoke-function';

/** localStorage keys of a plan chosen while logged out (spec §4 "Checkout": selectedPlan, pricePlan). */
export const SELECTED_PLAN_KEY = 'selectedPlan';
export const PRICE_PLAN_KEY = 'pricePlan';

/** Remembers the plan (selectedPlan) and billing period (pricePlan) chosen while logged out. */
export function rememberPendingCheckout(choice: CheckoutChoice): void {
  try {
    localStorage.setItem(SELECTED_PLAN_KEY, choice.planId);
    localStorage.setItem(PRICE_PLAN_KEY, choice.billingPeriod);
  } catch {
    // storage disabled: the user chooses again after login
  }
}

/** The remembered choice, or null when none (or an unusable one) is stored. */
export function readPendingCheckout(): CheckoutChoice | null {
  try {
    const planId = localStorage.getItem(SELECTED_PLAN_KEY);
    const billingPeriod = localStorage.getItem(PRICE_PLAN_KEY) ?? 'monthly';
    if ((planId === 'basic' || planId === 'premium') && isBillingPeriod(billingPeriod)) return { planId, billingPeriod };
    return null;
  } catch {
    return null;
  }
}

/** Removes selectedPlan and pricePlan. */
export function clearPendingCheckout(): void {
  try {
    localStorage.removeItem(SELECTED_PLAN_KEY);
    localStorage.removeItem(PRICE_PLAN_KEY);
  } catch {
    // nothing stored
  }
}

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
