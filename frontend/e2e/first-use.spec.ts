import { expect, test } from '@playwright/test';
import { signInViaApi } from './accounts-support';
import { admin, createUser, insertEvent, token, useSession } from './content-events-support';
import { collectErrors, expectStackUp, messages } from './support';

/**
 * Issue 33 ("what a new user still trips over"), items 3, 4, 10, 13, 14 and 18, each as a person
 * meets it, in English and German. Item 8 (each error once) lives in accounts-auth and
 * contact-rate-limit.
 */

const LOCALES = [
  ['en', ''],
  ['de', '/de'],
] as const;

test.beforeAll(async () => {
  await expectStackUp();
});

for (const [locale, prefix] of LOCALES) {
  const t = messages[locale];

  test(`§3 member texts show as formatted text, never as raw Markdown (${locale})`, async ({ page }) => {
    const word = `zaunkoenig${token()}`;
    const member = await createUser('premium', 'Mara');
    const service = admin();
    // a bio, a public portfolio, an organisation and an event, each written in Markdown
    expect((await service.from('profiles').update({ bio: `**Bio ${word}**\n\n- first\n- second` }).eq('id', member.id)).error).toBeNull();
    const slug = (await service.from('profiles').select('slug').eq('id', member.id).single()).data!.slug as string;
    const portfolio = await service
      .from('portfolios')
      .insert({ owner_id: member.id, title: `Arbeiten ${word}`, slug: `arbeiten-${word}`, description_en: `**Portfolio ${word}** text`, description_de: `**Portfolio ${word}** Text`, status: 'published', file_access: 'public' });
    expect(portfolio.error).toBeNull();
    const org = await service.from('organizations').insert({ slug: `org-${word}`, name: `Org ${word}`, description_en: `**We build** things ${word}`, description_de: `**Wir bauen** Dinge ${word}` });
    expect(org.error).toBeNull();
    const event = await insertEvent(member.id, { title: `Abend ${word}`, description: `**Agenda** for ${word}\n\n- Talks\n- Drinks` });
    // a seed job whose description has bold headings
    const job = (await service.from('jobs').select('id').like('description', '%**%').limit(1).single()).data!;

    const noRawMarkdown = async (testId: string) => {
      const box = page.getByTestId(testId);
      await expect(box.locator('strong').first()).toBeVisible();
      expect(await box.innerText()).not.toContain('**');
    };
    await page.goto(`${prefix}/jobs/${job.id}`);
    await noRawMarkdown('job-description');
    await page.goto(`${prefix}/events/${event.slug}`);
    await noRawMarkdown('event-description');
    await expect(page.getByTestId('event-description').locator('li')).toHaveText(['Talks', 'Drinks']);
    await page.goto(`${prefix}/u/${slug}`);
    await noRawMarkdown('profile-bio');
    await noRawMarkdown('portfolio-description');
    await page.goto(`${prefix}/org/org-${word}`);
    await noRawMarkdown('org-description');
    // the search snippet of the event: the words, marked, without the asterisks
    await page.goto(`${prefix}/search?q=${word}`);
    const snippets = page.getByTestId('search-snippet');
    await expect(snippets.first()).toContainText(word);
    for (const text of await snippets.allInnerTexts()) expect(text).not.toMatch(/\*\*|^\s*- /);
    await expect(snippets.locator('mark').first()).toHaveText(word);
  });

  test(`§4 someone else's project at /user/projects/{id} is not offered for editing (${locale})`, async ({ page }) => {
    const owner = await createUser('basic', 'Olli');
    const other = await createUser('basic', 'Nina');
    const title = `Fremdes Projekt ${token()}`;
    const inserted = await admin().from('projects').insert({ owner_id: owner.id, title, slug: '', category: 'technology', status: 'published', summary: 'summary' }).select('id, slug').single();
    expect(inserted.error).toBeNull();
    await useSession(page, other);
    await page.goto(`${prefix}/user/projects/${inserted.data!.id}`);
    await expect(page.getByTestId('project-not-yours')).toContainText(t['projects.notYours']!);
    await expect(page.getByRole('button', { name: t['projects.save']!, exact: true })).toHaveCount(0);
    await page.getByRole('link', { name: t['projects.viewPublic']!, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  });

  test(`§10 visitors see no workflow status; a past RSVP reads attended (${locale})`, async ({ page }) => {
    const organiser = await createUser('premium', 'Olga');
    const guest = await createUser('basic', 'Gina');
    const upcoming = await insertEvent(organiser.id, { title: `Treffen ${token()}` });
    await page.goto(`${prefix}/events/${upcoming.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Treffen');
    await expect(page.getByTestId('event-status')).toHaveCount(0);
    await expect(page.locator('main')).not.toContainText(t['events.status.published']!);

    // an event that is over, with the guest's seat
    const start = Date.now() - 3 * 86_400_000;
    const past = await insertEvent(organiser.id, { title: `Vorbei ${token()}`, status: 'finished', starts_at: new Date(start).toISOString(), ends_at: new Date(start + 2 * 3600_000).toISOString() });
    expect((await admin().from('event_attendees').insert({ event_id: past.id, user_id: guest.id })).error).toBeNull();
    await useSession(page, guest);
    await page.goto(`${prefix}/user/events`);
    const card = page.getByTestId('my-rsvps').getByRole('listitem').filter({ hasText: 'Vorbei' });
    await expect(card).toContainText(t['events.mine.attended']!);
    await expect(card).not.toContainText(t['events.mine.going']!);
    await page.goto(`${prefix}/events/${past.slug}`);
    await expect(page.getByTestId('event-my-status')).toHaveText(t['events.rsvp.attended']!);
    await expect(page.getByTestId('event-status')).toHaveText(t['events.status.finished']!);
  });

  test(`§10 the events page opens with demo events at times people meet (${locale})`, async ({ page }) => {
    await page.goto(`${prefix}/events`);
    const cards = page.getByTestId('events-list').getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    // what runs now: the two seed hackathons (started yesterday 17:00, end tomorrow 17:00), not six
    // events that began an hour before the stack was loaded
    const running = cards.filter({ hasText: t['events.status.ongoing']! });
    expect(await running.count()).toBeLessThanOrEqual(2);
    for (const text of await running.allInnerTexts()) {
      for (const [, hour, minute] of text.matchAll(/\b(\d{1,2}):(\d{2})\b/g)) {
        expect(Number(hour), text).toBeGreaterThanOrEqual(8);
        expect(Number(hour), text).toBeLessThanOrEqual(21);
        expect(['00', '15', '30', '45'], text).toContain(minute);
      }
    }
  });

  test(`§13 steppers, tag remove buttons and admin pagination have names (${locale})`, async ({ page }) => {
    const member = await createUser('premium', 'Tom');
    await useSession(page, member);
    // number stepper of the event form
    await page.goto(`${prefix}/user/events/create-event`);
    const capacity = t['events.form.capacity']!;
    await page.getByRole('button', { name: t['common.number.increase']!.replace('{label}', capacity), exact: true }).click();
    await page.getByRole('button', { name: t['common.number.increase']!.replace('{label}', capacity), exact: true }).click();
    await page.getByRole('button', { name: t['common.number.decrease']!.replace('{label}', capacity), exact: true }).click();
    await expect(page.getByRole('textbox', { name: new RegExp(`^${capacity}`) })).toHaveValue('1');
    // the remove button of a tag
    await page.goto(`${prefix}/user/settings`);
    const skills = page.getByRole('combobox', { name: t['account.field.skills']!, exact: true });
    await skills.fill('Kotlin');
    await skills.press('Enter');
    await page.getByRole('button', { name: t['common.tag.remove']!.replace('{tag}', 'Kotlin'), exact: true }).click();
    await expect(page.getByRole('button', { name: t['common.tag.remove']!.replace('{tag}', 'Kotlin'), exact: true })).toHaveCount(0);
    // the admin's user list: every page control is named
    await signInViaApi(page, 'admin@teamwerk.test', 'Teamwerk!2026');
    await page.goto(`${prefix}/admin/users`);
    const pages = page.getByRole('navigation', { name: t['admin.users.pagination']!, exact: true });
    await pages.getByRole('button', { name: t['common.page.next']!, exact: true }).click();
    await expect(pages.getByRole('button', { name: t['common.page.number']!.replace('{page}', '2'), exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(pages.getByRole('button', { name: t['common.page.previous']!, exact: true })).toBeEnabled();
  });

  test(`§14 a member without a matching profile is asked for one; match_people is not called (${locale})`, async ({ page }) => {
    const errors = collectErrors(page);
    const member = await createUser('premium', 'Mia');
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/rest/v1/rpc/match_people')) calls.push(request.url());
    });
    await useSession(page, member);
    for (const path of ['/matches', '/dashboard']) {
      await page.goto(`${prefix}${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (path === '/matches') await expect(page.getByTestId('match-profile-missing')).toContainText(t['matching.profileMissing']!);
      else await expect(page.getByTestId('dashboard-create-profile')).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
  });

  test(`§18 /register moved to /registration and keeps its query (${locale})`, async ({ page }) => {
    await page.goto(`${prefix}/register?plan=premium`);
    await expect(page).toHaveURL(new RegExp(`${prefix}/registration\\?plan=premium$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t['page.registration.title']!);
  });
}
