import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, unwrap } from '@/lib/api-error';
import { type Locale } from '@site/locale';

/** Shape of a newsletter token (newsletter_subscribers.token, a uuid). */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Newsletter form; messages are ids of en.json/de.json. */
export const newsletterSchema = z.object({
  email: z.email('newsletter.error.email').max(254, 'newsletter.error.email'),
  consent: z.literal(true, 'newsletter.error.consent'),
});
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/**
 * Double opt-in step 1: RPC `newsletter_subscribe` stores the address as pending and queues the
 * newsletter_confirm mail with a token (at most one per address a day); the answer never reveals
 * whether the address was known.
 * @throws ApiError (POST, never retried); code 22023 for an address the database rejects; 429
 *   (code PT429) past 10 sign-ups per connection an hour (issue 12 §8)
 */
export async function subscribeNewsletter(input: NewsletterInput, locale: Locale): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.rpc('newsletter_subscribe', {
    p_email: input.email.trim().toLowerCase(),
    p_lang: locale,
    p_source: '/newsletter',
  });
  unwrap(result, 'POST');
}

/**
 * Double opt-in step 2: the link in the newsletter_confirm mail opens
 * `/newsletter-thankyou?token=<uuid>`, which calls RPC `newsletter_confirm`.
 * @returns true when the token is (now) confirmed, false for an unknown or invalid token
 * @throws ApiError when the request fails
 */
export async function confirmNewsletter(token: string): Promise<boolean> {
  if (!UUID_RE.test(token)) return false;
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.rpc('newsletter_confirm', { p_token: token });
  try {
    return unwrap(result, 'POST') === true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return false;
    throw error;
  }
}

/**
 * Unsubscribe: the link in the newsletter_welcome mail (issue 33 §1) opens
 * `/newsletter-unsubscribe?token=<uuid>`, whose button calls RPC `newsletter_unsubscribe`.
 * @returns true when the token is known (the address is now unsubscribed, also when it already
 *   was), false for an unknown or malformed token
 * @throws ApiError when the request fails (POST, never retried)
 */
export async function unsubscribeNewsletter(token: string): Promise<boolean> {
  if (!UUID_RE.test(token)) return false;
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.rpc('newsletter_unsubscribe', { p_token: token });
  try {
    return unwrap(result, 'POST') === true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return false;
    throw error;
  }
}

/** Mutation hook around unsubscribeNewsletter (the token of the link). */
export function useUnsubscribeNewsletter(token: string) {
  return useMutation({ mutationFn: () => unsubscribeNewsletter(token) });
}

/** Query (runs once per token) that confirms the subscription. */
export function useConfirmNewsletter(token: string | null) {
  return useQuery({
    queryKey: ['newsletter', 'confirm', token],
    queryFn: () => confirmNewsletter(token ?? ''),
    enabled: !!token,
    staleTime: Infinity,
    retry: false,
  });
}

/** Mutation hook around subscribeNewsletter. */
export function useSubscribeNewsletter(locale: Locale) {
  return useMutation({ mutationFn: (input: NewsletterInput) => subscribeNewsletter(input, locale) });
}
