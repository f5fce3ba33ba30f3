import { useMutation } from '@tanstack/react-query';
import { type Locale } from '@site/locale';
import type { BillingPeriod } from '../pricing';
import type { PlanId } from './get-prices';
import { BillingFunctionError, invokeBillingFunction } from './invoke-function';
import { getSessionUser } from '@/lib/session';

/** Answer of create-checkout-session: the hosted Checkout page and its session id. */
export interface CheckoutSession {
  url: string;
  sessionId: string;
}

/** What the user chose on /prices. */
export interface CheckoutChoice {
  planId: PlanId;
  billingPeriod: BillingPeriod;
}

/**
 * Starts Stripe Checkout for the signed-in user (spec §4 "Checkout", §7 create-checkout-session):
 * looks up the Stripe price id of plan × period in public.prices and the user's name, then asks
 * the function for a session.
 * @returns `{ url, sessionId }`; the caller sends the browser to `url`
 * @throws BillingFunctionError: 401 `unauthorized` (not signed in), 409 `already_subscribed`
 *   (plan changes go through the portal), 400 `invalid_price`, 5xx with the spec §8 messages
 *   ('Failed to create checkout session', 'No checkout URL returned')
 */
export async function createCheckoutSession(choice: CheckoutChoice, locale: Locale): Promise<CheckoutSession> {
  const { supabase } = await import('@/lib/supabase');
  const user = await getSessionUser();
  if (!user) throw new BillingFunctionError(401, 'unauthorized', 'You must be logged in');
  const [price, profile] = await Promise.all([
    supabase
      .from('prices')
      .select('stripe_price_id')
      .eq('plan_id', choice.planId)
      .eq('billing_period', choice.billingPeriod)
      .eq('active', true)
      .maybeSingle(),
    supabase.rpc('my_profile').select('firstname, lastname, email').maybeSingle(),
  ]);
  const priceId = price.data?.stripe_price_id;
  if (!priceId) throw new BillingFunctionError(400, 'invalid_price', 'Failed to create checkout session');
  const email = profile.data?.email || user.email || '';
  const name = [profile.data?.firstname, profile.data?.lastname].filter(Boolean).join(' ') || email;
  const answer = await invokeBillingFunction<CheckoutSession>('create-checkout-session', {
    userId: user.id,
    email,
    name,
    priceId,
    planType: choice.planId,
    locale,
  });
  if (!answer?.url) throw new BillingFunctionError(502, 'no_checkout_url', 'No checkout URL returned');
  return answer;
}

/** Mutation that creates the checkout session (the page redirects on success). */
export const useCreateCheckoutSession = () =>
  useMutation({ mutationFn: ({ choice, locale }: { choice: CheckoutChoice; locale: Locale }) => createCheckoutSession(choice, locale) });
