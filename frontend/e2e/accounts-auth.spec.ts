import { expect, test } from '@playwright/test';
import { collectErrors, expectStackUp, messages, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, grantSubscription, linkFromMail, PASSWORD, roleOf, uniqueEmail } from './accounts-support';

test.beforeAll(async () => {
  await expectStackUp();
});

test('register → confirm from the mailbox → log in → /user (en)', async ({ page }) => {
  const errors = collectErrors(page);
  const email = uniqueEmail('reg');
  await page.goto('/registration');
  await page.getByLabel('First name').fill('Erika');
  await page.getByLabel('Last name').fill('Muster');
  await page.getByLabel('E-mail').fill(email);
  const rules = page.getByTestId('password-rules');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('abc');
  await expect(rules.locator('[data-met="true"]')).toHaveCount(1); // lower-case only
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await expect(rules.locator('[data-met="false"]')).toHaveCount(0);
  await page.getByLabel('Business').check();
  await page.getByRole('checkbox', { name: /terms of use/ }).check();
  await page.getByRole('checkbox', { name: /privacy notice/ }).check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/registration\/success$/);

  // unconfirmed login is refused with the exact text
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Email is not confirmed. Please check your email.');

  const link = await linkFromMail(email, '/confirm-email?token=');
  await page.goto(link);
  await expect(page.getByTestId('confirm-result')).toHaveText(messages.en['auth.confirmEmail.success']!);
  // a new account is free: /user needs a paid plan (spec §6) — give it one to see the start page
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const profile = await admin.from('profiles').select('id, authenticated').eq('email', email).single();
  expect((profile.data as { authenticated: number }).authenticated).toBe(1);
  await grantSubscription((profile.data as { id: string }).id);
  await page.getByRole('link', { name: 'Log in' }).last().click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByTestId('greeting')).toHaveText('Hello, Erika Muster!');
  expect(errors.filter((e) => !e.includes('401') && !e.includes('403') && !e.includes('Failed to load resource'))).toEqual([]);
});

test('German registration lands on /de/registration/success and mails a /de confirmation link', async ({ page }) => {
  const email = uniqueEmail('regde');
  await page.goto('/de/registration');
  await page.getByLabel('Vorname').fill('Max');
  await page.getByLabel('Nachname').fill('Mustermann');
  await page.getByLabel('E-Mail').fill(email);
  // the rules and the refusal of a weak password: src/features/auth/__tests__/auth-screens.test.tsx
  await page.getByRole('textbox', { name: 'Passwort', exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /Nutzungsvereinbarung/ }).check();
  await page.getByRole('checkbox', { name: /Datenschutzhinweise/ }).check();
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page).toHaveURL(/\/de\/registration\/success$/);
  const link = await linkFromMail(email, '/confirm-email?token=');
  expect(link.startsWith('/de/confirm-email')).toBe(true);
  await page.goto(link);
  await expect(page.getByTestId('confirm-result')).toHaveText(messages.de['auth.confirmEmail.success']!);
});

test('legacy old_user: login → reset link → new password → signed in as free', async ({ page }) => {
  const user = await createUser({ role: 'old_user', firstname: 'Olga', lastname: 'Alt' });
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  // a wrong password tells nothing about the account (issue 12 finding 10) …
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('whatever-it-Was-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Invalid login credentials');
  // … the right one leads to the forced password update (spec §4)
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/password-update$/);
  await page.getByRole('button', { name: 'Request reset link' }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  await expect(page.getByLabel('E-mail')).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByTestId('reset-sent')).toBeVisible();
  // the mail comes in the user's language (default German) and links to /de/password-update
  const link = await linkFromMail(user.email, '/password-update?token=');
  expect(link.startsWith('/de/password-update?token=')).toBe(true);
  await page.goto(link);
  const verifier = await page.evaluate(() => localStorage.getItem('teamwerk.passwordResetVerifier'));
  expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill('Brand-New-Pass-7');
  await page.getByRole('textbox', { name: 'Passwort wiederholen', exact: true }).fill('Brand-New-Pass-7');
  await page.getByRole('button', { name: 'Neues Passwort speichern' }).click();
  await expect(page).toHaveURL(/\/de\/subscription-required$/); // signed in; free accounts need a plan for /user
  expect(await roleOf(user.id)).toBe('free');
  // the verifier is gone after use: the same link now fails the PKCE check …
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill('Another-Pass-8');
  await page.getByRole('textbox', { name: 'Passwort wiederholen', exact: true }).fill('Another-Pass-8');
  await page.getByRole('button', { name: 'Neues Passwort speichern' }).click();
  await expect(page.getByTestId('password-update-error')).toHaveText('Bitte öffnen Sie den Link in dem Browser, in dem Sie ihn angefordert haben.');
  // … and with the verifier restored, the token is single-use
  await page.evaluate((v) => localStorage.setItem('teamwerk.passwordResetVerifier', v!), verifier);
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Neues Passwort', exact: true }).fill('Another-Pass-8');
  await page.getByRole('textbox', { name: 'Passwort wiederholen', exact: true }).fill('Another-Pass-8');
  await page.getByRole('button', { name: 'Neues Passwort speichern' }).click();
  await expect(page.getByTestId('password-update-error')).toHaveText('Dieser Link wurde bereits verwendet. Bitte fordern Sie einen neuen an.');
});

test('OAuth through the development sign-in page returns signed in to /user; unverified and cancel show the failure', async ({ page }) => {
  const email = uniqueEmail('oauth');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  // the stack's stand-in for Google says what it is; "verified" is the tester's explicit choice
  await expect(page).toHaveTitle('Development sign-in page — not Google');
  await expect(page.getByRole('heading', { name: 'Development sign-in page — not Google' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Development sign-in page — not Google');
  const verified = page.getByRole('checkbox', { name: 'Google reports this address as verified' });
  await expect(verified).not.toBeChecked();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Name').fill('Olli Auth');
  await verified.check();
  await page.getByRole('button', { name: 'Continue' }).click();
  // signed in and sent to /user, which a free account leaves for /subscription-required (spec §6 guard)
  await expect(page).toHaveURL(/\/subscription-required$/);
  expect(await page.evaluate(() => Object.keys(localStorage).some((k) => k.endsWith('-auth-token')))).toBe(true);

  // an address the provider does not vouch for: Auth mails a confirmation and refuses (GoTrue 422
  // provider_email_needs_verification), the page shows the OAuth failure
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with LinkedIn' }).click();
  await expect(page.getByRole('heading', { name: 'Development sign-in page — not LinkedIn' })).toBeVisible();
  await page.getByLabel('E-mail').fill(uniqueEmail('oauth-unverified'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.locator('.notify-error').first()).toHaveText('OAuth login failed');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => Object.keys(localStorage).some((k) => k.endsWith('-auth-token')))).toBe(false);

  await page.goto('/de/login');
  await page.getByRole('button', { name: 'Mit LinkedIn anmelden' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.notify-error').first()).toHaveText('OAuth-Anmeldung fehlgeschlagen');
  await expect(page).toHaveURL(/\/de\/login$/);
});

// which buttons the login page shows for Auth's answer: src/features/auth/__tests__/auth-screens.test.tsx
test('the login page asks Auth for its OAuth providers; the landing page does not ask', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/auth/v1/settings')) asked.push(new URL(page.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);

  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
  expect(asked.length).toBeGreaterThan(0);
});
