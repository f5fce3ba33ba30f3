import { QueryClient } from '@tanstack/react-query';
import { RETRY_DELAY_MS, shouldRetry } from './retry';

/**
 * The one TanStack Query client. Queries are GET-like and mutations POST-like unless the thrown
 * ApiError says otherwise; the retry policy is spec §9 (one retry, listed statuses, body-less only).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => shouldRetry(failureCount, error, 'GET'),
      retryDelay: RETRY_DELAY_MS,
      staleTime: 60_000,
      refetchOnWindowFocus: false,
    },
    mutations: {
      retry: (failureCount, error) => shouldRetry(failureCount, error, 'POST'),
      retryDelay: RETRY_DELAY_MS,
    },
  },
});

/**
 * Refetches the active queries under `queryKey` with a request that starts after this call, so
 * the answer includes every change committed before it (a Broadcast saying something changed,
 * a join that may have missed one). `invalidateQueries` alone does not promise that: while a
 * query's first fetch is still running (no data yet), TanStack Query hands the invalidation that
 * running fetch, which may have read before the change, and the change then stays unseen until
 * the next event (the unread badge of a tab that opened as a message arrived stayed empty).
 * Input: the client and a query key prefix. Output: resolves when the refetches settle (never
 * rejects; a failed refetch shows as the query's error).
 */
export async function refetchAfterChange(client: QueryClient, queryKey: readonly unknown[]): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
