import { expect, test } from '@playwright/test';
import { expectStackUp, messages } from './support';
import { createUser, signInViaApi } from './accounts-support';

test.beforeAll(async () => {
  await expectStackUp();
});

for (const [locale, prefix, text] of [
  ['en', '', 'You have been logged out due to inactivity.'],
  ['de', '/de', 'Sie wurden wegen Inaktivität abgemeldet.'],
] as const) {
  test(`auto-logout after 30 minutes without activity (${locale})`, async ({ page }) => {
    const user = await createUser({ paid: true });
    await page.clock.install();
    await signInViaApi(page, user.email);
    await page.goto(`${prefix}/user`);
    await expect(page.getByTestId('greeting')).toBeVisible(); // the shell is mounted: the countdown runs
    // activity after 29 minutes restarts the 30-minute countdown
    await page.clock.fastForward('29:00');
    await page.mouse.down();
    await page.mouse.up();
    await page.clock.fastForward(400); // mouse presses count after a 300 ms debounce
    await page.clock.fastForward('29:00');
    await expect(page).toHaveURL(new RegExp(`${prefix}/user$`));
    await page.clock.fastForward('01:10');
    await expect(page).toHaveURL(new RegExp(`${prefix}/login$`));
    await expect(page.locator('.notify-info').first()).toHaveText(text);
    expect(await page.evaluate(() => localStorage.getItem('teamwerk.freshLoginRequired'))).toBe('1');
  });
}

test('sign-out clears cookies, sets the fresh-login flag, and back stays on /login', async ({ page, context }) => {
  const user = await createUser({ paid: true });
  await signInViaApi(page, user.email);
  await page.goto('/user/settings');
  await page.goto('/user');
  await context.addCookies([{ name: 'some_cookie', value: '1', url: page.url() }]);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).map((c) => c.name)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('teamwerk.freshLoginRequired'))).toBe('1');
  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack().catch(() => undefined);
  await expect(page).toHaveURL(/\/login$/);
});

test('another tab follows a sign-out', async ({ page, context }) => {
  const user = await createUser({ paid: true });
  await signInViaApi(page, user.email);
  await page.goto('/user');
  const other = await context.newPage();
  await other.goto('/user/settings');
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Settings');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(other).toHaveURL(/\/login$/);
});

test('a login page in another tab follows a sign-in; /confirm asks for a new link', async ({ page, context }) => {
  const user = await createUser({ paid: true });
  const other = await context.newPage();
  await other.goto('/login');
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Log in');
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(other).toHaveURL(/\/user$/);

  await other.goto('/confirm');
  await other.getByLabel('E-mail').fill('nobody@example.com');
  await other.getByRole('button', { name: 'Send new link' }).click();
  await expect(other.getByText('If an unconfirmed account exists for this address, a new link is on its way.')).toBeVisible();
});

test('typing and moving between pages count as activity (issue 33 §15)', async ({ page }) => {
  const user = await createUser({ paid: true });
  await page.clock.install();
  await signInViaApi(page, user.email);
  await page.goto('/user');
  await expect(page.getByTestId('greeting')).toBeVisible();
  // a key press after 29 minutes restarts the countdown (someone typing a long message)
  await page.clock.fastForward('29:00');
  await page.keyboard.press('Shift');
  await page.clock.fastForward(400); // debounced like mouse presses
  await page.clock.fastForward('29:00');
  await expect(page).toHaveURL(/\/user$/);
  // an in-app navigation (no mouse, no key) restarts it too
  await page.evaluate(() => {
    window.history.pushState({}, '', '/user/settings');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/user\/settings$/);
  // the navigation counts once it has finished (the page's module and data loaded), which on a busy
  // machine came after the next fast-forward in one fresh-clone run: wait for the page first
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.en['page.user-settings.title']!);
  await page.clock.fastForward('29:00');
  await expect(page).toHaveURL(/\/user\/settings$/);
  await page.clock.fastForward('01:10');
  await expect(page).toHaveURL(/\/login$/);
});

test('after a sign-out, Google is asked to let the person choose the account (fresh-login flag, spec §4)', async ({ page }) => {
  await page.goto('/login');
  const authorize = (async () => {
    const request = await page.waitForRequest((r) => r.url().includes('/auth/v1/authorize'));
    return new URL(request.url()).searchParams.get('prompt');
  })();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  expect(await authorize).toBeNull();

  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('teamwerk.freshLoginRequired', '1'));
  const fresh = (async () => {
    const request = await page.waitForRequest((r) => r.url().includes('/auth/v1/authorize'));
    return new URL(request.url()).searchParams.get('prompt');
  })();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  expect(await fresh).toBe('select_account');
});
