import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** Favourites per page and list on /user/favorites. */
export const FAVORITES_PAGE_SIZE = 10;

/** A favourite project with the fields the list shows (project null when no longer visible). */
export interface FavouriteProjectItem {
  project_id: number;
  created_at: string;
  project: {
    id: number;
    title: string;
    slug: string;
    city: string | null;
    category: string | null;
    summary: string | null;
    /** The owner's public name and picture (null when the profile is not visible to the user). */
    owner: { firstname: string; lastname: string; profile_img: string | null } | null;
  } | null;
}

/** A favourite job with the fields the list shows (job null when expired/removed). */
export interface FavouriteJobItem {
  job_id: string;
  created_at: string;
  job: { id: string; title: string; company: string; city: string | null; remote: boolean; category: string | null } | null;
}

/** One page of a favourites list. */
export interface FavouritesPage<T> {
  rows: T[];
  total: number;
}

/** Favourite projects of the user, newest first (RLS: own rows only). @throws ApiError */
export async function getFavouriteProjects(userId: string, page: number): Promise<FavouritesPage<FavouriteProjectItem>> {
  const supabase = await client();
  const from = (page - 1) * FAVORITES_PAGE_SIZE;
  const result = await supabase
    .from('favourite_projects')
    .select('project_id, created_at, project:projects(id, title, slug, city, category, summary, owner:profiles!projects_owner_id_fkey(firstname, lastname, profile_img))', { count: 'exact' })
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .range(from, from + FAVORITES_PAGE_SIZE - 1);
  return { rows: unwrap(result, 'GET') as unknown as FavouriteProjectItem[], total: result.count ?? 0 };
}

/** Favourite jobs of the user, newest first. @throws ApiError */
export async function getFavouriteJobs(userId: string, page: number): Promise<FavouritesPage<FavouriteJobItem>> {
  const supabase = await client();
  const from = (page - 1) * FAVORITES_PAGE_SIZE;
  const result = await supabase
    .from('favourite_jobs')
    .select('job_id, created_at, job:jobs(id, title, company, city, remote, category)', { count: 'exact' })
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .range(from, from + FAVORITES_PAGE_SIZE - 1);
  return { rows: unwrap(result, 'GET') as unknown as FavouriteJobItem[], total: result.count ?? 0 };
}

/** Query options of both lists. */
export const favouriteProjectsQuery = (userId: string, page: number) =>
  queryOptions({ queryKey: ['favourites', 'projects', userId, page], queryFn: () => getFavouriteProjects(userId, page) });
export const favouriteJobsQuery = (userId: string, page: number) =>
  queryOptions({ queryKey: ['favourites', 'jobs', userId, page], queryFn: () => getFavouriteJobs(userId, page) });

/** Hooks of the two lists (disabled until the user id is known). */
export function useFavouriteProjects(userId: string | null | undefined, page: number) {
  return useQuery({ ...favouriteProjectsQuery(userId ?? '', page), enabled: !!userId });
}
export function useFavouriteJobs(userId: string | null | undefined, page: number) {
  return useQuery({ ...favouriteJobsQuery(userId ?? '', page), enabled: !!userId });
}

/** Removes a favourite project or job of the user (no error when already gone). @throws ApiError */
export async function removeFavourite(userId: string, item: { kind: 'project'; id: number } | { kind: 'job'; id: string }): Promise<void> {
  const supabase = await client();
  const result =
    item.kind === 'project'
      ? await supabase.from('favourite_projects').delete().eq('user_id', userId).eq('project_id', item.id)
      : await supabase.from('favourite_jobs').delete().eq('user_id', userId).eq('job_id', item.id);
  unwrap(result, 'DELETE');
}

/** Mutation hook around removeFavourite; refreshes every favourites query. */
export function useRemoveFavourite(userId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: { kind: 'project'; id: number } | { kind: 'job'; id: string }) => removeFavourite(userId!, item),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['favourites'] }),
  });
}
