import { expect, test, type Page } from '@playwright/test';
import { axe } from './axe';
import { expectStackUp, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, signInViaApi } from './accounts-support';

/**
 * Unblocking stays reachable (issue 8 "Blocking and unblocking from a profile"): a block hides both
 * people from each other, so the blocker finds them again in /user/settings → Blocked users and on
 * /u/{slug} (blocked notice with Unblock instead of "not found"); whoever was blocked BY that
 * person still gets "not found".
 */
const admin = nodeClient(SERVICE_ROLE_KEY);

const slugOf = async (id: string) => {
  const { data, error } = await admin.from('profiles').select('slug').eq('id', id).single();
  expect(error).toBeNull();
  return (data as { slug: string }).slug;
};
const blockedIds = async (blockerId: string) =>
  ((await admin.from('user_blocks').select('blocked_id').eq('blocker_id', blockerId)).data ?? []).map((r) => (r as { blocked_id: string }).blocked_id);

/** No serious or critical axe-core violations inside `selector`. */
async function expectAccessible(page: Page, selector: string) {
  const scan = await axe(page).include(selector).analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id), JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.html).slice(0, 4)]))).toEqual([]);
}

test.beforeAll(async () => {
  await expectStackUp();
});

test('en: block on the profile, leave, the profile shows the unblock notice, unblock in /user/settings, profile visible again', async ({ page }) => {
  const [me, other, blockerOfMe] = await Promise.all([
    createUser({ paid: true, firstname: 'Erik', lastname: 'Entsperrer' }),
    createUser({ firstname: 'Bodo', lastname: 'Blocklist' }),
    createUser({ firstname: 'Hanna', lastname: 'Heimlich' }),
  ]);
  const [slug, hiddenSlug] = await Promise.all([slugOf(other.id), slugOf(blockerOfMe.id)]);
  // someone else blocked ME: that must never show up as "you blocked them"
  expect((await admin.from('user_blocks').insert({ blocker_id: blockerOfMe.id, blocked_id: me.id })).error).toBeNull();
  await signInViaApi(page, me.email);

  await page.goto(`/u/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bodo Blocklist');
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Block user' }).click();
  await expect(page.getByTestId('blocked-notice')).toBeVisible();
  expect(await blockedIds(me.id)).toEqual([other.id]);

  // leave and come back with a fresh page load: RLS hides the profile, the notice still offers Unblock
  await page.goto('/impressum');
  await page.goto(`/u/${slug}`);
  await expect(page.getByTestId('blocked-notice')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bodo Blocklist');
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();
  // blocked BY that person: plain "not found", no notice
  await page.goto(`/u/${hiddenSlug}`);
  await expect(page.getByTestId('profile-unavailable')).toBeVisible();
  await expect(page.getByTestId('blocked-notice')).toHaveCount(0);

  // the way back from anywhere: Settings → Blocked users (follow the notice's link)
  await page.goto(`/u/${slug}`);
  await page.getByRole('link', { name: 'Manage blocked users' }).click();
  await expect(page).toHaveURL(/\/user\/settings$/);
  const section = page.getByTestId('blocked-users');
  const entry = section.getByTestId('blocked-user');
  await expect(entry).toHaveCount(1);
  await expect(entry.getByRole('link', { name: 'Bodo Blocklist' })).toBeVisible();
  await expect(section.getByText('Hanna Heimlich')).toHaveCount(0);
  await expectAccessible(page, '[data-testid="blocked-users"]');
  // keyboard: focus the Unblock button and press Enter
  await entry.getByRole('button', { name: 'Unblock Bodo Blocklist' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.notify-success', { hasText: 'Bodo Blocklist is no longer blocked.' })).toBeVisible();
  await expect(section.getByText('You have not blocked anyone.')).toBeVisible();
  expect(await blockedIds(me.id)).toEqual([]);

  await page.goto(`/u/${slug}`);
  await expect(page.getByTestId('public-profile')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bodo Blocklist');
  await expect(page.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
});

test('de: blockieren, Seite verlassen, in /de/user/settings aufheben; Aufheben auch direkt auf /de/u/{slug}', async ({ page }) => {
  const [me, other, second] = await Promise.all([
    createUser({ paid: true, firstname: 'Greta', lastname: 'Gesperrt' }),
    createUser({ firstname: 'Jörg', lastname: 'Überlist' }),
    createUser({ firstname: 'Klara', lastname: 'Zweitblock' }),
  ]);
  const [slug, secondSlug] = await Promise.all([slugOf(other.id), slugOf(second.id)]);
  await signInViaApi(page, me.email);

  await page.goto(`/de/u/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jörg Überlist');
  await page.getByRole('button', { name: 'Blockieren', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Nutzer blockieren' }).click();
  await expect(page.getByTestId('blocked-notice')).toBeVisible();
  await expect(page.locator('.notify-success', { hasText: 'Der Nutzer wurde blockiert.' })).toBeVisible();

  await page.goto('/de/user/settings');
  const section = page.getByTestId('blocked-users');
  await expect(page.getByRole('group', { name: 'Blockierte Nutzer' })).toBeVisible();
  const entry = section.getByTestId('blocked-user');
  await expect(entry).toHaveCount(1);
  // blocked today (German numeric date; Berlin or UTC day, the two differ only around midnight)
  const day = (timeZone: string) => new Date().toLocaleDateString('en-CA', { timeZone }).split('-').reverse().join('.');
  const blockedAt = await entry.getByText(/^Blockiert am /).textContent();
  expect([`Blockiert am ${day('Europe/Berlin')}`, `Blockiert am ${day('UTC')}`]).toContain(blockedAt);
  await entry.getByRole('button', { name: 'Blockierung aufheben: Jörg Überlist' }).click();
  await expect(page.locator('.notify-success', { hasText: 'Jörg Überlist ist nicht mehr blockiert.' })).toBeVisible();
  await expect(section.getByText('Sie haben niemanden blockiert.')).toBeVisible();

  await page.goto(`/de/u/${slug}`);
  await expect(page.getByTestId('public-profile')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jörg Überlist');

  // a block made earlier (another session): /de/u/{slug} offers "Blockierung aufheben" right there
  expect((await admin.from('user_blocks').insert({ blocker_id: me.id, blocked_id: second.id })).error).toBeNull();
  await page.goto(`/de/u/${secondSlug}`);
  await expect(page.getByTestId('blocked-notice')).toHaveText(/Sie haben diesen Nutzer blockiert/);
  await page.getByRole('button', { name: 'Blockierung aufheben' }).click();
  await expect(page.getByTestId('public-profile')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Klara Zweitblock');
  await expect(page.locator('.notify-success', { hasText: 'Die Blockierung wurde aufgehoben.' })).toBeVisible();
  expect(await blockedIds(me.id)).toEqual([]);
});

test('en: the list shows an error with a retry when it cannot be loaded', async ({ page }) => {
  const me = await createUser({ paid: true });
  await signInViaApi(page, me.email);
  await page.route('**/rest/v1/rpc/my_blocked_users*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }));
  await page.goto('/user/settings');
  const error = page.getByTestId('blocked-users-error');
  await expect(error).toContainText('Your blocked users could not be loaded.');
  await page.unroute('**/rest/v1/rpc/my_blocked_users*');
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('blocked-users').getByText('You have not blocked anyone.')).toBeVisible();
});
