import { axe } from './axe';
import { expect, type Page, test } from '@playwright/test';
import { expectStackUp, messages } from './support';
import { createUser, signInViaApi } from './accounts-support';

/** The site header shows the signed-in state (spec §2 header, §4 session, §5 sign-out). */

test.beforeAll(async () => {
  await expectStackUp();
});

const banner = (page: Page) => page.getByRole('banner');
const accountButton = (page: Page) => banner(page).getByTestId('account-menu');

/** axe-core: serious or critical violations of the header, the open account menu and the mobile navigation. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await axe(page)
    .include('header')
    .include('[role="menu"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const [locale, prefix] of [
  ['en', ''],
  ['de', '/de'],
] as const) {
  const t = messages[locale];
  test(`header follows sign-in and sign-out; the menu leads to settings (${locale})`, async ({ page }) => {
    const lastname = `Header${locale.toUpperCase()}`;
    const user = await createUser({ paid: true, firstname: 'Hanna', lastname });
    const name = `Hanna ${lastname}`;

    // signed out: Log in / Sign up, no account menu
    await page.goto(`${prefix}/prices`);
    await expect(banner(page).getByRole('link', { name: t['nav.login']!, exact: true })).toBeVisible();
    await expect(banner(page).getByRole('link', { name: t['nav.register']!, exact: true })).toBeVisible();
    await expect(accountButton(page)).toHaveCount(0);

    // signed in (session stored the way supabase-js keeps it), a reload restores it: never a "Log in" flash
    await signInViaApi(page, user.email);
    await page.addInitScript((loginHref) => {
      const w = window as unknown as { sawLogin: boolean };
      w.sawLogin = false;
      new MutationObserver(() => {
        if (document.querySelector(`header a[href="${loginHref}"]`)) w.sawLogin = true;
      }).observe(document, { subtree: true, childList: true });
    }, `${prefix}/login`);
    await page.goto(`${prefix}/prices`);
    await expect(accountButton(page)).toContainText(name);
    await expect(accountButton(page)).toHaveAccessibleName(t['nav.account.menu']!.replace('{name}', name));
    await expect(banner(page).getByRole('link', { name: t['nav.login']!, exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { sawLogin: boolean }).sawLogin)).toBe(false);

    // keyboard: open the menu, entries My area, Settings, Log out, no Administration for a normal user
    await accountButton(page).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: t['nav.account.myArea']! })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: t['nav.account.admin']! })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await expect(menu.getByRole('menuitem', { name: t['nav.account.myArea']! })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: t['userNav.chat']! })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: t['userNav.settings']! })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${prefix}/user/settings$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['page.user-settings.title']!.replace(' | {product}', ''));

    // sign out from the menu: /login replaces the settings entry (back skips it), the header is signed out again
    await accountButton(page).click();
    await page.getByRole('menu').getByRole('menuitem', { name: t['auth.signOut']! }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/login$`));
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${prefix}/prices$`));
    await expect(banner(page).getByRole('link', { name: t['nav.login']!, exact: true })).toBeVisible();
    await expect(accountButton(page)).toHaveCount(0);
  });
}

test('an admin sees the Administration entry, also in the mobile navigation', async ({ page }) => {
  const admin = await createUser({
    role: 'admin',
    firstname: 'Ada',
    lastname: 'Admin',
  });
  await signInViaApi(page, admin.email);
  await page.goto('/de/events');
  await accountButton(page).click();
  await page.getByRole('menu').getByRole('menuitem', { name: messages.de['nav.account.admin']! }).click();
  await expect(page).toHaveURL(/\/de\/admin$/);

  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/events');
  await expect(accountButton(page)).toBeHidden();
  await page.getByRole('button', { name: messages.en['nav.menu']! }).click();
  const drawer = page.getByRole('navigation', {
    name: messages.en['nav.mobile']!,
  });
  await expect(drawer).toContainText('Ada Admin');
  await expect(drawer.getByRole('link', { name: messages.en['nav.login']!, exact: true })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await drawer.getByRole('link', { name: messages.en['nav.account.admin']! }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('the header follows sign-in and sign-out in another tab', async ({ page, context }) => {
  const user = await createUser({ firstname: 'Tom', lastname: 'Tabs' });
  await page.goto('/events');
  await expect(banner(page).getByRole('link', { name: 'Log in', exact: true })).toBeVisible();

  const other = await context.newPage();
  await signInViaApi(other, user.email);
  await expect(accountButton(page)).toContainText('Tom Tabs');

  await other.goto('/events');
  await accountButton(other).click();
  await other.getByRole('menu').getByRole('menuitem', { name: 'Log out' }).click();
  await expect(other).toHaveURL(/\/login$/);
  await expect(banner(page).getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
  await expect(accountButton(page)).toHaveCount(0);
});
