import { expect, test } from '@playwright/test';
import { axe } from './axe';
import { expectStackUp, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, PASSWORD, signInViaApi, uniqueEmail } from './accounts-support';

test.beforeAll(async () => {
  await expectStackUp();
});

test('settings: change a field, upload an avatar; /user shows the name and completeness', async ({ page }) => {
  const user = await createUser({ paid: true, firstname: 'Sina', lastname: 'Setting' });
  await signInViaApi(page, user.email);
  await page.goto('/user/settings');
  await expect(page.getByLabel('Headline')).toBeVisible();
  const scan = await axe(page).include('#main').analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id), JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.html).slice(0, 4)]))).toEqual([]);
  await page.getByLabel('Headline').fill('Maker of things');
  await page.getByLabel('City').fill('Leipzig');
  await page.getByLabel('LinkedIn').fill('not a link');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Please enter a link starting with https://')).toBeVisible();
  await page.getByLabel('LinkedIn').fill('https://www.linkedin.com/in/sina');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.notify-success').first()).toHaveText('Your changes have been saved.');
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const saved = await admin.from('profiles').select('headline, city, social_links').eq('id', user.id).single();
  expect(saved.data).toEqual({ headline: 'Maker of things', city: 'Leipzig', social_links: { linkedin: 'https://www.linkedin.com/in/sina' } });

  // a 640×320 PNG drawn by the browser: the avatar is cropped to a square and re-encoded at 512 px
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 320;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#c00';
    ctx.fillRect(0, 0, 640, 320);
    return canvas.toDataURL('image/png');
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload picture' }).click();
  await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(dataUrl.split(',')[1]!, 'base64') });
  await expect(page.locator('.notify-success', { hasText: 'Profile picture saved.' })).toBeVisible();
  const withImg = await admin.from('profiles').select('profile_img').eq('id', user.id).single();
  const path = (withImg.data as { profile_img: string }).profile_img;
  expect(path.startsWith(`${user.id}/`)).toBe(true);
  const stored = await admin.storage.from('avatars').download(path);
  expect(stored.error).toBeNull();
  expect(['image/webp', 'image/jpeg']).toContain(stored.data!.type);
  await expect(page.getByTestId('settings-avatar').locator('img')).toHaveAttribute('src', new RegExp(path.split('/')[1]!));

  // wrong type is refused before upload
  const chooser2 = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload picture' }).click();
  await (await chooser2).setFiles({ name: 'x.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.locator('.notify-error', { hasText: 'Please choose a JPEG, PNG or WebP image.' })).toBeVisible();


  await page.goto('/user');
  await expect(page.getByTestId('greeting')).toHaveText('Hello, Sina Setting!');
  await expect(page.getByText(/Your profile is \d+% complete/)).toBeVisible();
});

test('block a user from their public profile, then unblock', async ({ page }) => {
  const me = await createUser({ paid: true });
  const other = await createUser({ firstname: 'Bodo', lastname: 'Blockiert' });
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const { data } = await admin.from('profiles').select('slug').eq('id', other.id).single();
  const slug = (data as { slug: string }).slug;
  await signInViaApi(page, me.email);
  await page.goto(`/u/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bodo Blockiert');
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  await page.getByRole('button', { name: 'Block user' }).click();
  await expect(page.getByTestId('blocked-notice')).toBeVisible();
  const blocks = await admin.from('user_blocks').select('blocked_id').eq('blocker_id', me.id);
  expect(blocks.data).toEqual([{ blocked_id: other.id }]);
  await page.getByRole('button', { name: 'Unblock' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bodo Blockiert');
  // the notice goes as soon as the click is handled; the delete may land a moment later
  await expect.poll(async () => (await admin.from('user_blocks').select('blocked_id').eq('blocker_id', me.id)).data).toEqual([]);
  // own profile: no block button
  const mine = await admin.from('profiles').select('slug').eq('id', me.id).single();
  await page.goto(`/u/${(mine.data as { slug: string }).slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Block', exact: true })).toHaveCount(0);
});

test('admin login: non-admins are refused; admins manage users (search, edit role, suspend, delete)', async ({ page }) => {
  const plain = await createUser({ role: 'free' });
  const adminUser = await createUser({ role: 'admin' });
  const target = await createUser({ firstname: 'Tara', lastname: 'Target' });
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(plain.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(plain.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('This login is for administrators only.');
  await page.getByLabel('E-mail').fill(adminUser.email);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('link', { name: 'User management' }).last().click();
  await page.getByLabel('Search by name or e-mail').fill(target.email);
  const row = page.locator(`tr[data-email="${target.email}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await row.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Premium' }).click();
  await page.getByRole('switch', { name: 'Suspended' }).check();
  await page.getByLabel('Reason for the suspension').fill('Spam');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByText('Suspended')).toBeVisible();
  await expect(row.getByText('Premium')).toBeVisible();
  const svc = nodeClient(SERVICE_ROLE_KEY);
  const susp = await svc.from('account_suspensions').select('reason').eq('user_id', target.id);
  expect(susp.data).toEqual([{ reason: 'Spam' }]);
  await row.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No users found.')).toBeVisible();
  const gone = await svc.auth.admin.getUserById(target.id);
  expect(gone.data.user).toBeNull();

  // create a confirmed user with a role
  const newEmail = uniqueEmail('admin-created');
  await page.getByRole('button', { name: 'Create user' }).click();
  const create = page.getByRole('dialog', { name: 'Create user' });
  await create.getByLabel('First name').fill('Neu');
  await create.getByLabel('Last name').fill('Angelegt');
  await create.getByLabel('E-mail').fill(newEmail);
  await create.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(page.locator('.notify-success', { hasText: 'The user has been created.' })).toBeVisible();
  const made = await svc.from('profiles').select('firstname, authenticated, user_role').eq('email', newEmail).single();
  expect(made.data).toEqual({ firstname: 'Neu', authenticated: 1, user_role: 'free' });
});

test('DSGVO: export my data as JSON, then delete the account after typing the e-mail', async ({ page }) => {
  const user = await createUser({ paid: true, firstname: 'Dora', lastname: 'Delete' });
  await signInViaApi(page, user.email);
  await page.goto('/de/user/settings');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Meine Daten herunterladen (JSON)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^teamwerk-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8')) as { profile: { email: string } };
  expect(exported.profile.email).toBe(user.email);

  await page.getByRole('button', { name: 'Konto löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Konto löschen?' });
  const confirm = dialog.getByRole('button', { name: 'Konto endgültig löschen' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Geben Sie zur Bestätigung Ihre E-Mail-Adresse ein').fill('wrong@example.com');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Geben Sie zur Bestätigung Ihre E-Mail-Adresse ein').fill(user.email);
  await confirm.click();
  await expect(page).toHaveURL(/\/de$/);
  await expect(page.locator('.notify-success', { hasText: 'Ihr Konto wurde gelöscht.' })).toBeVisible();
  const gone = await nodeClient(SERVICE_ROLE_KEY).auth.admin.getUserById(user.id);
  expect(gone.data.user).toBeNull();
});
