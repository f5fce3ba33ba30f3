import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { blockErrorMessageId } from '../api/block-errors';

describe('block errors (issue 8)', () => {
  test('the self-block constraint (23514) gets its own message, everything else the generic one', () => {
    expect(blockErrorMessageId(new ApiError('violates check constraint "user_blocks_not_self"', 400, 'POST', '23514'))).toBe('profile.block.error.self');
    expect(blockErrorMessageId(new ApiError('new row violates row-level security policy', 403, 'POST', '42501'))).toBe('profile.block.error.failed');
    expect(blockErrorMessageId(new Error('Failed to fetch'))).toBe('profile.block.error.failed');
  });
});
