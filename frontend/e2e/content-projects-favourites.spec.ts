import { expect, test } from '@playwright/test';
import { admin, createUser, expectAccessible, seedProject, storeSession } from './content-projects-helpers';
import { expectStackUp } from './support';

test.describe('favourite projects and feedback (spec §2, §3, §5)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('logged out asks to log in; favourite once despite a double click; remove on /de/user/favorites', async ({ page }) => {
    const owner = await createUser('basic', 'favowner');
    const project = await seedProject(owner.userId, 'Repair café network', 'published');
    const visitor = await createUser('basic', 'favvisitor');
    const rows = async () => (await admin().from('favourite_projects').select('project_id').eq('user_id', visitor.userId)).data;

    await page.goto(`/${project.id}-${project.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Repair café network');
    await page.getByTestId('favourite-project').click();
    await expect(page.getByTestId('favourite-login')).toContainText('Please log in to save favourites.');
    await expect(page.getByTestId('favourite-login').getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/login');

    await storeSession(page, visitor.session);
    await page.goto(`/${project.id}-${project.slug}`);
    const button = page.getByTestId('favourite-project');
    await expect(button).toHaveText('Save as favourite');
    await button.dblclick();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(button).toHaveText('Remove favourite');
    expect(await rows()).toEqual([{ project_id: project.id }]);
    // adding again through the API is ignored too (upsert, ignore duplicates)
    const again = await visitor.client
      .from('favourite_projects')
      .upsert({ user_id: visitor.userId, project_id: project.id }, { onConflict: 'user_id,project_id', ignoreDuplicates: true });
    expect(again.error).toBeNull();
    expect(await rows()).toHaveLength(1);

    await page.goto('/de/user/favorites');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Favoriten');
    await expect(page.getByTestId('favourite-project-item')).toHaveCount(1);
    await expect(page.getByTestId('favourite-project-item')).toContainText('Repair café network');
    await expect(page.getByTestId('favourite-job-item-empty')).toHaveText('Sie haben sich noch keine Jobs gemerkt.');
    await expectAccessible(page, '/de/user/favorites');
    await page.getByTestId('favourite-project-item').getByRole('button', { name: 'Entfernen' }).click();
    await expect(page.locator('.notify-success')).toContainText('Aus Ihren Favoriten entfernt.');
    await expect(page.getByTestId('favourite-project-item-empty')).toHaveText('Sie haben sich noch keine Projekte gemerkt.');
    expect(await rows()).toEqual([]);

    // favourite and unfavourite from the project page
    await page.goto(`/${project.id}-${project.slug}`);
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(await rows()).toEqual([]);

    // once the visitor blocks the owner, the project is a 404 for them
    const block = await admin().from('user_blocks').insert({ blocker_id: visitor.userId, blocked_id: owner.userId });
    expect(block.error).toBeNull();
    await page.reload();
    await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
  });

  test('feedback is stored and confirmed with a snackbar (de)', async ({ page }) => {
    const user = await createUser('free', 'feedback');
    await storeSession(page, user.session);
    await page.goto('/de/user/feedback');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Feedback');
    await page.getByRole('button', { name: 'Feedback senden' }).click();
    await expect(page.getByText('Bitte schreiben Sie zwischen 3 und 5.000 Zeichen.')).toBeVisible();
    await expectAccessible(page, '/de/user/feedback');
    await page.getByLabel('Thema').selectOption('idea');
    await page.getByLabel('Ihr Feedback').fill('Bitte eine Kartenansicht für Projekte in meiner Nähe.');
    await page.getByRole('button', { name: 'Feedback senden' }).click();
    await expect(page.locator('.notify-success')).toContainText('Vielen Dank! Ihr Feedback wurde gesendet.');
    await expect(page.getByLabel('Ihr Feedback')).toHaveValue('');
    const stored = await admin().from('feedback').select('category, message, status').eq('user_id', user.userId);
    expect(stored.data).toEqual([{ category: 'idea', message: 'Bitte eine Kartenansicht für Projekte in meiner Nähe.', status: 'new' }]);
  });
});
