import { expect, test, type Locator, type Page } from '@playwright/test';
import { admin, createUser, token, useSession, type TestUser } from './content-events-support';
import { collectErrors, expectAccessible, expectStackUp, messages } from './support';

/**
 * Matching in the browser (issue 19 "Proof"), in English and German: fill the matching profile,
 * see a match with its reasons on /dashboard, connect; a project owner sees suggested people for
 * an open role; a free user sees how many matches they would have and the upgrade path; a Basic
 * user whose weekly allowance is used sees the limit message. Counterpart profiles are written
 * through the service client so the matches are deterministic; every person of a run lives in a
 * city of their own choosing (Görlitz) with "must have" place, and each test's matching profiles
 * are removed when it ends.
 */

const GOERLITZ = { city: 'Görlitz', latitude: 51.15518, longitude: 14.98853 };
const created: string[] = [];

async function person(role: 'free' | 'basic' | 'premium', firstname: string): Promise<TestUser & { slug: string }> {
  const user = await createUser(role, firstname);
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

/** Waits until the person's primary matching profile is stored (must-have location as the fixtures, so only this test's people match). */
async function matchProfileSaved(userId: string): Promise<void> {
  await expect.poll(async () => (await admin().from('match_profiles').select('id').eq('user_id', userId)).data?.length ?? 0).toBe(1);
  const pinned = await admin().from('match_profiles').update({ must_have: ['location'], radius_km: 5 }).eq('user_id', userId);
  expect(pinned.error).toBeNull();
}

async function skillLabel(key: string, locale: 'en' | 'de'): Promise<string> {
  const row = await admin().from('skills').select('label_en, label_de').eq('key', key).single();
  expect(row.error).toBeNull();
  const data = row.data as { label_en: string; label_de: string };
  return locale === 'de' ? data.label_de : data.label_en;
}

/** Picks an option of a Mantine (Multi)Select by the field's label. */
async function choose(page: Page, label: string, option: string, scope: Page | Locator = page) {
  const name = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
  const box = scope.getByRole('combobox', { name });
  // the field sits inside Mantine's pill box, which takes the pointer events; the keyboard opens the list too
  await box.focus();
  await box.press('ArrowDown');
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

test.describe('matching (issue 19)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  // each test sees only its own people: their matching profiles go when the test ends
  test.afterEach(async () => {
    if (created.length) await admin().from('match_profiles').delete().in('user_id', created.splice(0));
  });

  for (const locale of ['en', 'de'] as const) {
    const m = messages[locale];
    const prefix = locale === 'de' ? '/de' : '';

    test(`${locale}: fill the matching profile, see a match with reasons, connect`, async ({ page }) => {
      const errors = collectErrors(page);
      const me = await person('premium', `Mia${token()}`);
      const them = await person('premium', `Tom${token()}`);
      await matchProfile(them.id, {
        kind: 'professional',
        roles_offered: ['technical'],
        roles_sought: ['business'],
        skills: ['backend', 'react'],
        commitment: 'part_time',
      });
      const other = await person('basic', `Ida${token()}`);
      await matchProfile(other.id, { roles_offered: ['technical'], skills: ['backend'] });

      await useSession(page, me);
      await page.goto(`${prefix}/user/settings`);
      const editor = page.getByTestId('match-profile-editor');
      await expect(editor).toBeVisible();
      await expectAccessible(page, `${prefix}/user/settings`);
      await expect(editor.getByTestId('match-completeness')).toContainText(m['matching.completeness']!.replace('{percent}', '0'));
      await choose(page, m['matching.field.roles_offered']!, m['matching.role.business']!);
      await choose(page, m['matching.field.roles_sought']!, m['matching.role.technical']!);
      const backend = await skillLabel('backend', locale);
      await choose(page, m['matching.field.skills_sought']!, backend);
      await editor.getByTestId('must-location').getByText(m['matching.mustHave']!, { exact: true }).click();
      // the meter moved on: roles are filled, so the next most useful field is the own skills
      await expect(editor.getByTestId('match-next-field')).toContainText(m['matching.field.skills']!);
      // Premium: own weights (the defaults are prefilled; only changed ones are stored)
      const rolesWeight = editor.getByTestId('match-weights').getByLabel(m['matching.weight.roles']!, { exact: true });
      await expect(rolesWeight).toHaveValue('30');
      await rolesWeight.fill('40');
      await page.getByTestId('match-profile-save').click();
      await expect(page.locator('.notify-success')).toContainText(m['matching.profile.saved']!);
      const saved = await admin().from('match_profiles').select('roles_offered, roles_sought, skills_sought, must_have, weights').eq('user_id', me.id).single();
      expect(saved.data).toEqual({
        roles_offered: ['business'],
        roles_sought: ['technical'],
        skills_sought: ['backend'],
        must_have: ['location'],
        weights: { roles: 40 },
      });

      await page.goto(`${prefix}/dashboard`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(m['page.dashboard.title']!);
      const card = page.locator(`[data-testid="match-card"][data-user="${them.slug}"]`);
      await expect(card).toBeVisible();
      const reasons = card.getByTestId('match-reasons');
      // they offer the role I seek, with their skills of that role, in the page's language
      const role = reasons.locator('[data-reason="offers_sought_role"]').first();
      await expect(role).toContainText(m['matching.role.technical']!);
      await expect(role).toContainText(backend);
      await expect(role).toContainText(await skillLabel('react', locale));
      await expect(reasons.locator('[data-reason="same_city"]').first()).toContainText('Görlitz');
      await expect(reasons.locator('[data-reason="has_sought_skills"]')).toContainText(backend);
      await expect(card.getByTestId('match-score')).toContainText('%');
      await expectAccessible(page, `${prefix}/dashboard`);

      await card.getByTestId('connect-button').click();
      await page.getByTestId('contact-send').click();
      await expect(card.getByTestId('connect-actions')).toHaveAttribute('data-relation', 'sent');
      const request = await admin().from('contacts').select('status').eq('requester_id', me.id).eq('addressee_id', them.id).single();
      expect(request.data).toEqual({ status: 'pending' });

      // "Not interested" records a decline and removes the card, also after a reload
      const otherCard = page.locator(`[data-testid="match-card"][data-user="${other.slug}"]`);
      await otherCard.getByTestId('match-decline').click();
      await expect(otherCard).toHaveCount(0);
      const declined = await admin().from('match_declines').select('declined_id').eq('user_id', me.id);
      expect(declined.data).toEqual([{ declined_id: other.id }]);
      const answered = page.waitForResponse((r) => r.url().includes('/rpc/match_people') && r.ok());
      await page.reload();
      await answered;
      await expect(page.getByTestId('dashboard-matches').getByRole('status')).toHaveCount(0);
      await expect(page.locator(`[data-testid="match-card"][data-user="${other.slug}"]`)).toHaveCount(0);
      expect(errors).toEqual([]);
    });

    test(`${locale}: a project owner adds an open role and sees who would fill it`, async ({ page }) => {
      const owner = await person('premium', `Olga${token()}`);
      const dev = await person('basic', `Dev${token()}`);
      await matchProfile(owner.id, { roles_offered: ['business'], roles_sought: ['technical'] });
      await matchProfile(dev.id, { roles_offered: ['technical'], skills: ['backend'], commitment: 'full_time' });
      const project = await admin()
        .from('projects')
        .insert({ owner_id: owner.id, title: `Solar ${token()}`, slug: '', category: 'technology', status: 'published', summary: 'Solar', ...GOERLITZ })
        .select('id')
        .single();
      expect(project.error).toBeNull();
      const id = (project.data as { id: number }).id;

      await useSession(page, owner);
      await page.goto(`${prefix}/user/projects/${id}`);
      const roles = page.getByTestId('open-roles');
      await expect(roles).toBeVisible();
      await choose(page, m['matching.openRoles.role']!, m['matching.role.technical']!);
      const backend = await skillLabel('backend', locale);
      await choose(page, m['matching.openRoles.skills']!, backend);
      await page.getByTestId('open-role-add').click();
      await expect(roles.getByTestId('open-role')).toHaveCount(1);
      const candidate = roles.locator(`[data-testid="team-gap-candidate"][data-user="${dev.slug}"]`);
      await expect(candidate).toBeVisible();
      await expect(candidate.locator('[data-reason="has_role_skills"]')).toContainText(backend);
      await expectAccessible(page, `${prefix}/user/projects/${id}`);

      // the dashboard shows the same gap
      await page.goto(`${prefix}/dashboard`);
      await expect(page.getByTestId('dashboard-open-roles').locator(`[data-testid="team-gap-candidate"][data-user="${dev.slug}"]`)).toBeVisible();
    });

    test(`${locale}: a free user sees how many would match and the way to a plan`, async ({ page }) => {
      const errors = collectErrors(page);
      const free = await person('free', `Fay${token()}`);
      const other = await person('premium', `Otto${token()}`);
      await matchProfile(other.id, { roles_offered: ['sales_marketing'], roles_sought: ['design'] });
      await useSession(page, free);
      await page.goto(`${prefix}/dashboard`);
      // no matching profile yet (and no /user/settings without a plan): the dashboard offers the form
      const create = page.getByTestId('dashboard-create-profile');
      await expect(create.getByTestId('match-profile-editor')).toBeVisible();
      await choose(page, m['matching.field.roles_offered']!, m['matching.role.design']!, create);
      await choose(page, m['matching.field.roles_sought']!, m['matching.role.sales_marketing']!, create);
      await create.getByTestId('match-profile-save').click();
      await matchProfileSaved(free.id);
      await page.reload();
      const upgrade = page.getByTestId('match-upgrade');
      await expect(upgrade.getByTestId('match-count')).toBeVisible();
      const count = (await free.client.rpc('match_people')).data as { count: number };
      expect(count.count).toBeGreaterThanOrEqual(1);
      await expect(upgrade.getByTestId('match-count')).toHaveText(new RegExp(`^${count.count} `));
      await expect(page.getByTestId('match-card')).toHaveCount(0);
      await upgrade.getByRole('link', { name: m['matching.upgrade.cta'] }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}/prices$`));
      expect(errors).toEqual([]);
    });

    test(`${locale}: a Basic user whose new matches of the week are used up sees when more come`, async ({ page }) => {
      const basic = await person('basic', `Ben${token()}`);
      const fit = await person('premium', `Flo${token()}`);
      await matchProfile(basic.id, { roles_offered: ['operations'], roles_sought: ['domain_expert'] });
      await matchProfile(fit.id, { roles_offered: ['domain_expert'], roles_sought: ['operations'] });
      // ten people already shown this week (profiles without a matching profile, so none is a match)
      const withProfile = ((await admin().from('match_profiles').select('user_id')).data ?? []).map((r) => (r as { user_id: string }).user_id);
      const others = ((await admin().from('profiles').select('id').limit(200)).data ?? [])
        .map((r) => (r as { id: string }).id)
        .filter((id) => !withProfile.includes(id) && id !== basic.id)
        .slice(0, 10);
      expect(others).toHaveLength(10);
      const shown = await admin()
        .from('match_impressions')
        .insert(others.map((shown_id) => ({ user_id: basic.id, shown_id })));
      expect(shown.error).toBeNull();

      await useSession(page, basic);
      await page.goto(`${prefix}/dashboard`);
      const limit = page.getByTestId('match-weekly-limit');
      await expect(limit).toBeVisible();
      const [before] = m['matching.weeklyLimit']!.split('{date}');
      await expect(limit).toContainText(before!);
      await expect(limit.getByRole('link', { name: m['matching.upgrade.premium'] })).toBeVisible();
      // Basic edits the profile but has no own weights (Premium)
      await page.goto(`${prefix}/user/settings`);
      await expect(page.getByTestId('match-profile-editor')).toBeVisible();
      await expect(page.getByTestId('match-weights')).toHaveCount(0);
    });
  }
  test('en: /matches pages with "Show more", filters, and for Enterprise a saved profile and the CSV download', async ({ page }) => {
    const m = messages.en;
    const boss = await person('premium', `Ena${token()}`);
    const upgraded = await admin().from('subscriptions').update({ plan_id: 'enterprise' }).eq('user_id', boss.id);
    expect(upgraded.error).toBeNull();
    await admin().from('profiles').update({ user_role: 'enterprise' }).eq('id', boss.id);
    await matchProfile(boss.id, { roles_offered: ['business'], roles_sought: ['design'] });
    const designers: { slug: string; skill: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const d = await person('basic', `Desi${token()}`);
      const skill = i % 2 === 0 ? 'ui_design' : 'branding';
      await matchProfile(d.id, { roles_offered: ['design'], skills: [skill] });
      designers.push({ slug: d.slug, skill });
    }
    const total = ((await boss.client.rpc('match_people', { p_limit: 1 })).data as { count: number }).count;
    expect(total).toBeGreaterThanOrEqual(12);

    await useSession(page, boss);
    // custom matching: a saved match profile "Brand lead" that must have branding
    await page.goto('/user/settings');
    await page.getByTestId('saved-profile-new').click();
    const editor = page.getByTestId('saved-profile-editor');
    await editor.getByLabel(/^Name/).fill('Brand lead');
    await choose(page, m['matching.field.roles_sought']!, m['matching.role.design']!, editor);
    await choose(page, m['matching.field.skills_sought']!, await skillLabel('branding', 'en'), editor);
    await editor.getByTestId('must-skills').getByText(m['matching.mustHave']!, { exact: true }).click();
    await editor.getByTestId('must-location').getByText(m['matching.mustHave']!, { exact: true }).click();
    await editor.getByTestId('match-profile-save').click();
    await expect(page.getByTestId('saved-profile')).toHaveText(/Brand lead/);
    const stored = await admin().from('match_profiles').select('name, skills_sought, must_have').eq('user_id', boss.id).eq('is_primary', false).single();
    expect(stored.data).toEqual({ name: 'Brand lead', skills_sought: ['branding'], must_have: ['skills', 'location'] });

    await page.goto('/matches');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(m['page.matches.title']!);
    await expect(page.getByTestId('matches-total')).toHaveText(`${total} matches`);
    const cards = page.getByTestId('match-card');
    await expect(cards).toHaveCount(10);
    await expectAccessible(page, '/matches');
    await page.getByTestId('matches-more').click();
    await expect(cards).toHaveCount(Math.min(total, 20));

    // filter: only people who have UI design
    await choose(page, m['matching.filter.skills']!, await skillLabel('ui_design', 'en'));
    await page.getByTestId('match-filters-apply').click();
    const uiDesigners = designers.filter((d) => d.skill === 'ui_design').map((d) => d.slug);
    await expect(cards).toHaveCount(uiDesigners.length);
    for (const slug of uiDesigners) await expect(page.locator(`[data-testid="match-card"][data-user="${slug}"]`)).toBeVisible();
    await page.getByRole('button', { name: m['matching.filter.reset'] }).click();

    // the saved profile "Brand lead" must have branding
    await choose(page, m['matching.matches.profile']!, 'Brand lead');
    const brand = designers.filter((d) => d.skill === 'branding').map((d) => d.slug);
    await expect(cards).toHaveCount(brand.length);
    for (const slug of brand) await expect(page.locator(`[data-testid="match-card"][data-user="${slug}"]`)).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('matches-csv').click()]);
    const csv = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(csv).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('rank,name,profile,city,kind,score,score_mine,score_theirs,reasons');
    expect(lines).toHaveLength(brand.length + 1);
  });
});
