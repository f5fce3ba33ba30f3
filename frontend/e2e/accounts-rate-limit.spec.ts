import { expect, test } from '@playwright/test';
import { ANON_KEY, expectStackUp, nodeClient } from './support';
import { createUser, PASSWORD } from './accounts-support';

/**
 * Issue 12 finding 9 / issue 29 §2 as the user sees it: after too many wrong passwords for an
 * account, the login (the `login-check` function, which owns the per-account limit; hosted Auth has
 * none) refuses further attempts for a while (429), even with the right password, and the login
 * page says so in the page's language.
 */
test.beforeAll(async () => {
  await expectStackUp();
});

for (const [locale, prefix, t] of [
  ['en', '', { email: 'E-mail', password: 'Password', submit: 'Log in', message: 'Too many sign-in attempts. For your security, please wait 15 minutes and try again, or reset your password.' }],
  ['de', '/de', { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden', message: 'Zu viele Anmeldeversuche. Zu Ihrer Sicherheit warten Sie bitte 15 Minuten und versuchen es dann erneut, oder setzen Sie Ihr Passwort zurück.' }],
] as const) {
  test(`a locked account gets the rate-limit message on the login page (${locale})`, async ({ page }) => {
    const user = await createUser({ firstname: 'Rita', lastname: 'Rate' });
    const client = nodeClient(ANON_KEY);
    const answers: string[] = [];
    for (let i = 0; i < 11; i++) {
      const { error } = await client.functions.invoke('login-check', { body: { email: user.email, password: `Wrong-${i}-guess`, locale } });
      const response = (error as { context?: Response } | null)?.context;
      answers.push(response ? `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}` : 'ok');
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill('400 invalid_credentials'));
    expect(answers[10]).toBe('429 over_request_rate_limit');

    await page.goto(`${prefix}/login`);
    await page.getByLabel(t.email).fill(user.email);
    await page.getByRole('textbox', { name: t.password, exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: t.submit, exact: true }).click();
    await expect(page.getByTestId('login-error')).toHaveText(t.message);
    await expect(page).toHaveURL(new RegExp(`${prefix}/login$`));
  });
}
