import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { PROJECT_COLUMNS, type ProjectRow } from './project-schema';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** Projects per page on /user/projects. */
export const MY_PROJECTS_PAGE_SIZE = 10;

/** One page of the signed-in user's projects plus the plan facts for the limit notice. */
export interface MyProjectsPage {
  rows: ProjectRow[];
  /** All the owner's projects, drafts included (for paging). */
  total: number;
  /** Projects that count towards the limit: all but drafts (issue 33 §5, private.enforce_project_limit). */
  used: number;
  /** Projects the plan allows; null = unlimited (spec §5). */
  limit: number | null;
  role: string | null;
}

/** True when the plan's limit is reached: `used` (non-draft projects) ≥ `limit` (null = unlimited; issue 33 §5). */
export function limitReached(page: Pick<MyProjectsPage, 'used' | 'limit'>): boolean {
  return page.limit !== null && page.used >= page.limit;
}

/**
 * Loads page `page` (1-based) of the owner's projects, newest first, with the total count, the
 * count that the plan limit counts (drafts do not, issue 33 §5) and the plan limit, both from
 * public.my_project_allowance() (the database's rule); `ownerId` is the signed-in user.
 * @throws ApiError
 */
export async function getMyProjects(ownerId: string, page: number): Promise<MyProjectsPage> {
  const supabase = await client();
  const from = (page - 1) * MY_PROJECTS_PAGE_SIZE;
  const [list, allowance, profile] = await Promise.all([
    supabase
      .from('projects')
      .select(PROJECT_COLUMNS, { count: 'exact' })
      .eq('owner_id', ownerId)
      .order('created_at', { ascending: false })
      .range(from, from + MY_PROJECTS_PAGE_SIZE - 1),
    // what counts and the limit, as the limit trigger decides them (private.enforce_project_limit)
    supabase.rpc('my_project_allowance').single(),
    supabase.rpc('my_profile').select('user_role').maybeSingle(),
  ]);
  const rows = unwrap(list, 'GET');
  const { used, project_limit: limit } = unwrap(allowance, 'GET');
  const role = unwrap(profile, 'GET')?.user_role ?? null;
  return { rows, total: list.count ?? rows.length, used, limit, role };
}

/** Query options of getMyProjects. */
export const myProjectsQuery = (ownerId: string, page: number) =>
  queryOptions({ queryKey: ['projects', 'mine', ownerId, page], queryFn: () => getMyProjects(ownerId, page) });

/** Hook: the owner's projects page (disabled until the user id is known). */
export function useMyProjects(ownerId: string | null | undefined, page: number) {
  return useQuery({ ...myProjectsQuery(ownerId ?? '', page), enabled: !!ownerId });
}

/** Loads one project by id for its owner (RLS returns nothing for other users' drafts). @throws ApiError */
export async function getOwnProject(id: number): Promise<ProjectRow | null> {
  const supabase = await client();
  return unwrap(await supabase.from('projects').select(PROJECT_COLUMNS).eq('id', id).maybeSingle(), 'GET');
}

/** Hook around getOwnProject. */
export function useOwnProject(id: number | null) {
  return useQuery({ queryKey: ['projects', 'one', id], queryFn: () => getOwnProject(id!), enabled: id !== null });
}

/** Owner card fields embedded in the public project. */
export interface ProjectOwner {
  slug: string;
  firstname: string;
  lastname: string;
  headline: string | null;
  city: string | null;
}

/** A published project with its owner (null when the owner's profile is not visible) and its organisation (issue 15). */
export type PublicProject = ProjectRow & { owner: ProjectOwner | null; organization: { slug: string; name: string } | null };

/**
 * Loads a project for /{id}-{slug}: RLS returns published projects of users not hidden from the
 * caller (blocks) and the caller's own; anything else is null → 404.
 * @throws ApiError
 */
export async function getPublicProject(id: number): Promise<PublicProject | null> {
  const supabase = await client();
  const result = await supabase
    .from('projects')
    .select(`${PROJECT_COLUMNS}, owner:profiles!projects_owner_id_fkey(slug, firstname, lastname, headline, city), organization:organizations(slug, name)`)
    .eq('id', id)
    .maybeSingle();
  return unwrap(result, 'GET') as PublicProject | null;
}

/** Hook around getPublicProject. */
export function usePublicProject(id: number) {
  return useQuery({ queryKey: ['projects', 'public', id], queryFn: () => getPublicProject(id) });
}
