import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { hasPremiumProfile, premiumErrorId } from '../api/premium-profile-rules';

describe('premium profile helpers (spec §6)', () => {
  test('only premium and enterprise get the settings', () => {
    expect(['free', 'basic', 'premium', 'enterprise', 'admin', 'old_user'].filter(hasPremiumProfile)).toEqual(['premium', 'enterprise']);
  });
  test('database errors map to clear messages', () => {
    expect(premiumErrorId(new ApiError('premium_required', 400, 'PATCH', 'P0001'))).toBe('premiumProfile.error.premiumRequired');
    expect(premiumErrorId(new ApiError('featured_project_invalid', 400, 'PATCH', 'P0001'))).toBe('premiumProfile.error.featuredInvalid');
    expect(premiumErrorId(new ApiError('premium_required', 400, 'PATCH', '42501'))).toBeNull();
    expect(premiumErrorId(new Error('premium_required'))).toBeNull();
  });
});
