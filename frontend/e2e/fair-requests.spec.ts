import { expect, test } from '@playwright/test';
import { createUser, signInViaApi } from './accounts-support';
import { dismissCookies } from './billing-support';
import { dePath, expectAccessible, grantActiveSubscription, messages, nodeClient, SERVICE_ROLE_KEY } from './support';

/**
 * Fair requests (issue 19) in both languages: a Basic user sees the requests left this week and
 * the renewal day (Monday after this ISO week, Berlin) on an accessible contacts page; a profile
 * with answered contact requests shows its response rate and typical response time to a visitor.
 * The refusal at the limit is a component test (src/features/contacts/__tests__/fair-requests-screens.test.tsx)
 * and a database test (supabase/tests/fair-requests.test.ts).
 */

const admin = nodeClient(SERVICE_ROLE_KEY);
type Lang = 'en' | 'de';
const path = (lang: Lang, p: string) => (lang === 'de' ? dePath(p) : p);

/** A message of the catalogue with simple {placeholders} filled. */
function msg(lang: Lang, id: string, values: Record<string, string> = {}): string {
  const text = messages[lang][id];
  if (!text) throw new Error(`no message ${id}`);
  return text.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '');
}

/** Next Monday (ISO week start) in Europe/Berlin as a UTC-midnight Date, from the test's clock. */
function nextMondayBerlin(now = new Date()): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const isoDay = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) + (8 - isoDay) * 86_400_000);
}
const renewalText = (lang: Lang) =>
  new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(nextMondayBerlin());

async function slugOf(id: string): Promise<string> {
  const { data, error } = await admin.from('profiles').select('slug').eq('id', id).single();
  expect(error).toBeNull();
  return (data as { slug: string }).slug;
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`fair requests (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-US' });

    // the limit's refusal with the renewal day, as the dialog shows it: src/features/contacts/__tests__/fair-requests-screens.test.tsx
    test('a Basic user sees the requests left with the renewal day, on an accessible page', async ({ page }) => {
      const basic = await createUser({ firstname: 'Bea', lastname: `Basic${lang}` });
      await grantActiveSubscription(admin, basic.id, 'basic');
      await signInViaApi(page, basic.email, basic.password);
      await dismissCookies(page);
      await page.goto(path(lang, '/user/contacts'));
      await expect(page.getByTestId('contacts-allowance')).toHaveText(
        msg(lang, 'contacts.allowance', { n: '10', limit: '10', date: renewalText(lang) }),
      );
      await expectAccessible(page, `contacts page with allowance (${lang})`);
    });

    test('a profile with answered contact requests shows its response rate and typical response time', async ({ page }) => {
      const profile = await createUser({ firstname: 'Rita', lastname: `Responsive${lang}` });
      await grantActiveSubscription(admin, profile.id, 'premium');
      // six requests: four accepted and one declined within the hour, one expired unanswered
      const outcomes = ['accepted', 'accepted', 'accepted', 'accepted', 'declined', 'expired'] as const;
      for (const [i, outcome] of outcomes.entries()) {
        const requester = await createUser({ firstname: 'Frager', lastname: `Nummer${i}` });
        const created = await admin
          .from('contacts')
          .insert({ requester_id: requester.id, addressee_id: profile.id, status: 'pending' })
          .select('id')
          .single();
        expect(created.error).toBeNull();
        const answer =
          outcome === 'expired'
            ? { status: outcome, created_at: new Date(Date.now() - 15 * 86_400_000).toISOString() }
            : { status: outcome, responded_at: new Date().toISOString() };
        const { error } = await admin.from('contacts').update(answer).eq('id', (created.data as { id: number }).id);
        expect(error).toBeNull();
      }

      await page.goto(path(lang, `/u/${await slugOf(profile.id)}`));
      await dismissCookies(page);
      const stats = page.getByTestId('response-stats');
      await expect(stats).toBeVisible();
      await expect(stats.getByRole('heading')).toHaveText(msg(lang, 'profile.responsiveness.title'));
      const rateText = messages[lang]['profile.responsiveness.rate']!;
      const [prefix, suffix] = rateText.split('{percent}');
      const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await expect(page.getByTestId('response-rate')).toHaveText(
        new RegExp(`^${escape(prefix!)}83\\s?%${escape(suffix!)} · ${escape(msg(lang, 'profile.responsiveness.withinHour'))}$`),
      );
      await expect(stats).toContainText(msg(lang, 'profile.responsiveness.basis', { count: '6' }));
    });
  });
}
