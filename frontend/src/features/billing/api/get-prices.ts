import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { type BillingPeriod, isBillingPeriod } from '../pricing';

/** Plan ids of public.plans. */
export type PlanId = 'basic' | 'premium' | 'enterprise';

/** One sellable price: a plan in a billing period (public.prices joined with public.plans). */
export interface PlanPrice {
  id: number;
  planId: PlanId;
  billingPeriod: BillingPeriod;
  months: number;
  /** Gross amount of the whole period in cents (VAT included). */
  amountCents: number;
  currency: string;
  /** Stripe price id (`price_…`), null until the price sync ran. */
  stripePriceId: string | null;
}

/** A plan with its prices, ordered by rank (Basic, Premium, Enterprise). */
export interface PlanWithPrices {
  id: PlanId;
  name: string;
  rank: number;
  /** Enterprise is sold through Contact Us (spec §6). */
  contactSales: boolean;
  /** Maximum own projects, null = unlimited (spec §9: Basic 3). */
  projectLimit: number | null;
  prices: Partial<Record<BillingPeriod, PlanPrice>>;
}

const isPlanId = (value: string): value is PlanId => value === 'basic' || value === 'premium' || value === 'enterprise';

/**
 * Reads the active plans and prices (public.plans, public.prices; readable by everyone).
 * @returns plans by rank with their prices per billing period
 * @throws ApiError when PostgREST fails
 */
export async function getPlans(): Promise<PlanWithPrices[]> {
  const { supabase } = await import('@/lib/supabase');
  const [plans, prices] = await Promise.all([
    supabase.from('plans').select('id, name, rank, contact_sales, project_limit').eq('active', true).order('rank'),
    supabase.from('prices').select('id, plan_id, billing_period, months, amount_cents, currency, stripe_price_id').eq('active', true),
  ]);
  const planRows = unwrap(plans, 'GET') ?? [];
  const priceRows = unwrap(prices, 'GET') ?? [];
  return planRows
    .filter((row) => isPlanId(row.id))
    .map((row) => {
      const byPeriod: Partial<Record<BillingPeriod, PlanPrice>> = {};
      for (const price of priceRows) {
        if (price.plan_id !== row.id || !isBillingPeriod(price.billing_period)) continue;
        byPeriod[price.billing_period] = {
          id: price.id,
          planId: row.id as PlanId,
          billingPeriod: price.billing_period,
          months: price.months ?? 1,
          amountCents: price.amount_cents,
          currency: price.currency,
          stripePriceId: price.stripe_price_id,
        };
      }
      return {
        id: row.id as PlanId,
        name: row.name,
        rank: row.rank,
        contactSales: row.contact_sales,
        projectLimit: row.project_limit,
        prices: byPeriod,
      };
    });
}

/** Query options of the plan list (cached 10 min: prices change rarely). */
export const plansQueryOptions = () => queryOptions({ queryKey: ['billing', 'plans'], queryFn: getPlans, staleTime: 10 * 60_000 });

/** The plans with their prices (TanStack Query). */
export const usePlans = () => useQuery(plansQueryOptions());
