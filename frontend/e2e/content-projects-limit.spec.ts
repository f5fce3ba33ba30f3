import { expect, test } from '@playwright/test';
import { admin, createUser, expectAccessible, seedProject, storeSession } from './content-projects-helpers';
import { collectErrors, expectStackUp } from './support';

test.describe('projects: Basic plan limit, wizard, public page, edit and delete (spec §2, §5)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('a Basic user creates projects up to 3 (en)', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser('basic', 'limit');
    await seedProject(user.userId, 'Seeded project one', 'published');
    await seedProject(user.userId, 'Seeded project two', 'published');
    await storeSession(page, user.session);

    await page.goto('/user/projects');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My projects');
    await expect(page.getByTestId('my-project')).toHaveCount(2);
    await expect(page.getByTestId('plan-limit-notice')).toContainText('You use 2 of 3 projects');
    await expectAccessible(page, '/user/projects');

    // third project through the wizard: basics → details → location/roles → review → publish
    await page.getByTestId('new-project').click();
    await expect(page).toHaveURL(/\/user\/projects\/create-project-new$/);
    await page.getByTestId('wizard-next').click();
    await expect(page.getByText('The title needs 3 to 140 characters.')).toBeVisible();
    await expectAccessible(page, 'wizard');
    await page.getByLabel('Title').fill('Solar Lastenräder für Köln');
    await page.getByLabel('Summary').fill('Cargo bikes with solar panels.');
    await page.getByLabel('Category').selectOption('technology');
    await page.getByTestId('wizard-next').click();
    await expect(page).toHaveURL(/\/user\/projects\/create-project-\d+$/);
    await page.getByLabel('Description').fill('We build **solar** cargo bikes.\n\n<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">\n\n- frames\n- batteries');
    await page.getByTestId('wizard-next').click();
    await page.getByRole('combobox', { name: 'City' }).fill('Köln');
    await page.getByRole('combobox', { name: 'Roles sought' }).fill('Co-Founder');
    await page.getByRole('combobox', { name: 'Roles sought' }).press('Enter');
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('project-review')).toContainText('Solar Lastenräder für Köln');
    await page.getByTestId('wizard-publish').click();
    await expect(page.locator('.notify-success')).toContainText('Project published.');
    await expect(page).toHaveURL(/\/user\/projects$/);
    await expect(page.getByTestId('my-project')).toHaveCount(3);
    await expect(page.getByTestId('plan-limit-notice')).toContainText('Project limit reached');
    await expect(page.getByTestId('plan-limit-notice')).toContainText('You have 3 of 3 projects.');

    // public detail page: formatted text, no injected HTML
    const stored = await admin().from('projects').select('id, slug').eq('owner_id', user.userId).eq('title', 'Solar Lastenräder für Köln').single();
    await page.goto(`/${stored.data!.id}-${stored.data!.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Solar Lastenräder für Köln');
    await expect(page.getByTestId('project-description').locator('strong')).toHaveText('solar');
    await expect(page.getByTestId('project-description').locator('li')).toHaveCount(2);
    await expect(page.getByTestId('project-description').locator('script, img')).toHaveCount(0);
    await expect(page.getByText('Co-Founder')).toBeVisible();
    await expect(page.getByTestId('owner-card')).toContainText('Content limit');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await expectAccessible(page, 'project detail');

    expect(errors.filter((e) => !/status of 400|plan_limit/.test(e))).toEqual([]);
  });

  test('at 3 of 3 the German wizard explains the limit before anything is typed (de)', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser('basic', 'limit-de');
    for (const title of ['Projekt eins', 'Projekt zwei', 'Projekt drei']) await seedProject(user.userId, title, 'published');
    await storeSession(page, user.session);
    // drafts do not count (issue 33 §5; publishing one at the limit: content-projects-drafts.spec.ts)
    await page.goto('/de/user/projects/create-project-new');
    const notice = page.getByTestId('plan-limit-notice');
    await expect(notice).toContainText('Projektlimit erreicht');
    await expect(notice).toContainText('Ihr Tarif umfasst bis zu 3 Projekte');
    await expect(notice).toContainText('Sie haben 3 von 3 Projekten.');
    await expect(notice.getByRole('link', { name: 'Tarif upgraden' })).toHaveAttribute('href', '/de/prices');
    await expect(page).toHaveURL(/create-project-new$/);
    const count = await admin().from('projects').select('id', { count: 'exact', head: true }).eq('owner_id', user.userId);
    expect(count.count).toBe(3);
    expect(errors).toEqual([]);
  });

  test('edit, unpublish and delete a project with confirmation; others get 404', async ({ page }) => {
    const user = await createUser('basic', 'edit');
    const project = await seedProject(user.userId, 'Urban gardening', 'published');
    await storeSession(page, user.session);

    await page.goto(`/user/projects/${project.id}`);
    await expect(page.getByTestId('project-status')).toHaveText('Published');
    await expectAccessible(page, 'edit project');
    await page.getByLabel('Title').fill('Urban gardening Berlin');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.notify-success')).toContainText('Project saved.');
    const edited = await admin().from('projects').select('title, slug').eq('id', project.id).single();
    expect(edited.data).toEqual({ title: 'Urban gardening Berlin', slug: 'urban-gardening-berlin' });

    // old slug redirects to the canonical one
    await page.goto(`/${project.id}-${project.slug}`);
    await expect(page).toHaveURL(new RegExp(`/${project.id}-urban-gardening-berlin$`));

    await page.goto('/de/user/projects');
    await page.getByRole('button', { name: 'Veröffentlichung zurückziehen' }).click();
    await page.getByTestId('confirm-action').click();
    await expect(page.locator('.notify-success')).toContainText('Das Projekt ist wieder ein Entwurf.');

    // a draft of another user is a 404 for a visitor
    await page.evaluate(() => localStorage.clear());
    await page.goto(`/${project.id}-urban-gardening-berlin`);
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');

    await storeSession(page, user.session);
    await page.goto('/user/projects');
    await page.getByTestId('my-project').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toContainText('Delete the project “Urban gardening Berlin”?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByTestId('my-project')).toHaveCount(1);
    await page.getByTestId('my-project').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-action').click();
    await expect(page.locator('.notify-success')).toContainText('Project deleted.');
    await expect(page.getByTestId('projects-empty')).toBeVisible();
    const gone = await admin().from('projects').select('id').eq('id', project.id);
    expect(gone.data).toEqual([]);
  });
});
