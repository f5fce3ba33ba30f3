import { expect, test } from '@playwright/test';
import { admin, createUser, useSession } from './content-events-support';

/**
 * The unread badge of a tab that opens while a message arrives (issue 13; lib/query-client.ts,
 * refetchAfterChange). The tab's first unread count is answered by the server before the message
 * and held in the browser until the tab has joined its user channel and received the message's
 * `inbox` Broadcast. The badge must still come to show the message: the join and the Broadcast
 * each fetch the count again with a request of their own. (An invalidation during a query's
 * first fetch is handed to that fetch, which read before the message: the badge stayed empty.)
 */
test('a message arriving while the tab reads its first unread count still shows in the badge', async ({ page }) => {
  const anna = await createUser('premium', 'Anna');
  const ben = await createUser('premium', 'Ben');
  const linked = await admin().from('contacts').insert({ requester_id: ben.id, addressee_id: anna.id, status: 'accepted', responded_at: new Date().toISOString() });
  expect(linked.error).toBeNull();
  const started = await ben.client.rpc('start_direct_conversation', { p_other_user_id: anna.id });
  expect(started.error).toBeNull();

  // the user channel's frames as the browser receives them (text or binary: the topic and event names are plain)
  const topic = `realtime:user:${anna.id}`;
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('latin1'))));
  const joined = () => frames.some((f) => f.includes(topic) && f.includes('phx_reply'));
  const inboxReceived = () => frames.some((f) => f.includes(topic) && f.includes('inbox'));

  // the first count: answered by the server at once (0), handed to the page only when released
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstRead!: () => void;
  const read = new Promise<void>((resolve) => (firstRead = resolve));
  let calls = 0;
  await page.route('**/rest/v1/rpc/unread_message_total', async (route) => {
    calls += 1;
    if (calls > 1) return route.continue();
    const response = await route.fetch();
    firstRead();
    await released;
    await route.fulfill({ response }).catch(() => undefined); // the page may have given up on it
  });

  await useSession(page, anna);
  await page.goto('/user');
  await read;
  await expect.poll(joined, { message: 'the tab joined its user channel' }).toBe(true);

  const sent = await ben.client.from('messages').insert({ conversation_id: started.data as string, sender_id: ben.id, body: 'Are you there, Anna?' });
  expect(sent.error).toBeNull();
  await expect.poll(inboxReceived, { message: 'the inbox Broadcast reached the tab' }).toBe(true);
  release();

  await expect(page.getByTestId('account-unread-badge')).toContainText('1');
  await expect(page).toHaveTitle(/^\(1\) /);
});
