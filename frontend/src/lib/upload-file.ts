import { ApiError } from '@/lib/api-error';
import { FunctionCallError, invokeFunction } from '@/lib/invoke-function';

/**
 * Stores a file in Storage through the `upload` Edge Function (issue 29 §5): the function checks
 * that the bytes are of the declared type and stores them with the caller's session; Storage's
 * policies accept no upload around it.
 * Input: the bucket, the wished object path `<folder>/…/<file name>` (as the bucket's policies
 * expect it; the function prefixes the file name with a random part) and the file with its type.
 * Output: the stored object path (use it, not `path`, for the row that references the file).
 * @throws ApiError with the function's message and status (415 `content_mismatch` /
 *   `unsupported_media_type`, 413 too large, 403 not allowed here; 0 without an answer)
 */
export async function uploadFile(bucket: string, path: string, file: Blob): Promise<string> {
  const form = new FormData();
  form.set('bucket', bucket);
  form.set('path', path);
  form.set('file', file, path.split('/').at(-1) ?? 'file');
  try {
    const stored = await invokeFunction<{ path: string }>('upload', form);
    return stored.path;
  } catch (err) {
    if (err instanceof FunctionCallError) throw new ApiError(err.message, err.status, 'POST', err.code);
    throw err;
  }
}
