import { expect, test, type Browser } from '@playwright/test';
import { expectStackUp, messages, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, signInViaApi } from './accounts-support';

/**
 * Analytics (issue 15): visits made in the test appear in the owner's /user/analytics, in English
 * and German. Visitors count only after allowing statistics cookies, once per network address and
 * day (so every browser of this machine is one visitor);
 * "Necessary only" sends nothing. Headless Chromium names itself "HeadlessChrome", which the
 * database does not count (bots, checked once here), so the other visitors present ordinary
 * desktop browsers.
 * Free users see the upgrade path.
 */
const admin = nodeClient(SERVICE_ROLE_KEY);
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

test.beforeAll(async () => {
  await expectStackUp();
});

/**
 * Opens `path` as a fresh visitor with the given browser and cookie choice; returns what the
 * tracking call answered, or null when none was made.
 */
async function visit(browser: Browser, path: string, userAgent: string | undefined, choice: 'acceptAll' | 'necessaryOnly', locale: 'en' | 'de'): Promise<string | null> {
  const context = await browser.newContext({ ...(userAgent ? { userAgent } : {}), locale: locale === 'de' ? 'de-DE' : 'en-US' });
  const page = await context.newPage();
  const calls: Promise<string>[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/rpc/analytics_track')) calls.push(r.json() as Promise<string>);
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('button', { name: messages[locale][`cookies.${choice}`]!, exact: true }).click();
  if (choice === 'acceptAll') await expect.poll(() => calls.length).toBe(1);
  else await page.waitForTimeout(500);
  const answer = calls.length ? await calls[0]! : null;
  await context.close();
  return answer;
}

test('visits made in the test appear in the owner\'s analytics (en + de); no consent, no count', async ({ browser }) => {
  const owner = await createUser({ paid: true, role: 'premium', firstname: 'Ada', lastname: 'Analyse' });
  const title = `Analysegarten ${Date.now()}`;
  const created = await admin
    .from('projects')
    .insert({ owner_id: owner.id, title, slug: 'analysegarten', summary: 'Zählt Besuche', category: 'environment', status: 'published', published_at: new Date().toISOString() })
    .select('id')
    .single();
  expect(created.error).toBeNull();
  const id = created.data!.id as number;

  expect(await visit(browser, `/${id}-analysegarten`, CHROME, 'acceptAll', 'en')).toBe('counted');
  // the same browser again the same day, or another browser from the same network address (the user
  // agent is the client's to choose; issue 31 §6): not a second visitor
  expect(await visit(browser, `/${id}-analysegarten`, CHROME, 'acceptAll', 'en')).toBe('duplicate');
  expect(await visit(browser, `/de/${id}-analysegarten`, FIREFOX, 'acceptAll', 'de')).toBe('duplicate');
  expect(await visit(browser, `/${id}-analysegarten`, EDGE, 'necessaryOnly', 'en')).toBeNull();
  // headless Chromium as it comes ("HeadlessChrome"): a bot
  expect(await visit(browser, `/${id}-analysegarten`, undefined, 'acceptAll', 'en')).toBe('bot');

  const ownerContext = await browser.newContext({ userAgent: CHROME });
  const page = await ownerContext.newPage();
  await signInViaApi(page, owner.email);
  await page.goto('/user/analytics');
  await expect(page.getByRole('heading', { level: 1, name: messages.en['page.user-analytics.title'] })).toBeVisible();
  const row = page.locator(`[data-testid="analytics-item"][data-item="project:${id}"]`);
  await expect(row.getByRole('link', { name: title })).toBeVisible();
  await expect(row.getByTestId('analytics-item-view')).toHaveText('1');
  await expect(page.getByTestId('analytics-total-view')).toHaveText('1');
  await expect(page.getByTestId('analytics-chart-views').locator('svg.recharts-surface').first()).toBeVisible();
  // the owner's own visit of the project is not counted
  const ownCall = page.waitForResponse((r) => r.url().includes('/rpc/analytics_track'));
  await page.goto(`/${id}-analysegarten`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.getByRole('button', { name: messages.en['cookies.acceptAll']!, exact: true }).click();
  expect(await (await ownCall).json()).toBe('own_item');

  await page.goto('/de/user/analytics');
  await expect(page.getByRole('heading', { level: 1, name: messages.de['page.user-analytics.title'] })).toBeVisible();
  await row.getByRole('button', { name: messages.de['analytics.items.show'] }).click();
  await expect(page.getByTestId('analytics-total-view')).toHaveText('1');
  const download = page.waitForEvent('download');
  await page.getByTestId('analytics-csv').click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text;
  });
  const today = csv.trim().split('\r\n').at(-1)!.split(',').map((field) => field.replace(/^"(.*)"$/, '$1'));
  expect(today.slice(0, 2)).toEqual(['project', String(id)]);
  expect(today[4]).toBe('1');
  await ownerContext.close();
});

test('free users see the upgrade path', async ({ page }) => {
  const user = await createUser({ firstname: 'Frida', lastname: 'Frei' });
  await signInViaApi(page, user.email);
  await page.goto('/user/analytics');
  await expect(page.getByTestId('analytics-upgrade')).toContainText(messages.en['analytics.upgrade.title']!);
  await expect(page.getByTestId('analytics-upgrade').getByRole('link', { name: messages.en['analytics.upgrade.cta'] })).toBeVisible();
});
