/** Billing periods sold on /prices, in display order (spec §9: monthly, quarterly, 6 months, yearly). */
export const BILLING_PERIODS = ['monthly', 'quarterly', 'semiannual', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Months covered by one payment of each period. */
export const PERIOD_MONTHS: Readonly<Record<BillingPeriod, number>> = { monthly: 1, quarterly: 3, semiannual: 6, yearly: 12 };

/** True for a value of the billing_period enum (public.prices.billing_period). */
export function isBillingPeriod(value: unknown): value is BillingPeriod {
  return typeof value === 'string' && (BILLING_PERIODS as readonly string[]).includes(value);
}

/**
 * Saving of a longer period against paying monthly, in whole percent (spec §9: "savings shown as
 * percentage versus monthly").
 * @param amountCents price of the whole period in cents (VAT included)
 * @param months months the period covers (1, 3, 6, 12)
 * @param monthlyCents the same plan's monthly price in cents
 * @returns 0..100, rounded half up; 0 when the period is not cheaper or the input is unusable
 */
export function savingPercent(amountCents: number, months: number, monthlyCents: number): number {
  if (!(months > 0) || !(monthlyCents > 0) || !(amountCents >= 0)) return 0;
  const saving = 1 - amountCents / (months * monthlyCents);
  return saving > 0 ? Math.round(saving * 100) : 0;
}

/**
 * Months paid for nothing in a period (yearly: 12 × 19 € would be 228 €, 190 € = 10 months, so 2
 * months free; issue 7 "the yearly option shows '2 months free'").
 * @returns whole free months (rounded down), 0 when none
 */
export function freeMonths(amountCents: number, months: number, monthlyCents: number): number {
  if (!(monthlyCents > 0) || !(months > 0)) return 0;
  return Math.max(0, Math.floor(months - amountCents / monthlyCents + 1e-9));
}
