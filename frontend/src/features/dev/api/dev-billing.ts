import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';
import { getSessionUser } from '@/lib/session';

/** A price row for the test dropdown (public.prices). */
export interface DevPrice {
  id: number;
  planId: string;
  billingPeriod: string;
  amountCents: number;
  stripePriceId: string | null;
}

/** Active prices ordered by plan and months (test pages only). */
export async function listDevPrices(): Promise<DevPrice[]> {
  const { data, error } = await supabase
    .from('prices')
    .select('id, plan_id, billing_period, amount_cents, stripe_price_id, months')
    .eq('active', true)
    .order('plan_id')
    .order('months');
  if (error) throw new Error(error.message);
  return (data ?? []).map((row) => ({
    id: row.id,
    planId: row.plan_id,
    billingPeriod: row.billing_period,
    amountCents: row.amount_cents,
    stripePriceId: row.stripe_price_id,
  }));
}

/**
 * Calls a billing Edge Function and returns its JSON; throws Error with the function's
 * error message (e.g. spec §8 'Failed to create checkout session',
 * 'No payment customer ID found. Please contact support.').
 */
export async function callFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
  const { data, error } = await supabase.functions.invoke<T>(name, { body });
  if (!error) return data as T;
  let message = error.message;
  if (error instanceof FunctionsHttpError) {
    try {
      const parsed = (await (error.context as Response).json()) as { error?: { message?: string } };
      message = parsed.error?.message ?? message;
    } catch {
      // keep the generic text
    }
  }
  throw new Error(message);
}

/** The signed-in user (id, e-mail) or null. */
export async function currentUser(): Promise<{ id: string; email: string } | null> {
  return getSessionUser();
}

/** The caller's subscription rows (RLS: own rows), newest first. */
export async function listOwnSubscriptions() {
  const { data, error } = await supabase
    .from('subscriptions')
    .select('stripe_subscription_id, plan_id, billing_period, status, current_period_end, cancel_at_period_end, last_synced_at')
    .order('updated_at', { ascending: false });
  if (error) throw new Error(error.message);
  return data ?? [];
}

/** Webhook ledger entries the caller may read (public.stripe_events; RLS decides, admins see all). */
export async function listStripeEvents() {
  const { data, error } = await supabase
    .from('stripe_events')
    .select('id, type, received_at, processed_at, error')
    .order('received_at', { ascending: false })
    .limit(50);
  if (error) throw new Error(error.message);
  return data ?? [];
}
