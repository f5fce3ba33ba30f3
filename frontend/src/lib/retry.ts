import { ApiError, type HttpMethod } from './api-error';

/**
 * Spec §9 retry policy, applied by TanStack Query. PostgREST fetchers call `.retry(false)` so
 * postgrest-js does not add its own retries on top.
 */

/** Statuses worth one more try (spec §9). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
/** Methods that carry a body and are never retried (spec §9: only body-less methods are). */
export const PAYLOAD_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** At most one retry (spec §9). */
export const MAX_RETRIES = 1;

/**
 * Retry decision for TanStack Query (`retry` option).
 * @param failureCount earlier failures before this one, as TanStack Query counts (0 after the
 *   first failure, 1 after the second)
 * @param error what the fetcher threw; an ApiError gives status and method, anything else
 *   counts as a GET without response (a network failure, retried like a 500)
 * @param fallbackMethod method assumed for errors without one (queries: GET; mutations: POST)
 * @returns true to try once more
 */
export function shouldRetry(failureCount: number, error: unknown, fallbackMethod: HttpMethod = 'GET'): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const method = error instanceof ApiError ? error.method : fallbackMethod;
  if (PAYLOAD_METHODS.has(method)) return false;
  const status = error instanceof ApiError && error.status > 0 ? error.status : 500;
  return RETRY_STATUSES.has(status);
}

/** Pause before the retry, in milliseconds. */
export const RETRY_DELAY_MS = 300;
