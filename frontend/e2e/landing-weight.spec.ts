import { expect, test } from '@playwright/test';
import { expectStackUp, messages } from './support';

/**
 * Issue 5 (landing page JavaScript ≤ 180 KB): the landing page renders with the shell message
 * catalogue and without the snackbar module; the next page gets the full catalogue, and the first
 * snackbar still shows (spec §9: 4000 ms, closable, in the page's language).
 */

test.beforeAll(async () => {
  await expectStackUp();
});

for (const [locale, prefix] of [
  ['en', ''],
  ['de', '/de'],
] as const) {
  const t = messages[locale];
  const rawIds = (text: string) => Object.keys(t).filter((id) => text.includes(id));

  test(`landing renders every text from the shell catalogue; the next page gets the full one (${locale})`, async ({ page }) => {
    await page.goto(prefix || '/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['landing.banner.title']!.replaceAll('{product}', 'Teamwerk'));
    await expect(page.getByRole('contentinfo')).toContainText(t['footer.cancelContracts']!);
    expect(rawIds(await page.locator('body').innerText())).toEqual([]);
    await expect(page.locator('.mantine-Notifications-root')).toHaveCount(0);

    // the cookie notice (shell) covers the footer until decided; then a client-side navigation
    // to a page whose texts are outside the shell catalogue
    await page.getByTestId('cookie-notice').getByRole('button', { name: t['cookies.necessaryOnly']!, exact: true }).click();
    await page.getByRole('contentinfo').getByRole('link', { name: t['footer.privacy']!, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['privacy.title']!);
    expect(rawIds(await page.locator('body').innerText())).toEqual([]);
  });
}

test('the first snackbar loads on demand, is closable and closes after about 4 s (de)', async ({ page }) => {
  const t = messages.de;
  // a failure without a form field of its own is a snackbar (a form's errors show in the form, issue 33 §8)
  await page.route('**/rest/v1/contact_messages*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"unavailable"}' }));
  await page.goto('/de/contact');
  await expect(page.locator('.mantine-Notifications-root')).toHaveCount(0);
  await page.getByLabel(t['contact.field.name']!).fill('Max Mustermann');
  await page.getByLabel(t['contact.field.email']!).fill('max@example.com');
  await page.getByLabel(t['contact.field.subject']!).fill('Snackbar');
  await page.getByLabel(t['contact.field.message']!).fill('Diese Nachricht kommt nie an.');
  await page.getByRole('checkbox', { name: /Ich bin einverstanden/ }).check();
  await page.getByRole('button', { name: t['contact.submit']!, exact: true }).click();
  const snackbar = page.locator('.notify-error');
  await expect(snackbar).toHaveText(t['contact.failure']!);
  const shownAt = Date.now();
  await expect(page.locator('.mantine-Notifications-root')).not.toHaveCount(0);
  await expect(snackbar.getByRole('button', { name: t['common.close']!, exact: true })).toBeVisible();
  await expect(snackbar).toBeHidden({ timeout: 8000 });
  const visibleMs = Date.now() - shownAt;
  expect(visibleMs).toBeGreaterThan(3000);
  expect(visibleMs).toBeLessThan(6500);
});

test('cookie settings: the categories load when opened and the choice is stored (en)', async ({ page, context }) => {
  const t = messages.en;
  await page.goto('/');
  const notice = page.getByTestId('cookie-notice');
  await notice.getByRole('button', { name: t['cookies.settings']!, exact: true }).click();
  await expect(notice.getByRole('checkbox', { name: t['cookies.necessary']!, exact: true })).toBeChecked();
  await expect(notice.getByRole('checkbox', { name: t['cookies.necessary']!, exact: true })).toBeDisabled();
  await notice.getByRole('checkbox', { name: t['cookies.statistics']!, exact: true }).check();
  await expect(notice.getByRole('checkbox', { name: t['cookies.marketing']!, exact: true })).not.toBeChecked();
  await notice.getByRole('button', { name: t['cookies.saveChoice']!, exact: true }).click();
  await expect(notice).toBeHidden();
  const consent = (await context.cookies()).find((c) => c.name === 'teamwerk_consent');
  expect(JSON.parse(decodeURIComponent(consent!.value))).toMatchObject({ necessary: true, statistics: true, marketing: false });
  // after a reload and reopening from the footer, the settings show the stored choice
  await page.reload();
  await page.getByRole('button', { name: t['footer.cookieSettings']!, exact: true }).click();
  await notice.getByRole('button', { name: t['cookies.settings']!, exact: true }).click();
  await expect(notice.getByRole('checkbox', { name: t['cookies.statistics']!, exact: true })).toBeChecked();
});
