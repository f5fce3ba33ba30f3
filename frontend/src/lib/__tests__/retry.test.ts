import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { shouldRetry } from '../retry';

describe('retry policy (spec §9)', () => {
  const retryable = [408, 409, 425, 429, 500, 502, 503, 504];

  it('retries body-less requests once on each listed status', () => {
    for (const status of retryable) {
      for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
        // TanStack Query passes 0 after the first failure, 1 after the second
        expect(shouldRetry(0, new ApiError('x', status, method)), `${method} ${status}`).toBe(true);
        expect(shouldRetry(1, new ApiError('x', status, method)), `${method} ${status} second`).toBe(false);
      }
    }
  });

  it('never retries methods with a body', () => {
    for (const status of retryable) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        expect(shouldRetry(0, new ApiError('x', status, method))).toBe(false);
      }
    }
  });

  it('does not retry other statuses', () => {
    for (const status of [400, 401, 403, 404, 406, 410, 422, 501, 505]) {
      expect(shouldRetry(0, new ApiError('x', status, 'GET')), String(status)).toBe(false);
    }
  });

  it('treats a missing response like a 500 of the fallback method', () => {
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, new ApiError('offline', 0, 'GET'))).toBe(true);
    expect(shouldRetry(0, new TypeError('Failed to fetch'), 'POST')).toBe(false);
  });
});

describe('retry policy inside the app query client', () => {
  it('fetches a failing GET exactly twice and runs a failing POST mutation once', async () => {
    const { queryClient } = await import('../query-client');
    let gets = 0;
    await queryClient
      .fetchQuery({
        queryKey: ['retry-test'],
        queryFn: async () => {
          gets++;
          throw new ApiError('busy', 503, 'GET');
        },
      })
      .catch(() => undefined);
    expect(gets).toBe(2);
    let posts = 0;
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: async () => {
        posts++;
        throw new ApiError('busy', 503, 'POST');
      },
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(posts).toBe(1);
  });
});
