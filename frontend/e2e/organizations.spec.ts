import { randomBytes } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { createUser, linkFromMail, PASSWORD, signInViaApi, uniqueEmail } from './accounts-support';
import { apiUrl, collectErrors, expectAccessible, expectStackUp, grantActiveSubscription, messages, nodeClient, SERVICE_ROLE_KEY } from './support';

/**
 * Organisations (issue 15) in the browser, both languages: an Enterprise subscriber creates an
 * organisation, invites a colleague by e-mail (link read from the local mailbox), the colleague
 * answers the invitation (English: registers first and comes back to it after login; German:
 * an existing account), publishes a job under the organisation, and the job shows on /org/{slug}.
 */

test.describe.configure({ mode: 'serial' });

const en = (id: string) => messages.en[id]!;
const de = (id: string) => messages.de[id]!;

test.beforeAll(async () => {
  await expectStackUp();
});

/** Creates a confirmed user with an active Enterprise subscription and signs them in on `page`. */
async function enterpriseOwner(page: Page, firstname: string) {
  const owner = await createUser({ firstname, lastname: 'Inhaber' });
  await grantActiveSubscription(nodeClient(SERVICE_ROLE_KEY), owner.id, 'enterprise');
  await signInViaApi(page, owner.email);
  return owner;
}

/** Creates an organisation through /org/new (or /de/org/new) and returns its slug from the settings URL. */
async function createOrganization(page: Page, prefix: '' | '/de', t: (id: string) => string, name: string): Promise<string> {
  await page.goto(`${prefix}/org/new`);
  await page.getByRole('textbox', { name: t('org.field.name') }).fill(name);
  await page.getByRole('textbox', { name: t('org.field.descriptionEn') }).fill('We build solar bikes.');
  await page.getByRole('textbox', { name: t('org.field.descriptionDe') }).fill('Wir bauen Solarräder.');
  await page.getByRole('textbox', { name: t('org.field.city') }).fill('Köln');
  await page.getByRole('button', { name: t('org.create.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/org/[a-z0-9-]+/settings$`));
  return /\/org\/([a-z0-9-]+)\/settings$/.exec(page.url())![1]!;
}

/** Runs the mail queue now (the stack's cron runs it once a minute). */
async function runQueue(): Promise<void> {
  const res = await fetch(`${apiUrl}/functions/v1/process-email-queue`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}`, apikey: SERVICE_ROLE_KEY, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.ok).toBe(true);
}

/** Sends an invitation from the settings page and returns the invitation link from the mailbox. */
async function invite(page: Page, t: (id: string) => string, email: string, locale: 'en' | 'de'): Promise<string> {
  await page.getByTestId('org-invite-email').fill(email);
  await page.getByTestId('org-invite-language').selectOption(locale);
  await page.getByTestId('org-invite-submit').click();
  await expect(page.getByTestId('org-invitation').filter({ hasText: email })).toBeVisible();
  await expect(page.getByTestId('org-seats-text')).toHaveText(t('org.seats.used').replace('{used}', '2').replace('{limit}', '5'));
  await runQueue();
  return linkFromMail(email, '/invitations/');
}

/** Publishes a job under the organisation through /user/jobs/create-job and returns its title. */
async function publishJob(page: Page, prefix: '' | '/de', t: (id: string) => string, orgName: string, title: string) {
  await page.goto(`${prefix}/user/jobs/create-job`);
  await page.getByTestId('publish-as').selectOption({ label: orgName });
  await expect(page.getByRole('textbox', { name: t('jobs.form.company') })).toHaveValue(orgName);
  await page.getByRole('textbox', { name: t('jobs.form.title') }).fill(title);
  await page.getByRole('textbox', { name: t('jobs.filter.city') }).fill('Köln');
  await page.getByRole('textbox', { name: t('jobs.form.description') }).fill('Build the frame of our solar bike.');
  await page.getByRole('textbox', { name: t('jobs.form.applyUrl') }).fill('https://jobs.example.com/solar');
  await page.getByRole('button', { name: t('jobs.form.submit') }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/jobs/[a-z0-9-]+$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByTestId('published-by-org').getByRole('link', { name: orgName })).toBeVisible();
}

/** A desktop browser's user agent (the analytics count no headless browsers). */
const VISITOR_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return context.newPage();
}

test('English: create, invite, colleague registers and accepts, publishes a job shown on /org/{slug}', async ({ page, browser }) => {
  // three people, two sign-ups and five axe scans: 58 s in a fresh-clone run, over the 60 s default once
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const tag = randomBytes(3).toString('hex');
  const orgName = `Solarrad ${tag}`;
  await enterpriseOwner(page, 'Olga');

  // a Basic user sees the upgrade path instead of the form (checked before the owner's journey)
  const basic = await createUser({ paid: true });
  const other = await newPage(browser);
  await signInViaApi(other, basic.email);
  await other.goto('/org/new');
  await expect(other.getByTestId('org-upgrade')).toHaveText(en('org.create.enterpriseOnly'));
  await expect(other.getByRole('link', { name: en('org.create.upgrade') })).toHaveAttribute('href', '/prices');
  await other.context().close();

  const slug = await createOrganization(page, '', en, orgName);
  expect(slug).toBe(`solarrad-${tag}`);
  await expectAccessible(page, 'organisation settings');

  const colleagueEmail = uniqueEmail('orgcol');
  const link = await invite(page, en, colleagueEmail, 'en');
  expect(link.startsWith('/invitations/')).toBe(true);

  // the colleague opens the link logged out, registers, confirms, logs in and is back at the invitation
  const col = await newPage(browser);
  await col.goto(link);
  await expect(col.getByTestId('invitation-org')).toHaveText(orgName);
  await expect(col.getByTestId('invitation-role')).toHaveText(en('org.invitation.role').replace('{role}', en('org.role.member')));
  await col.getByTestId('invitation-register').click();
  await expect(col).toHaveURL(/\/registration$/);
  await col.getByLabel('First name').fill('Kai');
  await col.getByLabel('Last name').fill('Kollege');
  await col.getByLabel('E-mail').fill(colleagueEmail);
  await col.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await col.getByRole('checkbox', { name: /terms of use/ }).check();
  await col.getByRole('checkbox', { name: /privacy notice/ }).check();
  await col.getByRole('button', { name: 'Register' }).click();
  await expect(col).toHaveURL(/\/registration\/success$/);
  await col.goto(await linkFromMail(colleagueEmail, '/confirm-email?token='));
  await expect(col.getByTestId('confirm-result')).toHaveText(en('auth.confirmEmail.success'));
  await col.goto('/login');
  await col.getByLabel('E-mail').fill(colleagueEmail);
  await col.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await col.getByRole('button', { name: 'Log in' }).click();
  await expect(col).toHaveURL(new RegExp(`${link}$`));
  await col.getByTestId('invitation-accept').click();
  await expect(col).toHaveURL(new RegExp(`/org/${slug}$`));
  await expect(col.getByTestId('org-name')).toHaveText(orgName);

  // "My organisations" lists it; the colleague publishes a job under the organisation
  await col.goto('/user/organizations');
  await expect(col.getByTestId('org-mine').getByRole('link', { name: orgName })).toBeVisible();
  const jobTitle = `Frame engineer ${tag}`;
  await publishJob(col, '', en, orgName, jobTitle);

  // the public page (anonymous visitor) shows the job, the members and the English description; the
  // visitor allows statistics cookies, so the view is counted (with a desktop browser's user agent:
  // headless Chromium counts as a bot, issue 15 analytics)
  const anonContext = await browser.newContext({ userAgent: VISITOR_UA });
  const anon = await anonContext.newPage();
  const tracked = anon.waitForResponse((r) => r.url().includes('/rpc/analytics_track'));
  await anon.goto(`/org/${slug}`);
  await anon.getByTestId('cookie-notice').getByRole('button', { name: en('cookies.acceptAll'), exact: true }).click();
  expect((await tracked).ok()).toBe(true);
  await expect(anon.getByTestId('org-description')).toHaveText('We build solar bikes.');
  await expect(anon.getByTestId('org-jobs').getByRole('link', { name: jobTitle })).toBeVisible();
  await expect(anon.getByTestId('org-members')).toContainText('Kai');
  await expectAccessible(anon, 'organisation page');
  await anon.goto(`/org/unknown-${tag}`);
  await expect(anon.getByRole('heading', { level: 1 })).toHaveText(`Page not found: /org/unknown-${tag}`);
  await anon.context().close();

  // the owner sees the new member; the invitation is no longer pending
  await page.reload();
  await expect(page.getByTestId('org-member').filter({ hasText: 'Kai Kollege' })).toBeVisible();
  await expect(page.getByTestId('org-invitations-empty')).toHaveText(en('org.invite.none'));
  await col.context().close();

  // the owner's analytics show the visitor's view of the organisation page (members' own visits are not counted)
  await page.goto(`/org/${slug}`);
  await page.getByTestId('org-analytics-link').click();
  await expect(page).toHaveURL(new RegExp(`/org/${slug}/analytics$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('analytics.org.title').replace('{name}', orgName));
  await expect(page.getByTestId('analytics-total-view')).toHaveText('1');
  await expect(page.locator(`[data-testid="analytics-item"][data-item^="organization:"]`)).toContainText('1');
  await expect(page.getByTestId('analytics-chart-views').locator('.recharts-area')).toHaveCount(1);
  expect(errors.filter((e) => !/40[134]|Failed to load resource/.test(e))).toEqual([]);
});

test('German: invitation to an existing account, accepted under /de, job shown on /de/org/{slug}', async ({ page, browser }) => {
  const tag = randomBytes(3).toString('hex');
  const orgName = `Werkbank ${tag}`;
  await enterpriseOwner(page, 'Greta');
  const slug = await createOrganization(page, '/de', de, orgName);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de('page.org-settings.title'));

  const colleague = await createUser({ firstname: 'Jonas', lastname: 'Kollege' });
  const link = await invite(page, de, colleague.email, 'de');
  expect(link.startsWith('/de/invitations/')).toBe(true);

  const col = await newPage(browser);
  await signInViaApi(col, colleague.email);
  await col.goto(link);
  await expect(col.getByTestId('invitation-role')).toHaveText(de('org.invitation.role').replace('{role}', de('org.role.member')));
  await col.getByTestId('invitation-accept').click();
  await expect(col).toHaveURL(new RegExp(`/de/org/${slug}$`));
  // a used link cannot be used again
  await col.goto(link);
  await expect(col.getByTestId('invitation-closed')).toBeVisible();

  const jobTitle = `Werkstudent Rahmenbau ${tag}`;
  await publishJob(col, '/de', de, orgName, jobTitle);
  await col.context().close();

  await page.goto(`/de/org/${slug}`);
  await expect(page.getByTestId('org-description')).toHaveText('Wir bauen Solarräder.');
  await expect(page.getByTestId('org-jobs').getByRole('link', { name: jobTitle })).toBeVisible();
  await expect(page.getByTestId('org-settings-link')).toHaveText(de('org.settings.link'));

  // the owner makes the colleague an admin (role select per member, labelled with the name)
  await page.getByTestId('org-settings-link').click();
  const role = page.getByRole('combobox', { name: de('org.members.roleOf').replace('{name}', 'Jonas Kollege') });
  await role.selectOption('admin');
  await expect(page.getByText(de('org.members.roleSaved').replace('{name}', 'Jonas Kollege'))).toBeVisible();
  await page.reload();
  await expect(role).toHaveValue('admin');
});
