import { expect, test } from '@playwright/test';
import { admin, createUser, token, useSession, type TestUser } from './content-events-support';
import { collectErrors, expectStackUp, messages } from './support';

/**
 * Match cards show the top three reasons and a "show all" toggle (issue 33 §12), in English and
 * German, by keyboard. Both people's matching profiles are written through the service client in
 * a city of their own (Görlitz, location a must-have), so only they match each other; the
 * profiles are removed when each test ends.
 */

const GOERLITZ = { city: 'Görlitz', latitude: 51.15518, longitude: 14.98853 };
const created: string[] = [];

async function person(firstname: string): Promise<TestUser & { slug: string }> {
  const user = await createUser('premium', firstname);
  created.push(user.id);
  const placed = await admin().from('profiles').update(GOERLITZ).eq('id', user.id).select('slug').single();
  expect(placed.error).toBeNull();
  return { ...user, slug: (placed.data as { slug: string }).slug };
}

async function matchProfile(userId: string, fields: Record<string, unknown>): Promise<void> {
  const result = await admin()
    .from('match_profiles')
    .insert({ user_id: userId, is_primary: true, must_have: ['location'], radius_km: 5, ...fields });
  expect(result.error).toBeNull();
}

test.beforeAll(async () => {
  await expectStackUp();
});
test.afterEach(async () => {
  if (created.length) await admin().from('match_profiles').delete().in('user_id', created.splice(0));
});

for (const locale of ['en', 'de'] as const) {
  const m = messages[locale];
  const prefix = locale === 'de' ? '/de' : '';
  test(`${locale}: a match card shows the top three reasons; "show all" opens the rest by keyboard`, async ({ page }) => {
    const errors = collectErrors(page);
    const me = await person(`Mia${token()}`);
    const them = await person(`Tom${token()}`);
    await matchProfile(me.id, {
      kind: 'professional',
      roles_offered: ['business'],
      roles_sought: ['technical'],
      skills: ['online_marketing'],
      skills_sought: ['backend', 'react'],
      commitment: 'part_time',
    });
    await matchProfile(them.id, {
      kind: 'professional',
      roles_offered: ['technical'],
      roles_sought: ['business'],
      skills: ['backend', 'react'],
      skills_sought: ['online_marketing'],
      commitment: 'part_time',
    });
    await useSession(page, me);
    await page.goto(`${prefix}/matches`);
    const card = page.locator(`[data-testid="match-card"][data-user="${them.slug}"]`);
    await expect(card).toBeVisible({ timeout: 30_000 });
    const reasons = card.getByTestId('match-reasons');
    const all = reasons.locator('[data-reason]');
    const count = await all.count();
    expect(count).toBeGreaterThan(3);
    // three visible, the rest closed; what fits comes first
    await expect(reasons.getByTestId('reasons-top').locator('[data-reason]')).toHaveCount(3);
    await expect(reasons.getByTestId('reasons-rest')).toBeHidden();
    await expect(reasons.getByTestId('reasons-top').locator('[data-reason]').first()).toContainText(m['matching.role.technical']!);
    const toggle = reasons.getByRole('button', { name: m['matching.reasons.showAll']!.replace('{count}', String(count)) });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const restId = await toggle.getAttribute('aria-controls');
    expect(restId).toBeTruthy();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(reasons.getByTestId('reasons-rest')).toBeVisible();
    await expect(reasons.getByTestId('reasons-rest').locator('[data-reason]')).toHaveCount(count - 3);
    const fewer = reasons.getByRole('button', { name: m['matching.reasons.showFewer']! });
    await expect(fewer).toHaveAttribute('aria-expanded', 'true');
    await expect(fewer).toBeFocused();
    await page.keyboard.press('Space');
    await expect(reasons.getByTestId('reasons-rest')).toBeHidden();
    expect(errors).toEqual([]);
  });
}
