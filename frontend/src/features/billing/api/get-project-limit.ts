import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { getSessionUserId } from '@/lib/session';

/** Projects per role as the database enforces them (private.project_limit: free 0, basic 3, others unlimited; spec §9). */
export const PROJECT_LIMIT_BY_ROLE: Readonly<Record<string, number | null>> = {
  old_user: 0,
  free: 0,
  basic: 3,
  premium: null,
  enterprise: null,
  admin: null,
};

/** The caller's project allowance. */
export interface ProjectAllowance {
  /** profiles.user_role (synced from the subscription). */
  role: string;
  /** Maximum own projects, null = unlimited. */
  limit: number | null;
  /** Own projects right now. */
  used: number;
}

/**
 * Reads the caller's role and project count, so the projects feature can show
 * `<PlanLimitNotice>` before the database refuses an insert.
 * @returns null when logged out
 * @throws ApiError when PostgREST fails
 */
export async function getProjectAllowance(): Promise<ProjectAllowance | null> {
  const { supabase } = await import('@/lib/supabase');
  const userId = await getSessionUserId();
  if (!userId) return null;
  const [profile, projects] = await Promise.all([
    supabase.rpc('my_profile').select('user_role').single(),
    supabase.from('projects').select('id', { count: 'exact', head: true }).eq('owner_id', userId),
  ]);
  const role = unwrap(profile, 'GET').user_role;
  if (projects.error) unwrap(projects, 'GET');
  const limit = role in PROJECT_LIMIT_BY_ROLE ? PROJECT_LIMIT_BY_ROLE[role]! : 0;
  return { role, limit, used: projects.count ?? 0 };
}

/** Query options of the caller's project allowance (invalidate after creating or deleting a project). */
export const projectAllowanceQueryOptions = () => queryOptions({ queryKey: ['billing', 'project-allowance'], queryFn: getProjectAllowance });

/** The caller's project allowance (TanStack Query); `limit !== null && used >= limit` means the limit is reached. */
export const useProjectAllowance = () => useQuery(projectAllowanceQueryOptions());
