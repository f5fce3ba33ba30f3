import { expect, test, type Page } from '@playwright/test';
import { axe } from './axe';
import { expectStackUp, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, signInViaApi } from './accounts-support';

/** Premium profile settings (spec §6, issue 7): premium users style their public profile; others get the upgrade explanation. */
const admin = nodeClient(SERVICE_ROLE_KEY);

/** No serious or critical axe-core violations in the main region. */
async function expectAccessible(page: Page) {
  const scan = await axe(page).include('#main').analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id), JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.html).slice(0, 4)]))).toEqual([]);
}

test.beforeAll(async () => {
  await expectStackUp();
});

test('premium user sets accent, tagline and featured project; a visitor sees them on /u/{slug}', async ({ page, browser }) => {
  const user = await createUser({ paid: true, role: 'premium', firstname: 'Petra', lastname: 'Premium' });
  const title = `Solargarten Leipzig ${Date.now()}`;
  const created = await admin
    .from('projects')
    .insert({ owner_id: user.id, title, slug: 'solargarten-leipzig', summary: 'Gemeinschaftsgarten mit Solardach', category: 'environment', status: 'published', published_at: new Date().toISOString() })
    .select('id')
    .single();
  expect(created.error).toBeNull();
  const { data: profile } = await admin.from('profiles').select('slug').eq('id', user.id).single();

  await signInViaApi(page, user.email);
  await page.goto('/user/settings');
  const form = page.getByTestId('premium-profile-form');
  await expect(form.getByRole('radio', { name: 'Teal' })).toBeVisible();
  await expectAccessible(page);
  await form.getByRole('radio', { name: 'Teal' }).check();
  await form.getByLabel('Tagline').fill('Ich verbinde Menschen mit Ideen');
  await form.getByRole('combobox', { name: 'Featured project' }).click();
  await page.getByRole('option', { name: title }).click();
  await form.getByRole('button', { name: 'Save premium settings' }).click();
  await expect(page.locator('.notify-success').first()).toHaveText('Premium settings saved.');
  const saved = await admin.from('profiles').select('profile_accent, profile_tagline, featured_project_id, show_premium_badge').eq('id', user.id).single();
  expect(saved.data).toEqual({ profile_accent: 'teal', profile_tagline: 'Ich verbinde Menschen mit Ideen', featured_project_id: created.data!.id, show_premium_badge: true });

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/u/${profile!.slug}`);
  await expect(visitor.getByTestId('premium-tagline')).toHaveText('Ich verbinde Menschen mit Ideen');
  await expect(visitor.getByTestId('premium-badge')).toHaveText('Premium');
  await expect(visitor.getByTestId('public-profile')).toHaveAttribute('data-accent', 'teal');
  await expect(visitor.getByTestId('featured-project').getByRole('link', { name: title })).toBeVisible();
  await expectAccessible(visitor);

  // After a downgrade the stored settings stay but the public profile ignores them.
  await admin.from('profiles').update({ user_role: 'basic' }).eq('id', user.id);
  await visitor.reload();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Petra Premium' })).toBeVisible();
  await expect(visitor.getByTestId('premium-tagline')).toHaveCount(0);
  await expect(visitor.getByTestId('featured-project')).toHaveCount(0);
  await visitorContext.close();
});

test('basic user sees the upgrade explanation instead of the form (de)', async ({ page }) => {
  const user = await createUser({ paid: true, role: 'basic', firstname: 'Bodo', lastname: 'Basis' });
  await signInViaApi(page, user.email);
  await page.goto('/de/user/settings');
  const upsell = page.getByTestId('premium-profile-upsell');
  await expect(upsell).toContainText('Premium-Profil');
  await expect(upsell).toContainText('sind in den Tarifen Premium und Enterprise enthalten');
  await expect(upsell.getByRole('link', { name: 'Tarife ansehen und upgraden' })).toHaveAttribute('href', '/de/prices');
  await expect(page.getByTestId('premium-profile-form')).toHaveCount(0);
});
