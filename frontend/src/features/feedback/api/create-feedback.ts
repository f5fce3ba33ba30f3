import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { unwrap } from '@/lib/api-error';
import { Checks } from '@/lib/database.checks';

const C = Checks.feedback;

/** Feedback categories (the CHECK constraint of public.feedback.category) with their message ids. */
export const FEEDBACK_CATEGORY_LABEL: Record<(typeof C.category.oneOf)[number], string> = {
  general: 'feedback.category.general',
  bug: 'feedback.category.bug',
  idea: 'feedback.category.idea',
  praise: 'feedback.category.praise',
  other: 'feedback.category.other',
};

/** Form fields of public.feedback with the limits its CHECK constraints state (rating 0 = none); messages are ids. */
export const feedbackSchema = z.object({
  category: z.enum(C.category.oneOf, 'feedback.error.category'),
  rating: z.number().int().min(0).max(C.rating.max),
  message: z.string().trim().min(C.message.minLength, 'feedback.error.message').max(C.message.maxLength, 'feedback.error.message'),
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
    page_url: pageUrl ? pageUrl.slice(0, C.page_url.maxLength) : null,
  });
  unwrap(result, 'POST');
}

/** Mutation hook around createFeedback. */
export function useCreateFeedback() {
  return useMutation({ mutationFn: (a: { userId: string; input: FeedbackInput; pageUrl: string | null }) => createFeedback(a.userId, a.input, a.pageUrl) });
}
