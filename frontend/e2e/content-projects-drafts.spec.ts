import { expect, test } from '@playwright/test';
import { admin, createUser, expectAccessible, seedProject, storeSession } from './content-projects-helpers';
import { collectErrors, expectStackUp } from './support';

/**
 * Issue 33 §5 from the member's side: abandoned wizard drafts do not count towards the 3 projects
 * of the Basic plan, the limit shows before any wizard starts ("3 of 3", "New project" disabled,
 * upgrade link), and publishing a draft at the limit is refused by the database with a clear
 * message, in English and German.
 */
test.describe('projects: drafts do not count towards the Basic limit (issue 33 §5)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('abandoned drafts leave room: 2 published + 2 drafts is "2 of 3", the third project publishes, then "3 of 3" disables New project (en)', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser('basic', 'drafts');
    await seedProject(user.userId, 'Published one', 'published');
    await seedProject(user.userId, 'Published two', 'published');
    await seedProject(user.userId, 'Abandoned draft one');
    await seedProject(user.userId, 'Abandoned draft two');
    await storeSession(page, user.session);

    await page.goto('/user/projects');
    await expect(page.getByTestId('my-project')).toHaveCount(4);
    await expect(page.getByTestId('plan-limit-notice')).toContainText('You use 2 of 3 projects of your plan; drafts do not count.');
    await expect(page.getByTestId('new-project')).toBeEnabled();

    await page.getByTestId('new-project').click();
    await expect(page).toHaveURL(/\/user\/projects\/create-project-new$/);
    await expect(page.getByTestId('plan-limit-notice')).toHaveCount(0);
    await page.getByLabel('Title').fill('Third project after two drafts');
    await page.getByLabel('Category').selectOption('community');
    await page.getByTestId('wizard-next').click();
    await expect(page).toHaveURL(/\/user\/projects\/create-project-\d+$/);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-publish').click();
    await expect(page.locator('.notify-success')).toContainText('Project published.');
    await expect(page).toHaveURL(/\/user\/projects$/);

    // 3 of 3 before starting anything: the button is disabled and the notice explains and links the upgrade
    const notice = page.getByTestId('plan-limit-notice');
    await expect(notice).toContainText('Project limit reached');
    await expect(notice).toContainText('You have 3 of 3 projects.');
    await expect(notice.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/prices');
    await expect(page.getByTestId('plan-limit-drafts')).toHaveText(
      'Drafts do not count towards the limit. To publish another project, unpublish or delete one, or upgrade your plan.',
    );
    await expect(page.getByTestId('new-project')).toBeDisabled();
    await expect(page.getByTestId('new-project')).toHaveAccessibleDescription(/Project limit reached/);
    await expectAccessible(page, '/user/projects at the limit');
    const published = await admin().from('projects').select('id', { count: 'exact', head: true }).eq('owner_id', user.userId).eq('status', 'published');
    expect(published.count).toBe(3);
    expect(errors).toEqual([]);
  });

  test('at 3 of 3 publishing a draft is refused by the database and explained; the wizard says so from its first step (de)', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser('basic', 'drafts-de');
    for (const title of ['Erstes Projekt', 'Zweites Projekt', 'Drittes Projekt']) await seedProject(user.userId, title, 'published');
    const draft = await seedProject(user.userId, 'Liegengebliebener Entwurf');
    await storeSession(page, user.session);

    await page.goto('/de/user/projects');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const notice = page.getByTestId('plan-limit-notice');
    await expect(notice).toContainText('Projektlimit erreicht');
    await expect(notice).toContainText('Sie haben 3 von 3 Projekten.');
    await expect(notice.getByRole('link', { name: 'Tarif upgraden' })).toHaveAttribute('href', '/de/prices');
    await expect(page.getByTestId('plan-limit-drafts')).toContainText('Entwürfe zählen nicht zum Limit.');
    await expect(page.getByRole('button', { name: 'Neues Projekt' })).toBeDisabled();

    // publishing the draft from the list: the database refuses, the member reads why
    await page.getByTestId('my-project').filter({ hasText: 'Liegengebliebener Entwurf' }).getByRole('button', { name: 'Veröffentlichen' }).click();
    await expect(page.locator('.notify-error')).toContainText(
      'Nicht veröffentlicht: Ihr Tarif erlaubt 3 veröffentlichte Projekte. Ziehen Sie eines zurück, löschen Sie eines oder wechseln Sie den Tarif.',
    );
    const still = await admin().from('projects').select('status').eq('id', draft.id).single();
    expect(still.data?.status).toBe('draft');

    // the wizard (continuing the draft) shows the limit before the member does anything
    await page.goto(`/de/user/projects/create-project-${draft.id}`);
    await expect(page.getByTestId('plan-limit-notice')).toContainText('Sie haben 3 von 3 Projekten.');
    await expect(page.getByTestId('plan-limit-drafts')).toContainText('Entwürfe zählen nicht zum Limit.');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-publish').click();
    await expect(page.getByTestId('plan-limit-drafts')).toHaveText(
      'Nicht veröffentlicht: Ihr Projekt ist als Entwurf gespeichert. Entwürfe zählen nicht zum Limit; veröffentlichen Sie es, sobald Sie ein anderes Projekt zurückgezogen oder gelöscht haben, oder wechseln Sie den Tarif.',
    );
    const after = await admin().from('projects').select('status').eq('id', draft.id).single();
    expect(after.data?.status).toBe('draft');
    expect(errors.filter((e) => !/status of 400|plan_limit/.test(e))).toEqual([]);
  });
});
