import type { AdminUserRow } from './admin-users';

/** The state of an account as the admin list shows it (issue 32 §6), most pressing first. */
export type AccountStatus = 'suspended' | 'unconfirmed' | 'password_reset' | 'active';

/**
 * The state of a listed account from the database's facts (admin_list_users): suspended
 * (account_suspensions), unconfirmed (authenticated 0), legacy old_user who must set a new
 * password (spec §4), otherwise active. Deleted accounts no longer exist and are not listed.
 */
export function accountStatus(user: Pick<AdminUserRow, 'suspended' | 'authenticated' | 'user_role'>): AccountStatus {
  if (user.suspended) return 'suspended';
  if (user.authenticated === 0) return 'unconfirmed';
  if (user.user_role === 'old_user') return 'password_reset';
  return 'active';
}
