import { lazy } from 'react';

/** Pause before the one retry of a chunk that failed while the browser was online, in milliseconds. */
export const CHUNK_RETRY_DELAY_MS = 1_000;

/** Resolves on the window's next `online` event. */
function nextOnline(): Promise<void> {
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * Loads a lazy chunk (a dynamic import) so that a lost connection does not take the page down
 * (issue 17: a chunk requested while the browser was offline used to end on the 500 page, e.g.
 * the user area's count badges, which load once the plan check has answered).
 *
 * - The import fails while the browser is offline (`navigator.onLine` false, at the failure or
 *   by then): it waits for the window's `online` event and tries again, as often as the
 *   connection drops. Until then the caller's Suspense fallback or pending navigation stays.
 * - It fails while online: one more try after CHUNK_RETRY_DELAY_MS (a request lost on a flaky
 *   network), then the error is thrown (a chunk gone after a deploy, a bug), and the error page
 *   shows it.
 *
 * Browsers do not keep a failed dynamic import: calling `load` again fetches the chunk again.
 * @param load the import, e.g. `() => import('./side-nav')`
 * @returns the module
 * @throws the import's error when it failed twice while online
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  for (let online = 0; ; ) {
    try {
      return await load();
    } catch (error) {
      if (!navigator.onLine) {
        await nextOnline();
        continue;
      }
      if (++online > 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, CHUNK_RETRY_DELAY_MS));
    }
  }
}

/**
 * `React.lazy` whose chunk loads through loadChunk: offline, the Suspense fallback stays until
 * the connection is back and the component then renders, instead of the error page.
 * @param factory the import of a module whose `default` is the component
 * @returns the lazy component (the same type React.lazy returns)
 */
export const lazyChunk: typeof lazy = (factory) => lazy(() => loadChunk(factory));
