import { expect, test } from '@playwright/test';
import { admin, createUser, field, token, type TestUser, useSession } from './content-events-support';
import { collectErrors, expectStackUp } from './support';

test.describe.configure({ mode: 'serial' });

const tok = token();
const city = `Jobstadt${tok}`;
const ids = { remote: `remote-dev-${tok}`, onsite: `onsite-baker-${tok}`, student: `student-help-${tok}` };
let user: TestUser;

test.beforeAll(async () => {
  await expectStackUp();
  user = await createUser('basic', 'Jana');
  const now = Date.now();
  const rows = [
    { id: ids.remote, title: `Remote developer ${tok}`, company: 'Fernwerk GmbH', city, remote: true, employment_type: 'full_time', category: 'technology', posted_at: new Date(now - 1000).toISOString() },
    { id: ids.onsite, title: `Bäcker (m/w/d) ${tok}`, company: 'Backstube Süd', city, remote: false, employment_type: 'part_time', category: 'business', posted_at: new Date(now - 2000).toISOString() },
    { id: ids.student, title: `Werkstudent Marketing ${tok}`, company: 'Laden AG', city, remote: false, employment_type: 'working_student', category: 'business', posted_at: new Date(now - 3000).toISOString() },
  ].map((r) => ({ ...r, description: 'Beschreibung der Stelle.\nZweite Zeile.', apply_url: 'https://jobs.example.com/apply' }));
  const inserted = await admin().from('jobs').insert(rows as never);
  expect(inserted.error).toBeNull();
});

test('job filters: remote, city, employment type, category (en, de)', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(`/jobs?city=${city}`);
  const list = page.getByTestId('jobs-list');
  await expect(list.getByRole('link')).toHaveText([`Remote developer ${tok}`, `Bäcker (m/w/d) ${tok}`, `Werkstudent Marketing ${tok}`]);
  await field(page, 'Remote').selectOption('remote');
  await expect(page).toHaveURL(/remote=remote/);
  await expect(list.getByRole('link')).toHaveText([`Remote developer ${tok}`]);
  await field(page, 'Remote').selectOption('onsite');
  await expect(list.getByRole('link')).toHaveText([`Bäcker (m/w/d) ${tok}`, `Werkstudent Marketing ${tok}`]);
  await field(page, 'Employment type').selectOption('working_student');
  await expect(list.getByRole('link')).toHaveText([`Werkstudent Marketing ${tok}`]);
  await field(page, 'Category').selectOption('technology');
  await expect(page.getByTestId('jobs-empty')).toBeVisible();
  // German: same filters from the URL, German labels
  await page.goto(`/de/jobs?city=${city}&type=part_time`);
  await expect(page.getByTestId('jobs-total')).toHaveText('1 Job');
  await expect(field(page, 'Anstellungsart')).toHaveValue('part_time');
  await expect(page.getByTestId('jobs-list').getByRole('link')).toHaveText([`Bäcker (m/w/d) ${tok}`]);
  expect(errors).toEqual([]);
});

test('favourite a job: logged out asks to log in; logged in toggles without duplicates', async ({ page }) => {
  await page.goto(`/jobs/${ids.remote}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Remote developer ${tok}`);
  await expect(page.getByTestId('job-apply')).toHaveAttribute('href', 'https://jobs.example.com/apply');
  await page.getByTestId('job-favourite').click();
  await expect(page.getByTestId('job-favourite-login')).toContainText('Please log in to save favourites.');

  await useSession(page, user);
  await page.goto(`/de/jobs/${ids.remote}`);
  const button = page.getByTestId('job-favourite');
  await expect(button).toHaveText('Als Favorit merken');
  await button.click();
  await expect(button).toHaveText('Aus Favoriten entfernen');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  const count = async () => (await admin().from('favourite_jobs').select('job_id', { count: 'exact', head: true }).eq('user_id', user.id).eq('job_id', ids.remote)).count;
  expect(await count()).toBe(1);
  // a second insert (e.g. another tab) is refused by the primary key; still one row
  const again = await user.client.from('favourite_jobs').insert({ user_id: user.id, job_id: ids.remote });
  expect(again.error?.code).toBe('23505');
  expect(await count()).toBe(1);
  await page.reload();
  await expect(button).toHaveText('Aus Favoriten entfernen');
  await button.click();
  await expect(button).toHaveText('Als Favorit merken');
  expect(await count()).toBe(0);
});

test('/working-remote-jobs lists the remote job from the database', async ({ page }) => {
  await page.goto('/working-remote-jobs');
  await expect(page.getByTestId('remote-jobs-list')).toContainText(`Remote developer ${tok}`);
  await expect(page.getByTestId('remote-jobs-list')).not.toContainText(`Bäcker (m/w/d) ${tok}`);
});
