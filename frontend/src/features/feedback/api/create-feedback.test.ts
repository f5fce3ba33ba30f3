import { describe, expect, it } from 'vitest';
import { feedbackSchema } from './create-feedback';

describe('feedbackSchema (the limits of the public.feedback checks)', () => {
  it('accepts a message of 3+ characters with an optional rating', () => {
    expect(feedbackSchema.safeParse({ category: 'idea', rating: 0, message: 'Gut!' }).success).toBe(true);
    expect(feedbackSchema.safeParse({ category: 'bug', rating: 5, message: 'Broken link' }).success).toBe(true);
  });
  it('refuses blank or too long messages, unknown categories, ratings outside 0–5', () => {
    expect(feedbackSchema.safeParse({ category: 'idea', rating: 0, message: '  a ' }).error?.issues[0]?.message).toBe('feedback.error.message');
    expect(feedbackSchema.safeParse({ category: 'idea', rating: 0, message: 'x'.repeat(5001) }).success).toBe(false);
    expect(feedbackSchema.safeParse({ category: 'spam', rating: 0, message: 'Hello' }).success).toBe(false);
    expect(feedbackSchema.safeParse({ category: 'idea', rating: 6, message: 'Hello' }).success).toBe(false);
  });
});
