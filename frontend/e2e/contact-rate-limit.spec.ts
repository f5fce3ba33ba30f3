import { expect, test } from '@playwright/test';
import { ANON_KEY, expectStackUp, messages, nodeClient, SERVICE_ROLE_KEY } from './support';

/**
 * Issue 12 §8: the database refuses contact messages past its limits (5 per e-mail address a
 * day, 20 per connection an hour) with HTTP 429; /contact says so in the visitor's language and
 * nothing more is stored.
 */
test.beforeAll(async () => {
  await expectStackUp();
});

test('the contact form shows the rate-limit message once the address has used its messages (de)', async ({ page }) => {
  const email = `limit-${Date.now()}@example.com`;
  const anon = nodeClient(ANON_KEY);
  // use up the address's messages through the API (stops early if the connection's limit is reached first)
  for (let i = 0; i < 5; i++) {
    const sent = await anon.from('contact_messages').insert({ name: 'Erika Mustermann', email, subject: 'Frage', message: 'Eine Frage zu Ihrem Angebot.', lang: 'de' });
    if (sent.status === 429) break;
    expect(sent.error).toBeNull();
  }
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const before = await admin.from('contact_messages').select('id', { count: 'exact', head: true }).eq('email', email);

  await page.goto('/de/contact');
  await page.getByLabel('Name').fill('Erika Mustermann');
  await page.getByLabel('E-Mail-Adresse').fill(email);
  await page.getByLabel('Betreff').fill('Noch eine Frage');
  await page.getByLabel('Nachricht').fill('Gibt es einen Rabatt für Studierende?');
  await page.getByRole('checkbox', { name: /Ich bin einverstanden/ }).check();
  const answer = page.waitForResponse((res) => res.url().includes('/rest/v1/contact_messages') && res.request().method() === 'POST');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  expect((await answer).status()).toBe(429);

  await expect(page.getByTestId('contact-rate-limited')).toHaveText(messages.de['contact.rateLimited']!);
  await expect(page.getByTestId('contact-sent')).toHaveCount(0);
  // the refusal is said once, above the form, not repeated by a snackbar (issue 33 §8)
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(messages.de['contact.rateLimited']!, { exact: true })).toHaveCount(1);
  await expect(page.locator('.mantine-Notifications-root')).toHaveCount(0);
  // the form keeps what was typed, so nothing is lost
  await expect(page.getByLabel('Betreff')).toHaveValue('Noch eine Frage');
  const after = await admin.from('contact_messages').select('id', { count: 'exact', head: true }).eq('email', email);
  expect(after.count).toBe(before.count);
});
