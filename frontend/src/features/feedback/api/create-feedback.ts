import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { unwrap } from '@/lib/api-error';

/** Feedback categories (CHECK constraint of public.feedback.category) with their message ids. */
export const FEEDBACK_CATEGORY_LABEL = {
  general: 'feedback.category.general',
  bug: 'feedback.category.bug',
  idea: 'feedback.category.idea',
  praise: 'feedback.category.praise',
  other: 'feedback.category.other',
} as const;

const CATEGORIES = Object.keys(FEEDBACK_CATEGORY_LABEL) as [keyof typeof FEEDBACK_CATEGORY_LABEL, ...(keyof typeof FEEDBACK_CATEGORY_LABEL)[]];

/** Form fields mirroring public.feedback (message 3–5000 chars, rating 1–5 or none); messages are ids. */
export const feedbackSchema = z.object({
  category: z.enum(CATEGORIES, 'feedback.error.category'),
  rating: z.number().int().min(0).max(5),
  message: z.string().trim().min(3, 'feedback.error.message').max(5000, 'feedback.error.message'),
});

export type FeedbackInput = z.infer<typeof feedbackSchema>;

/**
 * Stores feedback of the signed-in user in `feedback` (RLS: own user_id, status new).
 * @param pageUrl page the user came from (≤ 500 chars) or null; rating 0 = none
 * @throws ApiError (POST, not retried)
 */
export async function createFeedback(userId: string, input: FeedbackInput, pageUrl: string | null): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase.from('feedback').insert({
    user_id: userId,
    category: input.category,
    rating: input.rating > 0 ? input.rating : null,
    message: input.message.trim(),
    page_url: pageUrl ? pageUrl.slice(0, 500) : null,
  });
  unwrap(result, 'POST');
}

/** Mutation hook around createFeedback. */
export function useCreateFeedback() {
  return useMutation({ mutationFn: (a: { userId: string; input: FeedbackInput; pageUrl: string | null }) => createFeedback(a.userId, a.input, a.pageUrl) });
}
