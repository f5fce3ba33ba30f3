import { expect, test } from '@playwright/test';
import { admin, createUser, insertEvent, token, type TestUser, useSession } from './content-events-support';
import { collectErrors, expectStackUp } from './support';

test.describe.configure({ mode: 'serial' });

const tok = token();
const city = `Suchstadt${tok}`;
let owner: TestUser;
let other: TestUser;
let blocker: TestUser;

test.beforeAll(async () => {
  await expectStackUp();
  [owner, other, blocker] = await Promise.all([createUser('basic', 'Olaf'), createUser('basic', 'Otto'), createUser('basic', 'Bea')]);
  await insertEvent(owner.id, {
    title: `Gründer-Treffen ${tok}`,
    summary: 'Für <script>window.__xss = 1</script> Gründerinnen & Gründer',
    city,
    category: 'technology',
  });
  await insertEvent(other.id, { title: `Gründer-Frühstück ${tok}`, summary: 'Kaffee und Ideen', city, category: 'art' });
});

const titles = (page: import('@playwright/test').Page) => page.getByTestId('search-result').getByRole('heading');

test('umlaut-less query, filters, safe highlighting and a shared URL (en)', async ({ page, browser }) => {
  const errors = collectErrors(page);
  await page.goto('/search');
  await expect(page).toHaveTitle(/^Search \|/);
  await page.getByTestId('search-query').fill('Grunder');
  await page.getByLabel('City', { exact: true }).fill(city);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=Grunder&city=${city}`));
  await expect(page.getByTestId('search-total')).toHaveText('2 results');
  await expect(titles(page)).toHaveCount(2);
  // "Grunder" found "Gründer": the match is marked, the escaped <script> stays text
  await expect(page.getByTestId('search-result').locator('mark').first()).toHaveText('Gründer');
  await expect(page.getByTestId('search-results')).toContainText('<script>window.__xss = 1</script>');
  expect(await page.locator('[data-testid="search-results"] script').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  // facet counts and filters
  await expect(page.getByTestId('search-type-event').locator('..').locator('..')).toContainText('Events (2)');
  await page.getByLabel('Category').selectOption('art');
  await expect(page).toHaveURL(/category=art/);
  await expect(titles(page)).toHaveText([`Gründer-Frühstück ${tok}`]);
  await page.getByTestId('search-type-profile').click();
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await page.getByTestId('search-type-event').click();
  await expect(page).toHaveURL(/type=profile%2Cevent|type=profile,event/);
  await expect(titles(page)).toHaveText([`Gründer-Frühstück ${tok}`]);
  // the URL alone reproduces the results in a fresh browser context
  const shared = page.url();
  const context = await browser.newContext();
  const second = await context.newPage();
  await second.goto(shared);
  await expect(titles(second)).toHaveText([`Gründer-Frühstück ${tok}`]);
  await expect(second.getByTestId('search-query')).toHaveValue('Grunder');
  await expect(second.getByLabel('Category')).toHaveValue('art');
  await context.close();
  expect(errors).toEqual([]);
});

test('typo tolerance and the German page (de)', async ({ page }) => {
  await page.goto(`/de/search?q=Grundr&city=${city}`);
  await expect(page).toHaveTitle(/^Suche \|/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Suche');
  await expect(page.getByTestId('search-total')).toHaveText('2 Ergebnisse');
  await expect(titles(page)).toContainText([`Gründer-Treffen ${tok}`]);
  await page.goto(`/de/search?q=nichtsdergleichen${tok}`);
  await expect(page.getByTestId('search-empty')).toHaveText('Nichts gefunden. Versuchen Sie andere Begriffe oder weniger Filter.');
});

test('a blocked user vanishes from the blocker\'s search results', async ({ page }) => {
  await useSession(page, blocker);
  await page.goto(`/search?q=Grunder&city=${city}`);
  await expect(titles(page)).toHaveCount(2);
  expect((await admin().from('user_blocks').insert({ blocker_id: blocker.id, blocked_id: other.id })).error).toBeNull();
  await page.reload();
  await expect(page.getByTestId('search-total')).toHaveText('1 result');
  await expect(titles(page)).toHaveText([`Gründer-Treffen ${tok}`]);
  // the block only hides the two people from each other: the blocked user still finds both events (own and the owner's)
  const asBlocked = await other.client.rpc('search', { q: 'Grunder', city });
  expect(asBlocked.error).toBeNull();
  expect((asBlocked.data as { total: number }).total).toBe(2);
});

test('/unified-search updates as the user types, without touching the URL', async ({ page }) => {
  await page.goto('/unified-search');
  await page.getByTestId('search-query').fill(`Grunder ${tok}`);
  await expect(titles(page)).toHaveCount(2);
  await expect(page).toHaveURL(/\/unified-search$/);
  await page.getByTestId('search-query').fill(`Frühstück ${tok}`);
  await expect(titles(page)).toHaveText([`Gründer-Frühstück ${tok}`]);
});

test('a huge result set shows its total as an estimate, in English and German (issue 34)', async ({ page }) => {
  // more hits than search() ranks (1,000): the total is the database's estimate
  const word = `Riesenmenge${tok}`;
  const many = await createUser('premium', 'Mona');
  const rows = Array.from({ length: 1005 }, (_, i) => ({
    owner_id: many.id, title: `${word} ${i}`, summary: 'Sehr viele Treffer', description: 'Beschreibung', category: 'community', status: 'published',
  }));
  const inserted = await admin().from('projects').insert(rows).select('id');
  expect(inserted.error).toBeNull();
  try {
    await page.goto(`/search?q=${word}`);
    await expect(page.getByTestId('search-total')).toHaveText(/^About [\d,]+ results$/);
    await expect(titles(page)).toHaveCount(10);
    await page.goto(`/de/search?q=${word}`);
    await expect(page.getByTestId('search-total')).toHaveText(/^Etwa [\d.]+ Ergebnisse$/);
  } finally {
    expect((await admin().from('projects').delete().eq('owner_id', many.id)).error).toBeNull();
  }
});
