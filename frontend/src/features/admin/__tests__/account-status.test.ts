import { describe, expect, it } from 'vitest';
import { accountStatus } from '../api/account-status';

describe('accountStatus (issue 32 §6: the admin list shows each account state)', () => {
  it('puts suspension first, then the unconfirmed address, then the legacy password reset, else active', () => {
    expect(accountStatus({ suspended: true, authenticated: 0, user_role: 'old_user' })).toBe('suspended');
    expect(accountStatus({ suspended: false, authenticated: 0, user_role: 'free' })).toBe('unconfirmed');
    expect(accountStatus({ suspended: false, authenticated: 1, user_role: 'old_user' })).toBe('password_reset');
    expect(accountStatus({ suspended: false, authenticated: 1, user_role: 'premium' })).toBe('active');
  });
});
