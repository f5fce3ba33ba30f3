import { axe } from './axe';
import { expect, type Page, test } from '@playwright/test';
import { dismissCookies } from './billing-support';
import { admin, createUser, token, type TestUser, useSession as putSession } from './content-events-support';
import { messages } from './support';

/**
 * One card design, page headers and empty states (issue 18) on the lists outside the landing
 * page: favourites and contacts show the owner's name, category, city and one action per card
 * while their own buttons stay usable; an empty list names a next step that leads somewhere; and
 * the lists with cards and empty states (jobs, search, the user area) have no axe colour-contrast
 * violation and no sideways scrolling, in light and dark, on a desktop (English) and a phone
 * (German, the longer words); so have the settings page, a legal text and the map.
 */

test.describe.configure({ mode: 'serial' });

const tok = token();
const city = `Kartenstadt${tok}`;
let owner: TestUser;
let fan: TestUser;
let newcomer: TestUser;
let project: { id: number; slug: string; title: string };

const en = (id: string) => {
  const text = messages.en[id];
  if (!text) throw new Error(`no message ${id}`);
  return text;
};

test.beforeAll(async () => {
  [owner, fan, newcomer] = await Promise.all([createUser('premium', 'Karla'), createUser('premium', 'Finn'), createUser('basic', 'Nele')]);
  const service = admin();
  const inserted = await service
    .from('projects')
    .insert({ owner_id: owner.id, title: `Kartenprojekt ${tok}`, slug: '', category: 'environment', city, status: 'published', summary: 'Cards for everyone.' })
    .select('id, slug, title')
    .single();
  expect(inserted.error).toBeNull();
  project = inserted.data as typeof project;
  expect((await fan.client.from('favourite_projects').insert({ user_id: fan.id, project_id: project.id })).error).toBeNull();
  const linked = await service.from('contacts').insert({ requester_id: owner.id, addressee_id: fan.id, status: 'accepted', responded_at: new Date().toISOString() });
  expect(linked.error).toBeNull();
});

async function ownerName(user: TestUser): Promise<string> {
  const row = await admin().from('profiles').select('firstname, lastname').eq('id', user.id).single();
  expect(row.error).toBeNull();
  return `${row.data!.firstname} ${row.data!.lastname}`;
}

test('a favourite project is a card with owner, category and city; its remove button works above the card link', async ({ page }) => {
  await putSession(page, fan);
  await page.goto('/user/favorites');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('page.user-favorites.title'));
  const card = page.getByTestId('favourite-project-item');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(project.title);
  await expect(card).toContainText(await ownerName(owner));
  await expect(card).toContainText(en('search.category.environment'));
  await expect(card).toContainText(city);
  // the title is the card's one link and leads to the project
  await expect(card.getByRole('link')).toHaveCount(1);
  await expect(card.getByRole('link')).toHaveAttribute('href', new RegExp(`/${project.id}-${project.slug}$`));
  // the button sits above the card-wide link: a click removes instead of navigating
  await card.getByRole('button', { name: en('favorites.remove') }).click();
  await expect(page.getByTestId('favourite-project-item-empty')).toHaveText(en('favorites.projectsEmpty'));
  await expect(page).toHaveURL(/\/user\/favorites$/);
  const left = await admin().from('favourite_projects').select('project_id').eq('user_id', fan.id);
  expect(left.data).toEqual([]);
  // the empty state names a next step
  await page.getByRole('link', { name: en('favorites.findMore') }).click();
  await expect(page).toHaveURL(/\/search$/);
});

// the contact card and the empty lists' next steps: src/features/user/__tests__/user-lists-screens.test.tsx

async function settle(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

const PAGES: { path: string; who: 'fan' | 'newcomer' | null }[] = [
  { path: '/jobs', who: null },
  { path: '/working-remote-jobs', who: null },
  { path: `/search?q=Kartenprojekt`, who: null },
  { path: '/search?q=nichtsdergleichen', who: null },
  { path: '/user/projects', who: 'newcomer' },
  { path: '/user/portfolios', who: 'newcomer' },
  { path: '/user/events', who: 'newcomer' },
  { path: '/user/favorites', who: 'newcomer' },
  { path: '/user/contacts', who: 'fan' },
  { path: '/user/chat', who: 'newcomer' },
  // hints under switches and the marked placeholders of the legal texts (were light on light in dark mode)
  { path: '/user/settings', who: 'fan' },
  { path: '/impressum', who: null },
  // long German compounds in headings and text (were 11 and 54 px too wide on a phone)
  { path: '/legal/Datenschutzhinweise', who: null },
  { path: '/legal/anbieterkennzeichnung', who: null },
];

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800, lang: 'en' },
  { name: 'mobile', width: 390, height: 844, lang: 'de' },
] as const) {
  // colours are the same at every width: dark mode is checked on the desktop, the phone width in light (test time)
  for (const scheme of viewport.name === 'desktop' ? (['light', 'dark'] as const) : (['light'] as const)) {
    test(`${viewport.name} ${scheme}: cards and empty states keep contrast and fit the width`, async ({ page }) => {
      test.setTimeout(240_000); // a dozen pages, each checked by axe; the light run took 1.4 min in a fresh-clone CI run, the dark one ran out of 2
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme: scheme });
      const problems: string[] = [];
      let cookiesDismissed = false;
      for (const entry of PAGES) {
        await putSession(page, entry.who === 'fan' ? fan : entry.who === 'newcomer' ? newcomer : null);
        const url = viewport.lang === 'de' ? `/de${entry.path}` : entry.path;
        await page.goto(url);
        if (!cookiesDismissed) {
          await dismissCookies(page).catch(() => undefined);
          cookiesDismissed = true;
        }
        await settle(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) problems.push(`${url}: scrolls sideways by ${overflow} px`);
        const scan = await axe(page).withRules(['color-contrast']).analyze();
        for (const v of scan.violations) for (const n of v.nodes) problems.push(`${url}: ${v.id} ${n.target.join(' ')} (${n.any[0]?.message ?? ''})`);
      }
      expect(problems).toEqual([]);
    });
  }
}

/** The map's list beside the map and a marker's popup (MapLibre's white box) in both schemes. */
for (const scheme of ['light', 'dark'] as const) {
  test(`map ${scheme}: the list's kind badges and a popup keep contrast`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // central Berlin: the demo data places people and projects there
    await page.goto('/map?bbox=13.30,52.45,13.50,52.55');
    await expect(page.getByTestId('map')).toHaveAttribute('data-markers-ready', 'true', { timeout: 30_000 });
    await expect(page.getByTestId('map-list-item').first()).toBeVisible();
    const problems: string[] = [];
    const check = async (where: string, include?: string) => {
      const builder = axe(page).withRules(['color-contrast']);
      const scan = await (include ? builder.include(include) : builder).analyze();
      for (const v of scan.violations) for (const n of v.nodes) problems.push(`${where}: ${n.target.join(' ')} (${n.any[0]?.message ?? ''})`);
    };
    await check('page');
    const marker = page.getByTestId('map-marker').first();
    await ((await marker.count()) ? marker : page.getByTestId('map-cluster').first()).click();
    await expect(page.getByTestId('map-popup-item').first()).toBeVisible();
    await check('popup', '[data-testid="map-popup"]');
    expect(problems).toEqual([]);
  });
}
