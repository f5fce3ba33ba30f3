/** HTTP method of a request, upper case. */
export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Error of a backend call that keeps the HTTP status and method, so the retry policy and the
 * error page can decide (spec §2 error page, §9 retry rule). `status` 0 means no response.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly method: HttpMethod;
  readonly code?: string;

  constructor(message: string, status: number, method: HttpMethod, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.method = method;
    this.code = code;
  }
}

/**
 * True when the database refused a write for lack of an active paid subscription (spec §6; issue
 * 12: the payment-required rule holds in the database, SQLSTATE PT402 = HTTP 402 `payment_required`).
 */
export function isPaymentRequired(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 402 || error.code === 'PT402' || error.message === 'payment_required');
}

/** What supabase-js (PostgREST, functions) resolves with. */
export interface SupabaseResult<T> {
  data: T | null;
  error: { message: string; code?: string } | null;
  status?: number;
}

/**
 * Returns `data` of a supabase-js result or throws an ApiError carrying status and method.
 * @param method the HTTP method supabase-js used (select = GET, insert = POST, ...)
 */
export function unwrap<T>(result: SupabaseResult<T>, method: HttpMethod): T {
  if (result.error) {
    throw new ApiError(result.error.message || 'Request failed', result.status ?? 0, method, result.error.code);
  }
  return result.data as T;
}
