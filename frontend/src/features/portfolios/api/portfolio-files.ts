import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import { uploadFile } from '@/lib/upload-file';
import { fileProblem, type PortfolioFileRow, sanitiseFileName } from './portfolio-schema';

const client = () => import('@/lib/supabase').then((m) => m.supabase);
const BUCKET = 'portfolio-files';

/** Seconds a download link stays valid. */
export const SIGNED_URL_TTL_S = 60;

/** Supporting files of a portfolio the caller may see (RLS), oldest first. @throws ApiError */
export async function getPortfolioFiles(portfolioId: number): Promise<PortfolioFileRow[]> {
  const supabase = await client();
  return unwrap(await supabase.from('portfolio_files').select('*').eq('portfolio_id', portfolioId).order('created_at'), 'GET');
}

/** Hook around getPortfolioFiles. */
export function usePortfolioFiles(portfolioId: number) {
  return useQuery({ queryKey: ['portfolios', 'files', portfolioId], queryFn: () => getPortfolioFiles(portfolioId) });
}

/**
 * Uploads a supporting file to `portfolio-files/<owner>/<portfolio>/<random>-<safe name>` through the
 * upload function (which checks the bytes) and records it in portfolio_files; removes the object
 * again when the row is refused.
 * @throws ApiError 400 with message = message id when type/size are not allowed (≤ 10 MB)
 */
export async function uploadPortfolioFile(ownerId: string, portfolioId: number, file: File): Promise<PortfolioFileRow> {
  const problem = fileProblem(file);
  if (problem) throw new ApiError(problem, 400, 'POST');
  const supabase = await client();
  // the upload function puts a random part before the name
  const path = `${ownerId}/${portfolioId}/${sanitiseFileName(file.name)}`;
  const stored = await uploadFile(BUCKET, path, file);
  const inserted = await supabase
    .from('portfolio_files')
    .insert({ portfolio_id: portfolioId, owner_id: ownerId, object_path: stored, file_name: file.name.slice(0, 200) || 'file', mime_type: file.type, size_bytes: file.size })
    .select('*')
    .single();
  if (inserted.error) await supabase.storage.from(BUCKET).remove([stored]);
  return unwrap(inserted, 'POST');
}

/** Deletes the stored object and its row. @throws ApiError */
export async function deletePortfolioFile(file: PortfolioFileRow): Promise<void> {
  const supabase = await client();
  const removed = await supabase.storage.from(BUCKET).remove([file.object_path]);
  if (removed.error) throw new ApiError(removed.error.message, 0, 'DELETE');
  unwrap(await supabase.from('portfolio_files').delete().eq('id', file.id), 'DELETE');
}

/**
 * Signed download URL of a file (valid SIGNED_URL_TTL_S seconds, served as attachment under the
 * ASCII-safe form of its name, e.g. "Praesentation.pdf", so every browser keeps it). Storage RLS decides: owner, or visitors allowed by the portfolio's file_access.
 * @throws ApiError when the caller may not read the object
 */
export async function signedFileUrl(file: PortfolioFileRow): Promise<string> {
  const supabase = await client();
  const signed = await supabase.storage.from(BUCKET).createSignedUrl(file.object_path, SIGNED_URL_TTL_S, { download: sanitiseFileName(file.file_name) });
  if (signed.error || !signed.data) throw new ApiError(signed.error?.message ?? 'not_allowed', 403, 'POST');
  return signed.data.signedUrl;
}

/** Upload and delete mutations of a portfolio's files. */
export function usePortfolioFileMutations(portfolioId: number) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: ['portfolios', 'files', portfolioId] });
  return {
    upload: useMutation({ mutationFn: (a: { ownerId: string; file: File }) => uploadPortfolioFile(a.ownerId, portfolioId, a.file), onSuccess }),
    remove: useMutation({ mutationFn: (file: PortfolioFileRow) => deletePortfolioFile(file), onSuccess }),
  };
}
