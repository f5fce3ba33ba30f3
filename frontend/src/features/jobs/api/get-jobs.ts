import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { isCategory } from '@/lib/categories';

/** Row of public.jobs. */
export type JobRow = Database['public']['Tables']['jobs']['Row'] & {
  /** The organisation the ad is published under (issue 15), when read with the embed. */
  organization?: { slug: string; name: string } | null;
};
/** public.employment_type values. */
export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'freelance', 'internship', 'working_student', 'mini_job'] as const;
/** Jobs per page on /jobs. */
export const JOBS_PAGE_SIZE = 15;

/** The ten values of public.project_category (events and jobs use it too). */

/** Filters of /jobs as they live in the URL. */
export interface JobFilters {
  remote: '' | 'remote' | 'onsite';
  city: string;
  type: string;
  category: string;
  page: number;
}

/** Reads /jobs filters from the URL query; malformed values are dropped. */
export function parseJobFilters(search: URLSearchParams): JobFilters {
  const remote = search.get('remote');
  const type = search.get('type') ?? '';
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  return {
    remote: remote === 'remote' || remote === 'onsite' ? remote : '',
    city: (search.get('city') ?? '').slice(0, 100),
    type: (EMPLOYMENT_TYPES as readonly string[]).includes(type) ? type : '',
    category: isCategory(search.get('category') ?? '') ? search.get('category')! : '',
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** Writes /jobs filters into a URL query (only non-default values). */
export function toJobSearch(f: JobFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of ['remote', 'city', 'type', 'category'] as const) if (f[key].trim()) out.set(key, f[key].trim());
  if (f.page > 1) out.set('page', String(f.page));
  return out;
}

/** Job as listed on /jobs. */
export type JobListItem = Pick<JobRow, 'id' | 'title' | 'company' | 'city' | 'remote' | 'employment_type' | 'category' | 'posted_at'>;

/**
 * Lists current job ads, newest first, with filters (RLS hides expired ads).
 * @returns one page and the total count
 * @throws ApiError
 */
export async function listJobs(f: JobFilters): Promise<{ rows: JobListItem[]; total: number }> {
  const { supabase } = await import('@/lib/supabase');
  let query = supabase.from('jobs').select('id, title, company, city, remote, employment_type, category, posted_at', { count: 'exact' });
  if (f.remote) query = query.eq('remote', f.remote === 'remote');
  if (f.city.trim()) query = query.ilike('city', f.city.trim().replace(/[%_\\]/g, (c) => `\\${c}`));
  if (f.type) query = query.eq('employment_type', f.type as JobRow['employment_type']);
  if (f.category) query = query.eq('category', f.category as JobRow['category']);
  const start = (f.page - 1) * JOBS_PAGE_SIZE;
  const result = await query
    .order('posted_at', { ascending: false })
    .order('id')
    .range(start, start + JOBS_PAGE_SIZE - 1)
    .retry(false);
  const rows = unwrap(result, 'GET') as JobListItem[];
  return { rows, total: result.count ?? rows.length };
}

/** Query options for a /jobs page. */
export const jobsQueryOptions = (f: JobFilters) =>
  queryOptions({ queryKey: ['jobs', 'list', toJobSearch(f).toString()], queryFn: () => listJobs(f), placeholderData: keepPreviousData });

/** Hook for a /jobs page. */
export function useJobs(f: JobFilters) {
  return useQuery(jobsQueryOptions(f));
}

/** Reads one job ad by its text id; null when missing or expired. */
export async function getJob(id: string): Promise<JobRow | null> {
  const { supabase } = await import('@/lib/supabase');
  const result = await supabase
    .from('jobs')
    .select('id, title, company, company_logo, city, latitude, longitude, remote, employment_type, category, description, apply_url, salary_min_cents, salary_max_cents, language, posted_by, posted_at, expires_at, created_at, updated_at, organization_id, organization:organizations(slug, name)')
    .eq('id', id)
    .maybeSingle()
    .retry(false);
  return unwrap(result, 'GET') as JobRow | null;
}

/** Hook for one job ad. */
export function useJob(id: string) {
  return useQuery({ queryKey: ['jobs', 'detail', id], queryFn: () => getJob(id) });
}
