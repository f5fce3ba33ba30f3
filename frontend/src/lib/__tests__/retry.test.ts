import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { shouldRetry } from '../retry';

describe('retry policy (spec §9)', () => {
  const retryable = [408, 409, 425, 429, 500, 502, 503, 504];

  it('retries body-less requests once on each listed status', () => {
    for (const status of retryable) {
      for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
        expect(shouldRetry(1, new ApiError('x', status, method)), `${method} ${status}`).toBe(true);
        expect(shouldRetry(2, new ApiError('x', status, method)), `${method} ${status} second`).toBe(false);
      }
    }
  });

  it('never retries methods with a body', () => {
    for (const status of retryable) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        expect(shouldRetry(1, new ApiError('x', status, method))).toBe(false);
      }
    }
  });

  it('does not retry other statuses', () => {
    for (const status of [400, 401, 403, 404, 406, 410, 422, 501, 505]) {
      expect(shouldRetry(1, new ApiError('x', status, 'GET')), String(status)).toBe(false);
    }
  });

  it('treats a missing response like a 500 of the fallback method', () => {
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(1, new ApiError('offline', 0, 'GET'))).toBe(true);
    expect(shouldRetry(1, new TypeError('Failed to fetch'), 'POST')).toBe(false);
  });
});
