import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Locale } from '@/lib/constants';

/** Newsletter form; messages are ids of en.json/de.json. */
export const newsletterSchema = z.object({
  email: z.email('newsletter.error.email').max(254, 'newsletter.error.email'),
  consent: z.literal(true, 'newsletter.error.consent'),
});
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/**
 * Starts the double opt-in: inserts a pending row into `newsletter_subscribers`; the database
 * queues the confirmation mail (newsletter_confirm). An address that is already subscribed
 * (409 unique violation) counts as success, so the form does not reveal who is subscribed.
 * @throws ApiError for any other failure (POST, never retried)
 */
export async function subscribeNewsletter(input: NewsletterInput, locale: Locale): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.from('newsletter_subscribers').insert({ email: input.email.trim().toLowerCase(), locale });
  try {
    unwrap(result, 'POST');
  } catch (error) {
    if (error instanceof ApiError && (error.status === 409 || error.code === '23505')) return;
    throw error;
  }
}

/** Mutation hook around subscribeNewsletter. */
export function useSubscribeNewsletter(locale: Locale) {
  return useMutation({ mutationFn: (input: NewsletterInput) => subscribeNewsletter(input, locale) });
}
