import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { invokeFunction } from '@/lib/invoke-function';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';

/** Roles an admin can assign (profiles.user_role). */
export const ROLES = ['old_user', 'free', 'basic', 'premium', 'enterprise', 'admin'] as const;
export type Role = Database['public']['Enums']['user_role'];

/** One row of the admin user list. */
export interface AdminUserRow {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  user_role: Role;
  authenticated: number;
  created_at: string;
  suspended: boolean;
}

/** Rows per page of /admin/users. */
export const PAGE_SIZE = 20;

/**
 * Query options of one page of users, newest first, filtered by e-mail or name, with suspension:
 * public.admin_list_users() (security definer, refuses non-admins with 42501; issue 12: e-mail,
 * role and state are not readable through the profiles table).
 * @param page 1-based page number
 */
export const adminUsersQuery = (search: string, page: number) =>
  queryOptions({
    queryKey: ['admin-users', search, page],
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ rows: AdminUserRow[]; total: number }> => {
      const q = search.trim();
      const result = await supabase.rpc('admin_list_users', {
        p_search: q || undefined,
        p_limit: PAGE_SIZE,
        p_offset: (page - 1) * PAGE_SIZE,
      });
      const rows = unwrap(result, 'GET') ?? [];
      return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
    },
  });

/** Admin changes through `update-user` (role, suspension, confirmation, e-mail, password; spec §7). */
export async function adminUpdateUser(userId: string, updates: Record<string, unknown>): Promise<void> {
  await invokeFunction('update-user', { userId, updates });
}

/**
 * Creates a user (issue 32 §6): `register` with the admin's session creates the account, confirmed
 * when `confirmed` (it can log in at once; the function refuses `confirmed` from non-admins with
 * 403) or else with the product's confirmation mail in `locale`; a role other than free is then
 * set through `update-user`. Returns the new user's id.
 * @throws FunctionCallError (409 `email_exists`, 400 `weak_password`, …) with the server's text
 */
export async function adminCreateUser(input: {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  type: 'business' | 'other';
  role: Role;
  confirmed: boolean;
  locale: 'en' | 'de';
}): Promise<string> {
  const created = await invokeFunction<{ user_id: string }>('register', {
    firstname: input.firstname,
    lastname: input.lastname,
    email: input.email,
    password: input.password,
    type: input.type,
    terms_accepted: true,
    privacy_accepted: true,
    locale: input.locale,
    confirmed: input.confirmed,
  });
  if (input.role !== 'free') await adminUpdateUser(created.user_id, { user_role: input.role });
  return created.user_id;
}

/**
 * Deletes a user with everything they own through the `delete-account` function (`admin_delete_user`
 * with the admin's session), which also cancels the user's subscriptions at Stripe at once,
 * without refund (issue 32 §1). @throws FunctionCallError with the database's code and text
 */
export async function adminDeleteUser(userId: string): Promise<void> {
  const { invokeFunction } = await import('@/lib/invoke-function');
  await invokeFunction('delete-account', { userId });
}
