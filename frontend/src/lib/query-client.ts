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
