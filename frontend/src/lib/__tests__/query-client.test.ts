import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterChange } from '../query-client';

/** A counter standing in for the server: each fetch reads it when it starts and answers later. */
function setup() {
  const server = { unread: 0, started: 0 };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const queryFn = async ({ signal }: { signal: AbortSignal }) => {
    server.started += 1;
    const read = server.unread; // read before the change below is committed
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 50);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
    return read;
  };
  const observer = new QueryObserver(client, { queryKey: ['chat', 'unread'], queryFn });
  const seen: (number | undefined)[] = [];
  const unsubscribe = observer.subscribe((r) => seen.push(r.data));
  return { server, client, observer, seen, unsubscribe };
}

describe('refetchAfterChange', () => {
  it('a change announced during the first fetch is fetched again (invalidateQueries alone keeps the stale answer)', async () => {
    const plain = setup();
    plain.server.unread = 1;
    await plain.client.invalidateQueries({ queryKey: ['chat'] });
    await new Promise((r) => setTimeout(r, 120));
    // the shortcoming this helper exists for: the invalidation joined the first fetch
    expect(plain.observer.getCurrentResult().data).toBe(0);
    plain.unsubscribe();

    const fixed = setup();
    fixed.server.unread = 1;
    await refetchAfterChange(fixed.client, ['chat']);
    expect(fixed.observer.getCurrentResult().data).toBe(1);
    expect(fixed.server.started).toBe(2);
    fixed.unsubscribe();
  });

  it('with data already there it refetches once and keeps showing the data meanwhile', async () => {
    const t = setup();
    await new Promise((r) => setTimeout(r, 120));
    expect(t.observer.getCurrentResult().data).toBe(0);
    t.server.unread = 2;
    const done = refetchAfterChange(t.client, ['chat']);
    expect(t.observer.getCurrentResult().data).toBe(0);
    await done;
    expect(t.observer.getCurrentResult().data).toBe(2);
    expect(t.server.started).toBe(2);
    // no blank in between: once there, the data stays shown until the new answer replaces it
    expect(t.seen.slice(t.seen.indexOf(0))).not.toContain(undefined);
    t.unsubscribe();
  });
});
