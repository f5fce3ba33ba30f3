import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

/** Whether the caller has the job among their favourites (table favourite_jobs). */
export async function isFavouriteJob(jobId: string, userId: string): Promise<boolean> {
  const { supabase } = await import('@/lib/supabase');
  const row = unwrap(await supabase.from('favourite_jobs').select('job_id').eq('user_id', userId).eq('job_id', jobId).maybeSingle().retry(false), 'GET');
  return row !== null;
}

/**
 * Adds or removes a favourite job. Adding twice never duplicates: the primary key refuses a
 * second row and the duplicate error (23505) counts as success.
 * @throws ApiError for other errors (e.g. RLS when suspended)
 */
export async function setFavouriteJob(jobId: string, userId: string, favourite: boolean): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  if (favourite) {
    const result = await supabase.from('favourite_jobs').insert({ user_id: userId, job_id: jobId });
    if (result.error?.code === '23505') return;
    unwrap(result, 'POST');
  } else {
    unwrap(await supabase.from('favourite_jobs').delete().eq('user_id', userId).eq('job_id', jobId), 'DELETE');
  }
}

/** Hook: favourite state of a job for the signed-in user (disabled when logged out). */
export function useFavouriteJob(jobId: string, userId: string | null) {
  const queryClient = useQueryClient();
  const key = ['favourites', 'jobs', jobId, userId];
  const state = useQuery({ queryKey: key, queryFn: () => isFavouriteJob(jobId, userId!), enabled: userId !== null });
  const toggle = useMutation({
    mutationFn: (favourite: boolean) => setFavouriteJob(jobId, userId!, favourite),
    onSuccess: (_d, favourite) => queryClient.setQueryData(key, favourite),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['favourites'] }),
  });
  return { state, toggle };
}
