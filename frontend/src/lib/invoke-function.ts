import { FunctionCallError } from '@/lib/function-call-error';

export { FunctionCallError };

/**
 * POSTs a JSON body (or a multipart form) to an Edge Function through supabase-js (which adds the
 * caller's token).
 * @returns the parsed JSON answer of a 2xx response
 * @throws FunctionCallError with the function's code and message (status 0 and code
 *   `network_error` when no answer arrived)
 */
export async function invokeFunction<T>(name: string, body: Record<string, unknown> | FormData): Promise<T> {
  // supabase-js loads on first use, so pages that only may call a function (e.g. /prices) render without it
  const [{ supabase }, { FunctionsHttpError }] = await Promise.all([import('@/lib/supabase'), import('@supabase/supabase-js')]);
  const { data, error } = await supabase.functions.invoke<T>(name, { body });
  if (!error) return data as T;
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    let code = 'unknown_error';
    let message = error.message;
    try {
      const parsed = (await response.json()) as { error?: { code?: string; message?: string } };
      code = parsed.error?.code ?? code;
      message = parsed.error?.message ?? message;
    } catch {
      // not JSON: keep the generic message
    }
    throw new FunctionCallError(response.status, code, message);
  }
  throw new FunctionCallError(0, 'network_error', error.message);
}
