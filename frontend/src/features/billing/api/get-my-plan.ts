import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { getSessionUserId } from '@/lib/session';

/** The caller's own live subscription as `my_plan` reports it. */
export interface OwnSubscription {
  plan_id: string;
  status: string;
  billing_period: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** Gross amount per billing period in cents, null when the price is unknown. */
  amount_cents: number | null;
  currency: string | null;
  /** True when this subscription pays for an organisation (its owner's Enterprise). */
  pays_organization: boolean;
}

/**
 * The caller's effective plan (rpc `my_plan`, issue 32 §2). The rule (organisation seat > own
 * subscription > free) lives only in the database (private.effective_plan); the SPA shows it.
 */
export interface MyPlan {
  plan: 'free' | 'basic' | 'premium' | 'enterprise';
  source: 'organization' | 'subscription' | 'admin' | 'none';
  organization: { id: string; name: string; slug: string } | null;
  own_subscription: OwnSubscription | null;
  /** An own subscription is still charged although an organisation seat gives the plan. */
  own_plan_redundant: boolean;
}

/**
 * Reads the signed-in user's effective plan.
 * @returns the plan, or null when logged out
 * @throws ApiError when PostgREST fails
 */
export async function getMyPlan(): Promise<MyPlan | null> {
  const { supabase } = await import('@/lib/supabase');
  if (!(await getSessionUserId())) return null;
  return unwrap(await supabase.rpc('my_plan'), 'POST') as unknown as MyPlan;
}

/** Query options of the caller's effective plan (under ['billing'], so billing changes refresh it). */
export const myPlanQueryOptions = () => queryOptions({ queryKey: ['billing', 'my-plan'], queryFn: getMyPlan });

/** The caller's effective plan (TanStack Query). */
export const useMyPlan = () => useQuery(myPlanQueryOptions());
