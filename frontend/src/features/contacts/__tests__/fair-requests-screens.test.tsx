// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setPresenceWatching } from '@/features/presence';
import type { Database } from '@/lib/database.types';
import { startSession } from '@/lib/session';
import { mockNetwork, REST_URL, restRows } from '@/test/msw';
import { renderScreen, t } from '@/test/render';
import { signInAs } from '@/test/session';
import ConnectButton from '../components/connect-button';
import UserContactsRoute from '../routes/user-contacts';

/**
 * Fair requests (issue 19) as a Basic member sees them, without a stack: the contacts page says
 * how many requests are left this week and when they renew, and the 11th request is refused with
 * the message naming the renewal day, nothing sent. The database's side (the limit, PT429 with its
 * hint, the renewal in Berlin) is supabase/tests/fair-requests.test.ts; the accessibility of the
 * page stays in e2e/fair-requests.spec.ts.
 */
const server = mockNetwork();
const WAIT = { timeout: 10_000 };
afterEach(cleanup);
beforeAll(() => {
  signInAs();
  startSession();
  setPresenceWatching(false);
});

type AllowanceRow = Database['public']['Functions']['my_contact_request_allowance']['Returns'][number];
/** Monday 30 November 2026, 00:00 in Berlin. */
const USED_UP: AllowanceRow = { plan: 'basic', weekly_limit: 10, used: 10, remaining: 0, renews_at: '2026-11-29T23:00:00Z', renews_on: '2026-11-30' };
const RENEWAL = { en: 'Monday, November 30, 2026', de: 'Montag, 30. November 2026' } as const;
const ELEVENTH = '7a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

for (const locale of ['en', 'de'] as const) {
  describe(`fair requests (${locale})`, () => {
    it('the contacts page shows the requests left and the renewal day', async () => {
      server.use(restRows('rpc/my_contacts', []), restRows('rpc/my_contact_request_allowance', [USED_UP]), http.post(`${REST_URL}/rpc/contact_request_count`, () => HttpResponse.json(0)));
      renderScreen(<UserContactsRoute />, { path: locale === 'de' ? '/de/user/contacts' : '/user/contacts' });
      await waitFor(() => expect(screen.getByTestId('contacts-allowance').textContent).toBe(t(locale, 'contacts.allowance', { n: 0, limit: 10, date: RENEWAL[locale] })), WAIT);
    });

    it('at the weekly limit the request is refused with the renewal day; nothing was sent', async () => {
      let attempts = 0;
      server.use(
        restRows('contacts', []),
        restRows('rpc/my_contact_request_allowance', [USED_UP]),
        // the database's refusal as supabase/tests/fair-requests.test.ts pins it
        http.post(`${REST_URL}/rpc/send_contact_request`, () => {
          attempts += 1;
          return HttpResponse.json(
            {
              code: 'PT429',
              message: 'weekly_contact_request_limit',
              details: 'You have used your 10 contact requests for this week. Your allowance renews on 2026-11-30.',
              hint: JSON.stringify({ plan: 'basic', limit: 10, used: 10, renews_at: USED_UP.renews_at, renews_on: USED_UP.renews_on }),
            },
            { status: 429 },
          );
        }),
      );
      renderScreen(<ConnectButton userId={ELEVENTH} name="Elfte Person" />, { path: locale === 'de' ? '/de/u/elfte-person' : '/u/elfte-person' });
      fireEvent.click(await screen.findByTestId('connect-button', {}, WAIT));
      fireEvent.change(await screen.findByTestId('contact-note-input'), { target: { value: 'Hallo, lass uns sprechen!' } });
      fireEvent.click(screen.getByTestId('contact-send'));
      await waitFor(() => expect(screen.getByTestId('contact-send-error').textContent).toBe(t(locale, 'contacts.error.weeklyLimit', { limit: 10, date: RENEWAL[locale] })), WAIT);
      expect(screen.getByTestId('connect-actions').getAttribute('data-relation')).toBe('none');
      expect(attempts).toBe(1);
    });
  });
}
