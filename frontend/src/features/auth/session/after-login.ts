/**
 * Checkout chosen before login (payments issue): the billing feature's resume hook, loaded only
 * when `features/billing/api/resume-checkout.ts` exists (a glob, so this builds with or without it).
 */
const resumeModules = import.meta.glob<{ resumePendingCheckout: () => Promise<boolean> }>('/src/features/billing/api/resume-checkout.ts');

/** localStorage keys under which the prices page remembers the plan chosen before login. */
export const PENDING_PLAN_KEYS = ['selectedPlan', 'pricePlan'] as const;

/**
 * After a successful login: resumes a pending checkout when a plan was chosen before login
 * (localStorage `selectedPlan`/`pricePlan`) and the billing hook takes over (it redirects to
 * Stripe and answers true). HOOK POINT for the payments issue.
 * @returns true when the checkout took over the navigation; false → the caller goes to /user
 */
export async function resumeCheckoutAfterLogin(): Promise<boolean> {
  const pending = PENDING_PLAN_KEYS.some((key) => {
    try {
      return localStorage.getItem(key) !== null;
    } catch {
      return false;
    }
  });
  if (!pending) return false;
  const load = Object.values(resumeModules)[0];
  if (!load) return false; // TODO(payments): resume-checkout.ts not built yet
  try {
    const mod = await load();
    return await mod.resumePendingCheckout();
  } catch {
    return false;
  }
}
