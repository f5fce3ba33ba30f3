import { expect, type Page, test } from '@playwright/test';
import { admin, createUser, token, type TestUser, useSession } from './content-events-support';
import { apiUrl, collectErrors, expectStackUp, grantActiveSubscription } from './support';

/**
 * Issue 15 "API access" in the browser: the owner of an Enterprise organisation creates an API
 * key on /org/{slug}/api (shown once), a request with it succeeds, the owner revokes it after
 * confirming, and the next request gets 401; in English and in German. Then the documentation
 * page /de/developers/api renders the endpoints of the function's OpenAPI document.
 */
test.describe.configure({ mode: 'serial' });

const tok = token();
const slug = `api-e2e-${tok}`;
let owner: TestUser;

const callApi = (key: string) => fetch(`${apiUrl}/functions/v1/api/v1/projects?limit=1`, { headers: { Authorization: `Bearer ${key}` } });

test.beforeAll(async () => {
  await expectStackUp();
  owner = await createUser('free', 'Olga');
  await grantActiveSubscription(admin(), owner.id, 'enterprise');
  expect((await admin().from('profiles').update({ user_role: 'enterprise' }).eq('id', owner.id)).error).toBeNull();
  const created = await owner.client.rpc('create_organization', { p_name: `API Test ${tok}`, p_slug: slug });
  expect(created.error).toBeNull();
});

test.afterAll(async () => {
  await admin().from('organizations').delete().eq('slug', slug);
  await admin().auth.admin.deleteUser(owner.id);
});

async function createRevoke(page: Page, labels: { name: string; create: string; revoke: string; revoked: string }, keyName: string) {
  await page.getByLabel(labels.name).fill(keyName);
  await page.getByRole('button', { name: labels.create }).click();
  const secret = (await page.getByTestId('api-key-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^twk_[0-9a-f]{48}$/);
  const ok = await callApi(secret);
  expect(ok.status).toBe(200);
  expect(((await ok.json()) as { data: unknown[] }).data).toEqual([]);
  const row = page.getByRole('row').filter({ hasText: keyName });
  await expect(row).toContainText(secret.slice(0, 12));
  await row.getByRole('button', { name: labels.revoke }).click();
  await page.getByTestId('confirm-action').click();
  // revoked once the row's button is gone (in German the button and the state read "Widerrufen")
  await expect(row.getByRole('button', { name: labels.revoke })).toHaveCount(0);
  await expect(row).toContainText(labels.revoked);
  const refused = await callApi(secret);
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_key');
}

test('the owner creates a key, the API accepts it, the owner revokes it, the API refuses it (en, de)', async ({ page }) => {
  const errors = collectErrors(page);
  await useSession(page, owner);
  await page.goto(`/org/${slug}/api`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`API keys of API Test ${tok}`);
  await expect(page.getByTestId('api-keys-empty')).toHaveText('No API keys yet.');
  await createRevoke(page, { name: 'Name', create: 'Create key', revoke: 'Revoke', revoked: 'Revoked' }, 'Careers page');

  await page.goto(`/de/org/${slug}/api`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`API-Schlüssel von API Test ${tok}`);
  await createRevoke(page, { name: 'Name', create: 'Schlüssel erstellen', revoke: 'Widerrufen', revoked: 'Widerrufen' }, 'Karriereseite');
  expect(errors).toEqual([]);
});

test('the documentation page lists the endpoints with curl examples (de)', async ({ page }) => {
  await page.goto('/de/developers/api');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Teamwerk-API');
  await expect(page.getByRole('heading', { name: 'Endpunkte' })).toBeVisible();
  const create = page.getByTestId('api-op-createJob');
  await expect(create).toContainText('Legt einen Job Ihrer Organisation an.');
  await expect(create.getByTestId('curl-example')).toContainText(`curl -X POST '${apiUrl}/functions/v1/api/v1/jobs'`);
  await expect(page.getByTestId('api-op-listProjects').getByTestId('curl-example')).toContainText('Authorization: Bearer $TEAMWERK_API_KEY');
});
