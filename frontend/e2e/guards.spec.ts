import { expect, type Page, test } from '@playwright/test';
import { ANON_KEY, apiUrl, collectErrors, expectStackUp, grantActiveSubscription, nodeClient, SERVICE_ROLE_KEY } from './support';

/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
const storageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;

/** Creates a confirmed user with the given role through the admin API and returns a fresh session. */
async function userWithRole(role: 'free' | 'premium') {
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const email = `spa-${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'Correct-Horse-42';
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { firstname: 'Spa', lastname: 'Test' } });
  expect(created.error).toBeNull();
  const userId = created.data.user!.id;
  const updated = await admin.from('profiles').update({ user_role: role }).eq('id', userId).select('user_role').single();
  expect(updated.error).toBeNull();
  expect(updated.data?.user_role).toBe(role);
  if (role !== 'free') await grantActiveSubscription(admin, userId, role);
  const anon = nodeClient(ANON_KEY);
  const signedIn = await anon.auth.signInWithPassword({ email, password });
  expect(signedIn.error).toBeNull();
  return { userId, session: signedIn.data.session! };
}

async function storeSession(page: Page, session: unknown) {
  await page.goto('/ueber-teamwerk');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKey, JSON.stringify(session)]);
}

test.describe('logged out (spec §2: any /user path → /login)', () => {
  test('direct visits of /user paths land on /login in the same language', async ({ page }) => {
    const errors = collectErrors(page);
    for (const [from, to] of [
      ['/user', '/login'],
      ['/user/chat', '/login'],
      ['/user/feedback', '/login'],
      ['/user/projects/create-project-3', '/login'],
      ['/de/user/settings', '/de/login'],
      ['/user/unknown/page', '/login'],
    ]) {
      await page.goto(from!);
      await expect(page).toHaveURL(new RegExp(`${to}$`));
      await expect(page).toHaveTitle(/Log in|Anmelden/);
    }
    expect(errors).toEqual([]);
  });

  test('/dashboard goes to /login', async ({ page }) => {
    await page.goto('/de/dashboard');
    await expect(page).toHaveURL(/\/de\/login$/);
  });

  test('the back button cannot reopen a /user page after the session ended', async ({ page }) => {
    await expectStackUp();
    const { session } = await userWithRole('premium');
    await storeSession(page, session);
    await page.goto('/user');
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My area');
    // in-app navigation away, then the session disappears (sign-out in another tab)
    await page.getByRole('banner').getByRole('link', { name: 'Prices' }).first().click();
    await expect(page).toHaveURL(/\/prices$/);
    await page.evaluate(() => localStorage.clear());
    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    // and with full page loads (back/forward cache)
    await storeSession(page, session);
    await page.goto('/user/feedback');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Feedback');
    await page.goto('/impressum');
    await page.evaluate(() => localStorage.clear());
    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('signed in', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('payment-required sends a free user to /subscription-required; auth-only pages open', async ({ page }) => {
    const errors = collectErrors(page);
    const { session } = await userWithRole('free');
    await storeSession(page, session);
    await page.goto('/user');
    await expect(page).toHaveURL(/\/subscription-required$/);
    await page.goto('/de/user/chat');
    await expect(page).toHaveURL(/\/de\/subscription-required$/);
    await page.goto('/user/feedback');
    await expect(page).toHaveURL(/\/user\/feedback$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Feedback');
    // /dashboard needs a session only (issue 19: free users see their match count and the upgrade path)
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(errors).toEqual([]);
  });

  test('a paying user reaches the user area; /dashboard is the matching home inside it', async ({ page }) => {
    const { session } = await userWithRole('premium');
    await storeSession(page, session);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('navigation', { name: 'User area' })).toBeVisible();
    await page.goto('/user/projects/create-project-1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create a project');
  });
});
