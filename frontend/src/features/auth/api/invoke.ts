import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

/** Error answer of an Edge Function: HTTP status, the code and the message of the error object (issue 6 contracts). */
export class FunctionCallError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'FunctionCallError';
    this.status = status;
    this.code = code;
  }
}

/**
 * Calls an Edge Function with a JSON body through supabase-js.
 * @returns the parsed JSON answer of a 2xx response
 * @throws FunctionCallError with the function's `{ error: { code, message } }` (status 0 and code
 *   `network_error` when no answer arrived)
 */
export async function invokeFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
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
