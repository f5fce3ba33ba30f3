import { expect, test, type Page } from '@playwright/test';
import { axe } from './axe';
import { ANON_KEY, collectErrors, expectStackUp, messages, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, linkFromMail, PASSWORD, signInViaApi, uniqueEmail } from './accounts-support';

/**
 * Issue 32 §5 and §6 in the browser: a free member is not stuck on the paywall (their account
 * page with password change, data export and deletion, reachable from the paywall, the menu and
 * the footer; menus without what they cannot open; previews of what a plan unlocks); admins create
 * users who can log in (confirmed) or who get the confirmation mail, edit names and see each
 * account's status.
 */

const service = nodeClient(SERVICE_ROLE_KEY);
/** Both people of the match preview: visible, in a city with "must have" place, so the count is theirs. */
const BAUTZEN = { city: 'Bautzen', latitude: 51.18035, longitude: 14.43494, profile_visibility: 1 };

test.beforeAll(async () => {
  await expectStackUp();
});

/** Logs in through the login page (English). */
async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Closes the cookie notice so it does not cover links and buttons at the bottom. */
async function dismissCookies(page: Page) {
  await page.getByTestId('cookie-notice').getByRole('button', { name: /^(Necessary only|Nur notwendige)$/ }).click();
}

test('a free member: paywall with previews → /user/account from the paywall and the menu → export → delete', async ({ page }) => {
  const errors = collectErrors(page);
  const t = messages.en;
  const free = await createUser({ firstname: 'Frieda', lastname: 'Free' });
  const partner = await createUser({ paid: true, firstname: 'Paul', lastname: 'Partner' });
  for (const id of [free.id, partner.id]) expect((await service.from('profiles').update(BAUTZEN).eq('id', id)).error).toBeNull();
  for (const [id, offered, sought] of [[free.id, 'design', 'sales_marketing'], [partner.id, 'sales_marketing', 'design']] as const) {
    const made = await service.from('match_profiles').insert({ user_id: id, is_primary: true, must_have: ['location'], radius_km: 5, roles_offered: [offered], roles_sought: [sought] });
    expect(made.error).toBeNull();
  }
  // the waiting contact request comes from someone else: people with a pending request are no
  // longer suggested as matches (private.match_excluded), so the partner stays a match
  const requester = await createUser({ paid: true, firstname: 'Rita', lastname: 'Request' });
  expect((await service.from('contacts').insert({ requester_id: requester.id, addressee_id: free.id, status: 'pending' })).error).toBeNull();
  const own = nodeClient(ANON_KEY);
  expect((await own.auth.signInWithPassword({ email: free.email, password: free.password })).error).toBeNull();
  const matchCount = ((await own.rpc('match_people')).data as { count: number }).count;
  expect(matchCount).toBeGreaterThanOrEqual(1);

  // log in: /user needs a plan (spec §6), so the paywall, now with what a plan would unlock
  await logIn(page, free.email, free.password);
  await expect(page).toHaveURL(/\/subscription-required$/);
  await dismissCookies(page);
  const preview = page.getByTestId('plan-preview');
  await expect(preview.getByTestId('preview-matches')).toHaveAttribute('data-count', String(matchCount));
  await expect(preview.getByTestId('preview-requests')).toHaveText('1 contact request is waiting for you.');

  // the account menu offers only what a free member can open
  await page.getByRole('banner').getByTestId('account-menu').click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: t['userNav.account']! })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: t['userNav.dashboard']! })).toBeVisible();
  for (const id of ['userNav.settings', 'userNav.chat', 'nav.account.myArea']) await expect(menu.getByRole('menuitem', { name: t[id]! })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // the paywall's link to the account page
  await page.getByTestId('paywall-account').getByRole('link', { name: t['subscriptionRequired.accountLink']! }).click();
  await expect(page).toHaveURL(/\/user\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: t['page.user-account.title']! })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(t['page.user-account.title']!));
  const nav = page.getByRole('navigation', { name: t['userNav.label']! });
  await expect(nav.getByRole('link', { name: t['userNav.account']! })).toBeVisible();
  for (const id of ['userNav.settings', 'userNav.chat', 'userNav.overview']) await expect(nav.getByRole('link', { name: t[id]! })).toHaveCount(0);
  await expect(page.getByTestId('plan-preview').getByTestId('preview-requests')).toHaveAttribute('data-count', '1');

  // the menu leads here too
  await page.goto('/dashboard');
  await page.getByRole('banner').getByTestId('account-menu').click();
  await page.getByRole('menu').getByRole('menuitem', { name: t['userNav.account']! }).click();
  await expect(page).toHaveURL(/\/user\/account$/);

  // DSGVO Art. 20: export
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: t['account.data.export']! }).click();
  const file = await download;
  const exported = JSON.parse(await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8')) as { profile: { email: string } };
  expect(exported.profile.email).toBe(free.email);

  // Art. 17: deletion
  await page.getByRole('button', { name: t['account.delete.open']!, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t['account.delete.title']! });
  await expect(dialog.getByTestId('delete-subscription-warning')).toHaveCount(0);
  await dialog.getByLabel(t['account.delete.typeEmail']!).fill(free.email);
  await dialog.getByRole('button', { name: t['account.delete.confirm']! }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page.locator('.notify-success', { hasText: t['account.delete.done']! })).toBeVisible();
  const gone = await service.auth.admin.getUserById(free.id);
  expect(gone.data.user).toBeNull();
  expect(errors.filter((e) => !/40[13]|Failed to load resource/.test(e))).toEqual([]);
});

test('a free member (de) reaches /de/user/account from the footer and changes the password there', async ({ page }) => {
  const t = messages.de;
  const free = await createUser({ firstname: 'Fritz', lastname: 'Frei' });
  await signInViaApi(page, free.email);
  await page.goto('/de/user/settings');
  await expect(page).toHaveURL(/\/de\/subscription-required$/);
  await dismissCookies(page);
  await page.getByRole('contentinfo').getByRole('link', { name: t['footer.account']! }).click();
  await expect(page).toHaveURL(/\/de\/user\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: t['page.user-account.title']! })).toBeVisible();
  await expect(page.getByTestId('plan-preview').getByTestId('preview-matches')).toBeVisible();
  const scan = await axe(page).include('#main').analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id), JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.html).slice(0, 4)]))).toEqual([]);
  const newPassword = 'Neues-Passwort-2026';
  await page.getByLabel(t['auth.field.newPassword']!).fill(newPassword);
  await page.getByLabel(t['auth.field.confirmPassword']!).fill(newPassword);
  await page.getByRole('button', { name: t['account.password.submit']! }).click();
  await expect(page.locator('.notify-success', { hasText: t['account.password.changed']! })).toBeVisible();
  const signIn = await nodeClient(ANON_KEY).auth.signInWithPassword({ email: free.email, password: newPassword });
  expect(signIn.error).toBeNull();
});

test('an admin creates a confirmed user who logs in, edits the name, and creates an unconfirmed one who gets the confirmation mail', async ({ page, browser }) => {
  // three browsers and a mail round trip
  test.setTimeout(120_000);
  const t = messages.en;
  const adminUser = await createUser({ role: 'admin' });
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(adminUser.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(adminUser.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await dismissCookies(page);
  await page.goto('/admin/users');

  const createUserInDialog = async (email: string, confirmed: boolean) => {
    await page.getByRole('button', { name: t['admin.users.create']! }).first().click();
    const create = page.getByRole('dialog', { name: t['admin.users.createTitle']! });
    await create.getByLabel(t['auth.field.firstname']!).fill('Clara');
    await create.getByLabel(t['auth.field.lastname']!).fill('Created');
    await create.getByRole('textbox', { name: t['auth.field.email']!, exact: true }).fill(email);
    await create.getByRole('textbox', { name: t['auth.field.password']!, exact: true }).fill(PASSWORD);
    const confirmedSwitch = create.getByRole('switch', { name: t['admin.users.createConfirmed']! });
    await expect(confirmedSwitch).toBeChecked();
    if (!confirmed) await confirmedSwitch.uncheck();
    await create.getByRole('button', { name: t['admin.users.create']! }).click();
    await expect(create).toBeHidden();
  };
  const rowOf = async (email: string) => {
    await page.getByLabel(t['admin.users.search']!).fill(email);
    const row = page.locator(`tr[data-email="${email}"]`);
    await expect(row).toBeVisible();
    return row;
  };

  // confirmed (the default): logs in at once
  const confirmedEmail = uniqueEmail('admin-confirmed');
  await createUserInDialog(confirmedEmail, true);
  await expect(page.locator('.notify-success', { hasText: t['admin.users.created']! })).toBeVisible();
  let row = await rowOf(confirmedEmail);
  await expect(row.getByTestId('account-status')).toHaveText(t['admin.users.active']!);
  const member = await browser.newContext();
  const memberPage = await member.newPage();
  await logIn(memberPage, confirmedEmail, PASSWORD);
  await expect(memberPage).toHaveURL(/\/subscription-required$/);
  await expect(memberPage.getByRole('banner').getByTestId('account-menu')).toContainText('Clara Created');
  await member.close();

  // the admin edits the name
  await row.getByRole('button', { name: `Actions for ${confirmedEmail}` }).click();
  await page.getByRole('menuitem', { name: t['admin.users.edit']! }).click();
  const edit = page.getByRole('dialog', { name: t['admin.users.editTitle']! });
  await edit.getByLabel(t['auth.field.firstname']!).fill('Carla');
  await edit.getByLabel(t['auth.field.lastname']!).fill('Renamed');
  await edit.getByRole('button', { name: t['account.settings.save']! }).click();
  await expect(row.getByText('Carla Renamed')).toBeVisible();
  const renamed = await service.from('profiles').select('firstname, lastname').eq('email', confirmedEmail).single();
  expect(renamed.data).toEqual({ firstname: 'Carla', lastname: 'Renamed' });

  // unconfirmed: the product's confirmation mail arrives; after confirming, the person logs in
  const mailEmail = uniqueEmail('admin-mail');
  await createUserInDialog(mailEmail, false);
  await expect(page.locator('.notify-success', { hasText: t['admin.users.createdMailSent']! })).toBeVisible();
  row = await rowOf(mailEmail);
  await expect(row.getByTestId('account-status')).toHaveText(t['admin.users.unconfirmed']!);
  const link = await linkFromMail(mailEmail, '/confirm-email?token=');
  const invited = await browser.newContext();
  const invitedPage = await invited.newPage();
  await logIn(invitedPage, mailEmail, PASSWORD);
  await expect(invitedPage.getByTestId('login-error')).toHaveText('Email is not confirmed. Please check your email.');
  await invitedPage.goto(link);
  await expect(invitedPage.getByTestId('confirm-result')).toHaveText(t['auth.confirmEmail.success']!);
  await logIn(invitedPage, mailEmail, PASSWORD);
  await expect(invitedPage).toHaveURL(/\/subscription-required$/);
  await invited.close();
  await page.reload();
  row = await rowOf(mailEmail);
  await expect(row.getByTestId('account-status')).toHaveText(t['admin.users.active']!);
});
