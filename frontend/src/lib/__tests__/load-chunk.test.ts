// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RETRY_DELAY_MS, loadChunk } from '../load-chunk';

/** A chunk import that fails `failures` times (TypeError, as a failed module fetch does), then gives `value`. */
function flakyImport<T>(failures: number, value: T) {
  const load = vi.fn(async () => {
    if (load.mock.calls.length <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return value;
  });
  return load;
}

describe('loadChunk (issue 17: lazy chunks and a lost connection)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('offline: waits for the online event, then loads, however long the connection is gone', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const load = flakyImport(3, { default: 'module' });
    let settled = false;
    const loading = loadChunk(load).finally(() => (settled = true));
    for (let drop = 1; drop <= 3; drop++) {
      await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(drop));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // nothing happens until the browser says it is back
      expect(load).toHaveBeenCalledTimes(drop);
      expect(settled).toBe(false);
      window.dispatchEvent(new Event('online'));
    }
    onLine.mockReturnValue(true);
    await expect(loading).resolves.toEqual({ default: 'module' });
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('online: one more try after the pause, then the error reaches the error page', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    vi.useFakeTimers();
    const once = flakyImport(1, 'second try');
    const first = loadChunk(once);
    await vi.advanceTimersByTimeAsync(CHUNK_RETRY_DELAY_MS - 1);
    expect(once).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(first).resolves.toBe('second try');

    const gone = flakyImport(5, 'never');
    const second = loadChunk(gone);
    const rejected = expect(second).rejects.toThrow('Failed to fetch dynamically imported module');
    await vi.advanceTimersByTimeAsync(CHUNK_RETRY_DELAY_MS);
    await rejected;
    expect(gone).toHaveBeenCalledTimes(2);
  });

  it('a chunk that loads is imported once', async () => {
    const load = flakyImport(0, 42);
    await expect(loadChunk(load)).resolves.toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
