import { expect, test } from '@playwright/test';
import { admin, createUser, expectAccessible, seedProject, storeSession } from './content-projects-helpers';
import { collectErrors, expectStackUp } from './support';

/**
 * Issue 33 §6 from the member's side: the project wizard and the edit form ask for a city (with
 * suggestions from the gazetteer), never for latitude and longitude; the database places the
 * project at the chosen city's coordinates. English and German.
 */
test.describe('projects: a city instead of latitude and longitude (issue 33 §6)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  async function gazetteer(name: string) {
    const r = await admin().from('cities').select('latitude, longitude').eq('name', name).single();
    expect(r.error).toBeNull();
    return r.data!;
  }

  test('the wizard suggests cities as one types and the published project sits at the city (en)', async ({ page }) => {
    const errors = collectErrors(page);
    const user = await createUser('basic', 'city');
    await storeSession(page, user.session);

    await page.goto('/user/projects/create-project-new');
    await page.getByLabel('Title').fill('Repair café network');
    await page.getByLabel('Category').selectOption('community');
    await page.getByTestId('wizard-next').click();
    await expect(page).toHaveURL(/create-project-\d+$/);
    await page.getByTestId('wizard-next').click();

    // the location step: a city field, no coordinates to type
    await expect(page.getByLabel(/Latitude|Longitude/)).toHaveCount(0);
    const city = page.getByRole('combobox', { name: 'City' });
    await expect(page.getByText('Start typing and choose your city from the list: the map shows the project there.')).toBeVisible();
    await city.fill('Münch');
    await page.getByRole('option', { name: /^München/ }).click();
    await expect(city).toHaveValue('München');
    await expect(page.getByTestId('city-position')).toHaveText('On the map at München, Bayern (48.14° N, 11.58° E).');
    await expectAccessible(page, 'wizard location step');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-publish').click();
    await expect(page.locator('.notify-success')).toContainText('Project published.');

    const stored = await admin().from('projects').select('city, latitude, longitude').eq('owner_id', user.userId).single();
    const munich = await gazetteer('München');
    expect(stored.data).toEqual({ city: 'München', latitude: munich.latitude, longitude: munich.longitude });
    expect(errors).toEqual([]);
  });

  test('editing the city moves the project; a place outside the gazetteer is named as not on the map (de)', async ({ page }) => {
    const user = await createUser('basic', 'city-de');
    const project = await seedProject(user.userId, 'Gemeinschaftsgarten', 'published');
    await admin().from('projects').update({ city: 'Köln' }).eq('id', project.id);
    await storeSession(page, user.session);

    await page.goto(`/de/user/projects/${project.id}`);
    await expect(page.getByLabel(/Breitengrad|Längengrad/)).toHaveCount(0);
    const city = page.getByRole('combobox', { name: 'Stadt' });
    await expect(city).toHaveValue('Köln');
    await expect(page.getByTestId('city-position')).toHaveText('Auf der Karte bei Köln, Nordrhein-Westfalen (50,93° N, 6,95° O).');

    await city.fill('Kleinkleckersdorf');
    await expect(page.getByTestId('city-position')).toHaveText(
      '„Kleinkleckersdorf“ ist nicht in unserer Städteliste, daher erscheint das Projekt nicht auf der Karte. Wählen Sie eine Stadt in der Nähe aus der Liste.',
    );
    await city.fill('Leip');
    await page.getByRole('option', { name: /^Leipzig/ }).click();
    await expect(page.getByTestId('city-position')).toHaveText('Auf der Karte bei Leipzig, Sachsen (51,34° N, 12,37° O).');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.locator('.notify-success')).toBeVisible();

    const stored = await admin().from('projects').select('city, latitude, longitude').eq('id', project.id).single();
    const leipzig = await gazetteer('Leipzig');
    expect(stored.data).toEqual({ city: 'Leipzig', latitude: leipzig.latitude, longitude: leipzig.longitude });
  });
});
