import { isBillingPeriod } from '../pricing';
import type { CheckoutChoice } from './create-checkout-session';

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
