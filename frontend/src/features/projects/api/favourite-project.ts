import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/**
 * Normalises a favourite project id (spec §3/§5: ids are numbers; zero is dropped): returns the
 * positive safe integer, or null for zero, negatives, fractions and non-numeric input.
 */
export function normaliseProjectId(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Whether the user has favourited the project. @throws ApiError */
export async function isFavouriteProject(userId: string, projectId: number): Promise<boolean> {
  const supabase = await client();
  const result = await supabase.from('favourite_projects').select('project_id').eq('user_id', userId).eq('project_id', projectId).maybeSingle();
  return unwrap(result, 'GET') !== null;
}

/**
 * Adds a favourite; a second add is ignored (insert … on conflict do nothing), an invalid id is
 * dropped without a request (spec §5).
 * @returns false when the id was dropped
 * @throws ApiError
 */
export async function addFavouriteProject(userId: string, rawId: unknown): Promise<boolean> {
  const projectId = normaliseProjectId(rawId);
  if (projectId === null) return false;
  const supabase = await client();
  const result = await supabase
    .from('favourite_projects')
    .upsert({ user_id: userId, project_id: projectId }, { onConflict: 'user_id,project_id', ignoreDuplicates: true });
  unwrap(result, 'POST');
  return true;
}

/** Removes a favourite (no error when it was not there). @throws ApiError */
export async function removeFavouriteProject(userId: string, projectId: number): Promise<void> {
  const supabase = await client();
  unwrap(await supabase.from('favourite_projects').delete().eq('user_id', userId).eq('project_id', projectId), 'DELETE');
}

/** Hook: favourite state of a project and a toggle mutation (disabled when logged out). */
export function useFavouriteProject(userId: string | null | undefined, projectId: number) {
  const queryClient = useQueryClient();
  const key = ['favourites', 'project', userId, projectId];
  const state = useQuery({ queryKey: key, queryFn: () => isFavouriteProject(userId!, projectId), enabled: !!userId });
  const toggle = useMutation({
    mutationFn: async (next: boolean) => {
      if (next) await addFavouriteProject(userId!, projectId);
      else await removeFavouriteProject(userId!, projectId);
      return next;
    },
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      return queryClient.invalidateQueries({ queryKey: ['favourites'] });
    },
  });
  return { state, toggle };
}
