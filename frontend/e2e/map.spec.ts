import { expect, type Page, test } from '@playwright/test';
import { admin, createUser, field, insertEvent, token, type TestUser, useSession } from './content-events-support';
import { ANON_KEY, apiUrl, collectErrors, expectAccessible, expectStackUp, messages, nodeClient } from './support';

/**
 * The map (issue 14) in a real browser: it renders from the app's own files, clusters over
 * Germany, zooms on a cluster click, opens popups linking to detail pages, toggles layers,
 * narrows to the visible area, lists the same items, and never requests another host.
 */
test.describe.configure({ mode: 'serial' });

interface City { name: string; latitude: number; longitude: number }

const tok = token();
let owner: TestUser;
let city: City;
let projectTitle: string;
let projectPath: string;

/** Bounds around the fixture city (w,s,e,n) for `bbox=` URLs. */
const bboxAround = (c: City, d = 0.08) => [c.longitude - d, c.latitude - d, c.longitude + d, c.latitude + d].map((x) => x.toFixed(5)).join(',');

/** Records every request that leaves the app's origin and the API (blob: and data: are the page's own). */
function foreignRequests(page: Page, appOrigin: string): string[] {
  const allowed = new Set([appOrigin, new URL(apiUrl).origin]);
  const out: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (url.startsWith('blob:') || url.startsWith('data:')) return;
    if (!allowed.has(new URL(url).origin)) out.push(url);
  });
  return out;
}

/** Waits for the map's first markers or clusters. */
async function mapReady(page: Page) {
  await expect(page.getByTestId('map')).toHaveAttribute('data-markers-ready', 'true', { timeout: 30_000 });
}

/** Sum of what the map shows: single markers plus the counts of clusters. */
async function shownOnMap(page: Page): Promise<number> {
  const counts = await page.getByTestId('map-cluster').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  return counts.reduce((a, b) => a + b, 0) + (await page.getByTestId('map-marker').count());
}

test.beforeAll(async () => {
  await expectStackUp();
  const service = admin();
  // a small gazetteer city the demo data and other tests leave empty, so the fixture stands alone
  // (nothing else on the map within 0.1°, so the bounds of the tests hold only the fixtures)
  const { data: cities } = await service.from('cities').select('name, latitude, longitude').gte('population', 10000).lte('population', 10600).order('name');
  const candidates = [...(cities ?? [])].sort(() => Math.random() - 0.5);
  for (const c of candidates) {
    const { data, error } = await nodeClient(ANON_KEY).rpc('map_items', { west: c.longitude - 0.1, south: c.latitude - 0.1, east: c.longitude + 0.1, north: c.latitude + 0.1 });
    expect(error).toBeNull();
    if (Object.values((data as { items: Record<string, unknown[]> }).items).every((list) => list.length === 0)) {
      city = c;
      break;
    }
  }
  expect(city, 'a gazetteer city with nothing around it').toBeDefined();
  owner = await createUser('premium', 'Marta');
  await service.from('profiles').update({ city: city.name }).eq('id', owner.id);
  projectTitle = `Kartenprojekt ${tok}`;
  const created = await service
    .from('projects')
    .insert({ owner_id: owner.id, title: projectTitle, slug: `kartenprojekt-${tok}`, summary: 'Ein Projekt auf der Karte', description: 'x', category: 'science', city: city.name, status: 'published' })
    .select('id, slug')
    .single();
  expect(created.error).toBeNull();
  projectPath = `/${created.data!.id}-${created.data!.slug}`;
  await insertEvent(owner.id, { title: `Kartentreffen ${tok}`, city: city.name, category: 'science' });
});

test('while maplibre loads, the placeholder already shows the markers of the first view, as the map then draws them (issue 34)', async ({ page }) => {
  // hold maplibre's chunk back, as a slow network does
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/maplibre-gl[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/map');
  const placeholder = page.getByTestId('map-loading');
  await expect(placeholder).toHaveAttribute('data-preview-markers', 'true', { timeout: 30_000 });
  const preview = await placeholder.evaluate((el) => ({
    clusters: [...el.querySelectorAll('[data-preview="cluster"]')].map((e) => Number(e.getAttribute('data-count'))).sort((a, b) => a - b),
    pins: el.querySelectorAll('[data-preview="pin"]').length,
  }));
  expect(preview.clusters.length + preview.pins).toBeGreaterThan(0);
  release();
  await mapReady(page);
  await expect(page.getByTestId('map-loading')).toHaveCount(0);
  const clusters = (await page.getByTestId('map-cluster').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))).sort((a, b) => a - b);
  expect(clusters).toEqual(preview.clusters);
  await expect(page.getByTestId('map-marker')).toHaveCount(preview.pins);
});

test('the markers\' data is requested beside the page\'s code, once (issue 34)', async ({ page }) => {
  // the page's module (the chunk with its filter toggle) is held until the data has been asked
  // for: the request must not wait for the page's first render
  const dataRequests: string[] = [];
  let asked = () => {};
  const dataAsked = new Promise<void>((resolve) => (asked = resolve));
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/rpc/map_items')) {
      dataRequests.push(request.url());
      asked();
    }
  });
  await page.route(/\/assets\/map-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('map-filters-toggle')) await dataAsked;
    await route.fulfill({ response, body });
  });
  await page.goto('/map?layers=projects,events');
  await mapReady(page);
  await expect(page.getByTestId('map-total')).not.toHaveText(messages.en['map.loading']!);
  expect(dataRequests).toHaveLength(1);
  expect(new URL(dataRequests[0]!).searchParams.get('layers')).toBe('{projects,events}');
});

test('renders Germany from local files, clusters, zooms on a cluster, axe passes (en)', async ({ page, baseURL }) => {
  const errors = collectErrors(page);
  const foreign = foreignRequests(page, new URL(baseURL!).origin);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/map');
  await expect(page).toHaveTitle(/^Map \|/);
  await expect(page.getByRole('heading', { level: 1, name: 'Map' })).toBeVisible();
  await mapReady(page);
  const clusters = page.getByTestId('map-cluster');
  expect(await clusters.count()).toBeGreaterThan(3);

  // the canvas is drawn: water and land in several colours, not a blank area (the basemap loads in a
  // worker); markers and controls are hidden for the shot, so only the WebGL drawing counts
  const colours = async () => {
    const shot = await page.locator('canvas.maplibregl-canvas').screenshot({
      style: '.maplibregl-marker, .maplibregl-control-container, .maplibregl-popup { visibility: hidden !important; }',
    });
    return page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
      return seen.size;
    }, shot.toString('base64'));
  };
  await expect.poll(colours, { message: 'distinct colours on the map canvas' }).toBeGreaterThan(3);
  await expect(page.locator('.maplibregl-ctrl-attrib')).toContainText('Natural Earth');

  // the list beside the map holds what the map shows
  const total = Number((await page.getByTestId('map-total').textContent())!.replace(/\D/g, ''));
  expect(total).toBeGreaterThan(50);
  expect(await shownOnMap(page)).toBe(total);

  // a cluster click zooms in (at once: reduced motion)
  const zoom = Number(await page.getByTestId('map').getAttribute('data-zoom'));
  const big = clusters.first();
  await big.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => Number(await page.getByTestId('map').getAttribute('data-zoom'))).toBeGreaterThan(zoom);

  await expectAccessible(page, '/map');
  expect(foreign, 'requests outside the app and the API').toEqual([]);
  expect(errors).toEqual([]);
});

test('items at one place share a cluster; layers toggle; the list shows the same items; a popup links to the detail page (en)', async ({ page }) => {
  await page.goto(`/map?bbox=${bboxAround(city)}`);
  await mapReady(page);
  // person, project and event sit at the city's coordinates: one cluster that lists them
  const cluster = page.getByTestId('map-cluster');
  await expect(cluster).toHaveCount(1);
  await expect(cluster).toHaveAttribute('data-count', '3');
  await expect(page.getByTestId('map-list-item')).toHaveCount(await shownOnMap(page));
  await expect(page.getByTestId('map-list')).toContainText(projectTitle);
  await expect(page.getByTestId('map-list')).toContainText(`Kartentreffen ${tok}`);
  await expect(page.getByTestId('map-list')).toContainText('Marta Tester');

  // switching the projects layer off hides its items on the map and in the list
  await page.getByTestId('map-layer-projects').click();
  await expect(page).toHaveURL(/layers=people%2Cevents%2Cjobs/);
  await expect(cluster).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('map-list')).not.toContainText(projectTitle);
  await page.getByTestId('map-layer-projects').click();
  await expect(cluster).toHaveAttribute('data-count', '3');

  // the cluster cannot split (one place): its popup lists the three cards
  await cluster.click();
  const popup = page.getByTestId('map-popup');
  await expect(popup.getByTestId('map-popup-item')).toHaveCount(3);
  await expect(popup).toContainText('3 results at this place');
  const card = popup.getByTestId('map-popup-item').filter({ hasText: projectTitle });
  await expect(card).toContainText(city.name);
  await expect(card).toContainText('Science');
  // the popup's list scrolls (at most 240 px high): a pointer click at the link's scrolled-to
  // position sometimes hit the list between two cards on a busy machine, as the list's scroll
  // position changed between Playwright's scroll and its click; the link is followed by keyboard
  const link = card.getByRole('link', { name: projectTitle });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${projectPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(page.getByRole('heading', { level: 1, name: projectTitle })).toBeVisible();
});

test('"Search this area" narrows the results to the visible bounds (en)', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/map');
  // the cookie notice covers the lower part of the page; the user answers it first
  await page.getByRole('button', { name: 'Necessary only' }).click();
  await mapReady(page);
  const before = Number((await page.getByTestId('map-total').textContent())!.replace(/\D/g, ''));
  await expect(page.getByTestId('map-search-area')).toHaveCount(0);
  // the user zooms in with the wheel over the map
  const box = (await page.locator('canvas.maplibregl-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.4);
  for (let i = 0; i < 6; i += 1) {
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(150);
  }
  // the wheel zoom eases on after the last wheel event (a later move shows the button again); like
  // a user, click once the map has come to rest: its zoom (set at every move's end) stays put
  const zoom = () => page.getByTestId('map').getAttribute('data-zoom');
  await expect
    .poll(async () => {
      const first = await zoom();
      await page.waitForTimeout(400);
      return first === (await zoom());
    })
    .toBe(true);
  await page.getByTestId('map-search-area').click();
  await expect(page).toHaveURL(/bbox=/);
  await expect.poll(async () => Number((await page.getByTestId('map-total').textContent())!.replace(/\D/g, ''))).toBeLessThan(before);
  const after = Number((await page.getByTestId('map-total').textContent())!.replace(/\D/g, ''));
  expect(after).toBeGreaterThan(0);
  await expect(page.getByTestId('map-search-area')).toHaveCount(0);
  await page.getByTestId('map-all-germany').click();
  await expect(page).not.toHaveURL(/bbox=/);
});

test('Karte auf Deutsch, und „Liste | Karte“ bei Suche und Events (de)', async ({ page, baseURL }) => {
  const errors = collectErrors(page);
  const foreign = foreignRequests(page, new URL(baseURL!).origin);
  await page.goto(`/de/map?layers=projects&category=science&bbox=${bboxAround(city)}`);
  await expect(page).toHaveTitle(/^Karte \|/);
  await expect(page.getByRole('heading', { level: 1, name: 'Karte' })).toBeVisible();
  await mapReady(page);
  await expect(page.getByLabel('Projekte (1)')).toBeChecked();
  await expect(page.getByLabel(/^Personen/)).not.toBeChecked();
  await page.getByRole('button', { name: `Projekt: ${projectTitle}, ${city.name}` }).click();
  await expect(page.getByTestId('map-popup')).toContainText('Wissenschaft');
  await page.keyboard.press('Escape');

  // the search page shows its current results on the map
  await page.goto(`/de/search?q=${encodeURIComponent(projectTitle)}`);
  await expect(page.getByTestId('search-total')).toHaveText('1 Ergebnis');
  await page.getByTestId('view-switch').getByText('Karte').click();
  await expect(page).toHaveURL(/view=map/);
  await expect(page.getByTestId('results-map')).toBeVisible();
  await mapReady(page);
  await expect(page.getByTestId('map-marker')).toHaveCount(1);
  await expect(page.getByTestId('map-list')).toContainText(projectTitle);

  // the events page too, with the same filters in the URL
  await page.goto(`/de/events?city=${encodeURIComponent(city.name)}&view=map`);
  await mapReady(page);
  await expect(page.getByTestId('map-list')).toContainText(`Kartentreffen ${tok}`);
  await page.getByTestId('view-switch').getByText('Liste').click();
  await expect(page).not.toHaveURL(/view=map/);
  await expect(page.getByTestId('events-list')).toContainText(`Kartentreffen ${tok}`);

  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('a business opts in to its exact address on the map in the settings; people stay at their city (en)', async ({ page }) => {
  const anon = nodeClient(ANON_KEY);
  const box = bboxAround(city).split(',').map(Number);
  const where = async () => {
    const { data, error } = await anon.rpc('map_items', { west: box[0]!, south: box[1]!, east: box[2]!, north: box[3]!, layers: ['people'] });
    expect(error).toBeNull();
    return (data as { items: { people: { id: string; lat: number; lon: number }[] } }).items.people.find((i) => i.id === owner.id);
  };
  expect(await where()).toMatchObject({ lat: city.latitude, lon: city.longitude });

  await admin().from('profiles').update({ type: 'business' }).eq('id', owner.id);
  await useSession(page, owner);
  await page.goto('/user/settings');
  await page.getByTestId('business-exact-location').check();
  await field(page, 'Latitude (e.g. 50.93752)').fill((city.latitude + 0.01234).toFixed(5));
  await field(page, 'Longitude (e.g. 6.96037)').fill((city.longitude - 0.00567).toFixed(5));
  await page.getByRole('button', { name: 'Save map location' }).click();
  await expect(page.getByText('Your changes have been saved.').first()).toBeVisible();
  await expect.poll(where).toMatchObject({ lat: Number((city.latitude + 0.01234).toFixed(5)), lon: Number((city.longitude - 0.00567).toFixed(5)) });

  // as a person again, the database puts them back at the city, whatever was written
  await admin().from('profiles').update({ type: 'other' }).eq('id', owner.id);
  expect(await where()).toMatchObject({ lat: city.latitude, lon: city.longitude });
});
