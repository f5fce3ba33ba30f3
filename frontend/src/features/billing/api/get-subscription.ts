import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { getSessionUserId } from '@/lib/session';

/** The caller's current subscription as synced from Stripe (public.subscriptions, own rows by RLS). */
export interface CurrentSubscription {
  planId: string;
  status: string;
  billingPeriod: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
}

const STATUS_ORDER = ['active', 'trialing', 'past_due', 'incomplete', 'unpaid', 'canceled', 'incomplete_expired', 'paused'];

/**
 * Reads the signed-in user's most relevant subscription: a live one (active, trialing, past_due)
 * before ended ones, newest first.
 * @returns the subscription or null when the user never subscribed or is logged out
 * @throws ApiError when PostgREST fails
 */
export async function getCurrentSubscription(): Promise<CurrentSubscription | null> {
  const { supabase } = await import('@/lib/supabase');
  const userId = await getSessionUserId();
  if (!userId) return null;
  const result = await supabase
    .from('subscriptions')
    .select('plan_id, status, billing_period, current_period_end, cancel_at_period_end, ended_at, updated_at')
    .eq('user_id', userId)
    .order('updated_at', { ascending: false })
    .limit(20);
  const rows = unwrap(result, 'GET') ?? [];
  const rank = (status: string) => {
    const index = STATUS_ORDER.indexOf(status);
    return index === -1 ? STATUS_ORDER.length : index < 3 ? 0 : 1;
  };
  const best = [...rows].sort((a, b) => rank(a.status) - rank(b.status))[0];
  if (!best) return null;
  return {
    planId: best.plan_id,
    status: best.status,
    billingPeriod: best.billing_period,
    currentPeriodEnd: best.current_period_end,
    cancelAtPeriodEnd: best.cancel_at_period_end,
    endedAt: best.ended_at,
  };
}

/** Query options of the caller's subscription. */
export const subscriptionQueryOptions = () => queryOptions({ queryKey: ['billing', 'subscription'], queryFn: getCurrentSubscription });

/** The caller's subscription (TanStack Query). */
export const useCurrentSubscription = () => useQuery(subscriptionQueryOptions());
