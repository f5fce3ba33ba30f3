import { FunctionsHttpError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';
import { BillingFunctionError } from './billing-error';

export { BillingFunctionError };

/**
 * POSTs a JSON body to an Edge Function with the caller's session (supabase-js adds the token).
 * @returns the parsed JSON of a 2xx answer
 * @throws BillingFunctionError with the function's code and message; status 0 / `network_error`
 *   when no answer arrived
 */
export async function invokeBillingFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
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
    throw new BillingFunctionError(response.status, code, message);
  }
  throw new BillingFunctionError(0, 'network_error', error.message);
}
