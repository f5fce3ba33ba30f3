import { expect, test } from '@playwright/test';
import { createUser, signInViaApi } from './accounts-support';
import { dismissCookies } from './billing-support';
import { ANON_KEY, dePath, messages, nodeClient, SERVICE_ROLE_KEY } from './support';

/**
 * The browser loses its network for 30 seconds (issue 17, the fault suite's browser part): in the
 * middle of a form and in the middle of a chat. The user sees that they are offline, nothing they
 * typed is lost, and the page recovers by itself when the connection is back.
 */

const OFFLINE_MS = 30_000;
const admin = nodeClient(SERVICE_ROLE_KEY);

test.describe.configure({ mode: 'serial' });

/** Makes `a` and `b` contacts (each asks the other: the second request accepts the first) and starts their conversation; its id. */
async function conversationBetween(a: { id: string; email: string; password: string }, b: { id: string; email: string; password: string }): Promise<string> {
  const [asA, asB] = [nodeClient(ANON_KEY), nodeClient(ANON_KEY)];
  await asA.auth.signInWithPassword({ email: a.email, password: a.password });
  await asB.auth.signInWithPassword({ email: b.email, password: b.password });
  expect((await asA.rpc('send_contact_request', { p_addressee_id: b.id, p_message: null })).error).toBeNull();
  expect((await asB.rpc('send_contact_request', { p_addressee_id: a.id, p_message: null })).error).toBeNull();
  const started = await asA.rpc('start_direct_conversation', { p_other_user_id: b.id });
  expect(started.error).toBeNull();
  return started.data as string;
}

test('a form while offline for 30 s (English): the notice shows, nothing typed is lost, saving works when back', async ({ page, context }) => {
  test.setTimeout(120_000);
  const user = await createUser({ paid: true, firstname: 'Ola', lastname: 'Offline' });
  await signInViaApi(page, user.email);
  await page.goto('/user/settings');
  await dismissCookies(page);
  await expect(page.getByLabel('Headline')).toBeVisible();
  await page.getByLabel('Headline').fill('Typed before the network went away');

  await context.setOffline(true);
  await expect(page.getByTestId('network-offline')).toHaveText(messages.en['common.offline']!);
  await page.getByLabel('City').fill('Dresden');
  // saving while offline waits (the button shows it is busy) instead of failing
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(save).toBeDisabled();
  await page.waitForTimeout(OFFLINE_MS);
  await expect(page.getByLabel('Headline')).toHaveValue('Typed before the network went away');
  await expect(page.getByLabel('City')).toHaveValue('Dresden');
  await expect(page.getByTestId('network-offline')).toBeVisible();
  const before = await admin.from('profiles').select('headline, city').eq('id', user.id).single();
  expect(before.data?.headline).not.toBe('Typed before the network went away');

  // back online: the notice says so, and the waiting save goes through by itself
  await context.setOffline(false);
  await expect(page.getByTestId('network-online')).toHaveText(messages.en['common.backOnline']!);
  await expect(page.getByTestId('network-offline')).toHaveCount(0);
  await expect(page.locator('.notify-success').first()).toHaveText('Your changes have been saved.');
  await expect(save).toBeEnabled();
  const saved = await admin.from('profiles').select('headline, city').eq('id', user.id).single();
  expect(saved.data).toEqual({ headline: 'Typed before the network went away', city: 'Dresden' });
  await expect(page.getByTestId('network-online')).toHaveCount(0, { timeout: 10_000 });
});

test('ein Chat, offline für 30 s (Deutsch): Hinweis, die Nachricht geht nach der Rückkehr von selbst raus, nichts fehlt, nichts doppelt', async ({ browser }) => {
  test.setTimeout(150_000);
  const anna = await createUser({ paid: true, firstname: 'Anna', lastname: 'Funkloch' });
  const ben = await createUser({ paid: true, firstname: 'Ben', lastname: 'Empfang' });
  const conversationId = await conversationBetween(anna, ben);
  const conversationUrl = dePath(`/user/chat/${conversationId}`);

  const open = async (who: { email: string; password: string }) => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await signInViaApi(page, who.email, who.password);
    await dismissCookies(page);
    await page.goto(conversationUrl);
    await expect(page.getByTestId('message-input')).toBeVisible();
    return { context, page };
  };
  const A = await open(anna);
  const pageErrors: string[] = [];
  A.page.on('pageerror', (e) => pageErrors.push(e.message));
  const B = await open(ben);

  await A.context.setOffline(true);
  await expect(A.page.getByTestId('network-offline')).toHaveText(messages.de['common.offline']!);
  await A.page.getByTestId('message-input').fill('Im Funkloch geschrieben');
  await A.page.getByTestId('message-input').press('Enter');
  await expect(A.page.getByTestId('retry-send')).toBeVisible();
  await B.page.getByTestId('message-input').fill('Während du weg warst');
  await B.page.getByTestId('message-input').press('Enter');
  await expect(B.page.getByTestId('message').filter({ hasText: 'Während du weg warst' })).toBeVisible();
  await A.page.waitForTimeout(OFFLINE_MS);
  // what Anna typed is still on her page, marked as not sent, and nothing crashed
  await expect(A.page.getByText('Im Funkloch geschrieben')).toBeVisible();
  await expect(A.page.getByTestId('retry-send')).toBeVisible();
  expect(pageErrors).toEqual([]);

  await A.context.setOffline(false);
  await expect(A.page.getByTestId('network-online')).toHaveText(messages.de['common.backOnline']!);
  // the failed message goes out by itself; what Ben wrote meanwhile arrives once
  await expect(B.page.getByTestId('message').filter({ hasText: 'Im Funkloch geschrieben' })).toHaveCount(1, { timeout: 20_000 });
  await expect(A.page.getByTestId('retry-send')).toHaveCount(0);
  await expect(A.page.getByTestId('message').filter({ hasText: 'Während du weg warst' })).toHaveCount(1, { timeout: 20_000 });
  await expect(A.page.getByTestId('message').filter({ hasText: 'Im Funkloch geschrieben' })).toHaveCount(1);
  const stored = await admin.from('messages').select('id').eq('conversation_id', conversationId).eq('body', 'Im Funkloch geschrieben');
  expect(stored.data).toHaveLength(1);
  // and the conversation is live again both ways
  await B.page.getByTestId('message-input').fill('Schön, dass du wieder da bist');
  await B.page.getByTestId('message-input').press('Enter');
  await expect(A.page.getByTestId('message').filter({ hasText: 'Schön, dass du wieder da bist' })).toHaveCount(1, { timeout: 15_000 });
  await A.context.close();
  await B.context.close();
});

test('the answer to a send is lost after the message was stored: the retry shows it once and stores it once (English)', async ({ browser }) => {
  const cleo = await createUser({ paid: true, firstname: 'Cleo', lastname: 'Cutoff' });
  const dan = await createUser({ paid: true, firstname: 'Dan', lastname: 'Delivered' });
  const conversationId = await conversationBetween(cleo, dan);

  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await signInViaApi(page, cleo.email, cleo.password);
  await dismissCookies(page);
  await page.goto(`/user/chat/${conversationId}`);
  await expect(page.getByTestId('message-input')).toBeVisible();
  // the first send reaches the database, but the connection drops before the answer arrives
  let cut = false;
  await page.route('**/rest/v1/messages?*', async (route) => {
    if (route.request().method() === 'POST' && !cut) {
      cut = true;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await page.getByTestId('message-input').fill('Stored, but the answer got lost');
  await page.getByTestId('message-input').press('Enter');
  await expect(page.getByTestId('retry-send')).toBeVisible();
  const body = 'Stored, but the answer got lost';
  const before = await admin.from('messages').select('id').eq('conversation_id', conversationId).eq('body', body);
  expect(before.data, 'the first try was stored although the page saw it fail').toHaveLength(1);
  await page.getByTestId('retry-send').click();
  await expect(page.getByTestId('retry-send')).toHaveCount(0);
  await expect(page.getByTestId('message').filter({ hasText: 'Stored, but the answer got lost' })).toHaveCount(1);
  const stored = await admin.from('messages').select('id').eq('conversation_id', conversationId).eq('body', 'Stored, but the answer got lost');
  expect(stored.data).toHaveLength(1);
  await page.reload();
  await expect(page.getByTestId('message').filter({ hasText: 'Stored, but the answer got lost' })).toHaveCount(1);
  await context.close();
});

test('a part of the page whose code is still on its way when the network goes (English): no error page, it appears when back', async ({ page, context }) => {
  const lina = await createUser({ paid: true, firstname: 'Lina', lastname: 'Lazyload' });
  const sender = await createUser({ paid: true, firstname: 'Sam', lastname: 'Sender' });
  const asSender = nodeClient(ANON_KEY);
  await asSender.auth.signInWithPassword({ email: sender.email, password: sender.password });
  expect((await asSender.rpc('send_contact_request', { p_addressee_id: lina.id, p_message: null })).error).toBeNull();
  await signInViaApi(page, lina.email);
  await dismissCookies(page);
  // the side navigation's count badges load once the plan check has answered: their chunk is held
  // until the browser is offline and then fails as a request does offline
  let requested = (): void => undefined;
  const badgeRequested = new Promise<void>((resolve) => (requested = resolve));
  let offline = (): void => undefined;
  const wentOffline = new Promise<void>((resolve) => (offline = resolve));
  let failed = (): void => undefined;
  const badgeFailed = new Promise<void>((resolve) => (failed = resolve));
  let fetches = 0;
  await page.route(/\/assets\/nav-count-badge-[^/]*\.js$/, async (route) => {
    fetches += 1;
    if (fetches > 1) return route.continue();
    requested();
    await wentOffline;
    await route.abort('internetdisconnected');
    failed();
  });
  await page.goto('/user/settings');
  await badgeRequested;
  await context.setOffline(true);
  offline();
  await badgeFailed;
  await expect(page.getByTestId('network-offline')).toHaveText(messages.en['common.offline']!);
  // the page stays usable while the part waits for the connection (it used to end on the 500 page)
  await page.getByLabel('Headline').fill('Still here', { timeout: 10_000 });
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0);
  expect(fetches).toBe(1);

  await context.setOffline(false);
  await expect(page.getByTestId('nav-badge-contacts')).toHaveText('1');
  expect(fetches).toBe(2);
  await expect(page.getByLabel('Headline')).toHaveValue('Still here');
});
