import { expect, type Page, test } from '@playwright/test';
import { createUser, mailboxUrl, signInViaApi } from './accounts-support';
import { collectErrors, expectStackUp, nodeClient, runEmailQueue, SERVICE_ROLE_KEY } from './support';

/**
 * Contact form and admin inbox (issue 33 §9), from the user's side: a signed-in member sends the
 * contact form from the own address and finds the copy of the message in the mailbox; an admin
 * goes from /admin to every admin page, reads the message in the inbox (newest first) and marks it
 * handled, and reads members' feedback the same way (English and German).
 */
test.describe.configure({ mode: 'serial' });

interface Mail { subject: string; text: string | null }

/** Waits for the mail to `to` whose subject contains `subject` (the stack's mailbox). */
async function mailTo(to: string, subject: string, timeoutMs = 30_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  // the queue runs every minute; run it now rather than wait for the next minute
  await runEmailQueue();
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`)).json()) as Mail[];
    const mail = mails.find((m) => m.subject.includes(subject));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no mail "${subject}" to ${to}`);
}

const tag = Math.random().toString(36).slice(2, 8);
const subject = `Rechnung mit Firmenadresse ${tag}`;
const message = `Wie bekomme ich eine Rechnung mit Firmenadresse? (${tag})`;

async function signInAsAdmin(page: Page) {
  const admin = await createUser({ role: 'admin' });
  await signInViaApi(page, admin.email, admin.password);
}

test.beforeAll(async () => {
  await expectStackUp();
});

test('a member gets a copy of the contact message; the admin reads it from /admin and marks it handled (en)', async ({ page, browser }) => {
  const errors = collectErrors(page);
  const member = await createUser({ firstname: 'Mona' });
  await signInViaApi(page, member.email, member.password);
  await page.goto('/contact');
  // signed in: the address is the account's and the form says a copy goes there
  await expect(page.getByLabel('E-mail address')).toHaveValue(member.email, { timeout: 20_000 });
  await expect(page.getByText("Signed in: when this is your account's address, you receive a copy of your message.")).toBeVisible();
  const form = page.getByRole('main');
  await form.getByRole('textbox', { name: /^Name/ }).fill('Mona Member');
  await form.getByRole('textbox', { name: /^Subject/ }).fill(subject);
  await form.getByRole('textbox', { name: /^Message/ }).fill(message);
  await form.getByRole('checkbox', { name: /I agree/ }).check();
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByTestId('contact-sent')).toBeVisible();

  const copy = await mailTo(member.email, subject);
  expect(copy.subject).toBe(`Your message to Teamwerk: ${subject}`);
  expect(copy.text).toContain(message);
  expect(copy.text).toContain('Hello Mona Member');

  const adminPage = await browser.newPage();
  await signInAsAdmin(adminPage);
  await adminPage.goto('/admin');
  // every admin page is linked from the landing page
  await expect(adminPage.getByTestId('admin-link-users')).toHaveAttribute('href', '/admin/users');
  await expect(adminPage.getByTestId('admin-link-feedback')).toHaveAttribute('href', '/admin/feedback');
  await adminPage.getByTestId('admin-link-messages').click();
  await expect(adminPage).toHaveURL(/\/admin\/messages$/);
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Contact messages' })).toBeVisible();
  // newest first: the message just sent is the first row
  const row = adminPage.getByTestId('inbox-row').first();
  await expect(row).toContainText(subject);
  await expect(row).toContainText(message);
  await expect(row).toContainText(member.email);
  await expect(row.getByTestId('inbox-status')).toHaveText('New');
  await row.getByRole('button', { name: 'Mark handled' }).click();
  await expect(row.getByTestId('inbox-status')).toHaveText('Handled');
  await expect(row.getByRole('button', { name: 'Reopen' })).toBeVisible();
  expect(errors).toEqual([]);
  await adminPage.close();
});

test('the admin reads members\' feedback newest first and marks it handled (de)', async ({ page }) => {
  const errors = collectErrors(page);
  const member = await createUser({ firstname: 'Fritz' });
  const feedback = `Bitte mehr Filter in der Suche (${tag})`;
  const inserted = await nodeClient(SERVICE_ROLE_KEY).from('feedback').insert({ user_id: member.id, category: 'idea', rating: 4, message: feedback });
  expect(inserted.error).toBeNull();
  await signInAsAdmin(page);
  await page.goto('/de/admin');
  await page.getByTestId('admin-link-feedback').click();
  await expect(page).toHaveURL(/\/de\/admin\/feedback$/);
  const row = page.getByTestId('inbox-row').first();
  await expect(row).toContainText(feedback);
  await expect(row).toContainText('Idee oder Wunsch');
  await expect(row.getByTestId('inbox-status')).toHaveText('Neu');
  await row.getByRole('button', { name: 'Als erledigt markieren' }).click();
  await expect(row.getByTestId('inbox-status')).toHaveText('Erledigt');
  expect(errors).toEqual([]);
});
