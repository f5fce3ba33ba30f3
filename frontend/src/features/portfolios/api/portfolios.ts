import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { PORTFOLIO_COLUMNS, type PortfolioFormValues, type PortfolioRow, toPortfolioColumns } from './portfolio-schema';

const client = () => import('@/lib/supabase').then((m) => m.supabase);

/** Portfolios per page on /user/portfolios. */
export const PORTFOLIOS_PAGE_SIZE = 10;

/** One page of the owner's portfolios, newest first, with the total. @throws ApiError */
export async function getMyPortfolios(ownerId: string, page: number): Promise<{ rows: PortfolioRow[]; total: number }> {
  const supabase = await client();
  const from = (page - 1) * PORTFOLIOS_PAGE_SIZE;
  const result = await supabase
    .from('portfolios')
    .select(PORTFOLIO_COLUMNS, { count: 'exact' })
    .eq('owner_id', ownerId)
    .order('created_at', { ascending: false })
    .range(from, from + PORTFOLIOS_PAGE_SIZE - 1);
  const rows = unwrap(result, 'GET');
  return { rows, total: result.count ?? rows.length };
}

/** Hook around getMyPortfolios. */
export function useMyPortfolios(ownerId: string | null | undefined, page: number) {
  return useQuery({ queryKey: ['portfolios', 'mine', ownerId, page], queryFn: () => getMyPortfolios(ownerId!, page), enabled: !!ownerId });
}

/** One portfolio by id as RLS lets the caller see it (null otherwise). @throws ApiError */
export async function getPortfolio(id: number): Promise<PortfolioRow | null> {
  const supabase = await client();
  return unwrap(await supabase.from('portfolios').select(PORTFOLIO_COLUMNS).eq('id', id).maybeSingle(), 'GET');
}

/** Hook around getPortfolio. */
export function usePortfolio(id: number) {
  return useQuery({ queryKey: ['portfolios', 'one', id], queryFn: () => getPortfolio(id), enabled: Number.isSafeInteger(id) && id > 0 });
}

/** Inserts a draft portfolio of the owner. @throws ApiError */
export async function createPortfolio(ownerId: string, values: PortfolioFormValues): Promise<PortfolioRow> {
  const supabase = await client();
  const result = await supabase.from('portfolios').insert({ ...toPortfolioColumns(values), owner_id: ownerId, slug: '' }).select(PORTFOLIO_COLUMNS).single();
  return unwrap(result, 'POST');
}

/** Updates fields and/or the status of a portfolio (RLS: owner). @throws ApiError 404 when not visible */
export async function updatePortfolio(
  id: number,
  patch: Partial<ReturnType<typeof toPortfolioColumns>> & { status?: Database['public']['Enums']['content_status'] },
): Promise<PortfolioRow> {
  const supabase = await client();
  const row = unwrap(await supabase.from('portfolios').update(patch).eq('id', id).select(PORTFOLIO_COLUMNS).maybeSingle(), 'PATCH');
  if (!row) throw new ApiError('not_found', 404, 'PATCH');
  return row;
}

/**
 * Deletes a portfolio: first its stored files (Storage objects under `<owner>/<id>/`), then the row
 * (portfolio_files rows go with it, on delete cascade). @throws ApiError
 */
export async function deletePortfolio(id: number): Promise<void> {
  const supabase = await client();
  const files = unwrap(await supabase.from('portfolio_files').select('object_path').eq('portfolio_id', id), 'GET');
  if (files.length > 0) {
    const removed = await supabase.storage.from('portfolio-files').remove(files.map((f) => f.object_path));
    if (removed.error) throw new ApiError(removed.error.message, 0, 'DELETE');
  }
  unwrap(await supabase.from('portfolios').delete().eq('id', id), 'DELETE');
}

/** Mutation hooks of the portfolios feature (invalidate every portfolios query). */
export function usePortfolioMutations() {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: ['portfolios'] });
  return {
    create: useMutation({ mutationFn: (a: { ownerId: string; values: PortfolioFormValues }) => createPortfolio(a.ownerId, a.values), onSuccess }),
    update: useMutation({ mutationFn: (a: { id: number; patch: Parameters<typeof updatePortfolio>[1] }) => updatePortfolio(a.id, a.patch), onSuccess }),
    remove: useMutation({ mutationFn: (id: number) => deletePortfolio(id), onSuccess }),
  };
}

/** Published portfolios of a user as the caller may see them (RLS hides blocked users), newest first. @throws ApiError */
export async function getPublicPortfolios(ownerId: string): Promise<PortfolioRow[]> {
  const supabase = await client();
  const result = await supabase
    .from('portfolios')
    .select(PORTFOLIO_COLUMNS)
    .eq('owner_id', ownerId)
    .eq('status', 'published')
    .order('published_at', { ascending: false })
    .limit(20);
  return unwrap(result, 'GET');
}

/** Hook around getPublicPortfolios. */
export function usePublicPortfolios(ownerId: string) {
  return useQuery({ queryKey: ['portfolios', 'public', ownerId], queryFn: () => getPublicPortfolios(ownerId), enabled: ownerId !== '' });
}
