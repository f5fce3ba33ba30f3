import { ApiError } from '@/lib/api-error';

/**
 * Message id for a failed block (issue 8: a user cannot block themselves, the database decides).
 * @param error what blockUser threw
 * @returns `profile.block.error.self` for the self-block constraint (23514), otherwise `profile.block.error.failed`
 */
export function blockErrorMessageId(error: unknown): string {
  return error instanceof ApiError && error.code === '23514' ? 'profile.block.error.self' : 'profile.block.error.failed';
}
