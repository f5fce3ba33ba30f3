import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';

/** A remote job as listed on /working-remote-jobs (columns of public.jobs). */
export interface RemoteJob {
  id: string;
  title: string;
  company: string;
  city: string | null;
  employment_type: string;
  /** public.project_category value (issue 18: the card's kicker). */
  category: string | null;
  posted_at: string;
  language: string;
}

/** How many remote jobs the page shows. */
export const REMOTE_JOBS_LIMIT = 50;

/**
 * Reads the newest remote jobs (RLS hides expired ads from anon).
 * @throws ApiError (GET, retried once on the statuses of spec §9)
 */
export async function getRemoteJobs(): Promise<RemoteJob[]> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .from('jobs')
    .select('id, title, company, city, employment_type, category, posted_at, language')
    .eq('remote', true)
    .order('posted_at', { ascending: false })
    .limit(REMOTE_JOBS_LIMIT)
    // postgrest-js would retry 503 three times itself; the spec §9 policy (one retry) lives in TanStack Query
    .retry(false);
  return unwrap(result, 'GET') as RemoteJob[];
}

/** Query options (key + fetcher) for the remote jobs list; also used for preloading. */
export const remoteJobsQueryOptions = () => queryOptions({ queryKey: ['jobs', 'remote'], queryFn: getRemoteJobs });

/** Hook for the remote jobs list. */
export function useRemoteJobs() {
  return useQuery(remoteJobsQueryOptions());
}
