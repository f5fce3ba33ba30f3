import { expect, test } from '@playwright/test';
import { createUser, insertEvent, token } from './content-events-support';
import { collectErrors, expectStackUp } from './support';

/**
 * Search for what people type (issue 33 §2): a German user's "oe" for "ö" finds the place, an
 * English word finds the German text, a word without hits offers "did you mean …" and
 * /unified-search?q= searches for q. Invented place names (letters only: the parser keeps words
 * with digits apart) keep the demo data out.
 */
test.describe.configure({ mode: 'serial' });

const tok = token().replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const place = `Zörbelfeld${tok}`;
const typed = `Zoerbelfeld${tok}`;

test.beforeAll(async () => {
  await expectStackUp();
  const owner = await createUser('premium', 'Fenja');
  await insertEvent(owner.id, { title: `Repair-Treff ${place}`, summary: 'Wir reparieren gemeinsam.', city: place, category: 'community' });
  await insertEvent(owner.id, { title: `Nachhaltigkeit im Verein ${tok}`, summary: 'Weniger Müll beim Sportfest.', city: place, category: 'other' });
});

test('/unified-search?q= searches for q; "oe" finds "ö" and marks the original spelling (en)', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(`/unified-search?q=${typed}`);
  // the search view is loaded lazily (a cold preview under load takes a while)
  await expect(page.getByTestId('search-query')).toHaveValue(typed, { timeout: 30_000 });
  const result = page.getByTestId('search-result').filter({ hasText: `Repair-Treff ${place}` });
  await expect(result).toHaveCount(1);
  await expect(result.locator('mark').first()).toHaveText(place);
  expect(errors).toEqual([]);
});

test('a misspelt English word offers "did you mean", which finds the German text (de)', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(`/de/search?q=sustainabilty&city=${encodeURIComponent(place)}`);
  // the words as typed find nothing: the corrected words are searched and offered
  await expect(page.getByTestId('search-result').getByRole('heading')).toHaveText([`Nachhaltigkeit im Verein ${tok}`], { timeout: 30_000 });
  const suggestion = page.getByTestId('search-suggestion');
  await expect(suggestion).toHaveText('Meinten Sie sustainability?');
  await suggestion.getByRole('button', { name: 'sustainability' }).click();
  await expect(page).toHaveURL(/q=sustainability&/);
  await expect(page.getByTestId('search-result').getByRole('heading')).toHaveText([`Nachhaltigkeit im Verein ${tok}`]);
  expect(errors).toEqual([]);
});

test('"did you mean" in English, reached by keyboard', async ({ page }) => {
  await page.goto(`/search?q=sustainabilty&city=${encodeURIComponent(place)}`);
  const suggestion = page.getByTestId('search-suggestion');
  await expect(suggestion).toHaveText('Did you mean sustainability?', { timeout: 30_000 });
  await suggestion.getByRole('button', { name: 'sustainability' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('search-result').getByRole('heading')).toHaveText([`Nachhaltigkeit im Verein ${tok}`]);
});
