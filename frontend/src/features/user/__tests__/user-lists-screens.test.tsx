// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import UserChatRoute from '@/features/chat/routes/user-chat';
import UserContactsRoute from '@/features/contacts/routes/user-contacts';
import { setPresenceWatching } from '@/features/presence';
import UserPortfoliosRoute from '@/features/portfolios/routes/user-portfolios';
import UserProjectsRoute from '@/features/projects/routes/user-projects';
import type { Database } from '@/lib/database.types';
import { startSession } from '@/lib/session';
import { mockNetwork, REST_URL, restRows } from '@/test/msw';
import { renderScreen, t } from '@/test/render';
import { signInAs } from '@/test/session';

/**
 * Lists of the user area without a stack (issue 18: one card design, empty states that name a next
 * step): a contact is a person card with the profile link and the message button; empty lists of
 * projects, portfolios and chats say what to do next, and the step links where it leads. A
 * signed-in member (src/test/session.ts); PostgREST answered by MSW.
 */
const server = mockNetwork();
const WAIT = { timeout: 10_000 };
afterEach(cleanup);
beforeAll(() => {
  signInAs();
  startSession();
  // presence joins Realtime channels (WebSockets): not part of these checks
  setPresenceWatching(false);
});

type ContactRow = Database['public']['Functions']['my_contacts']['Returns'][number];
type AllowanceRow = Database['public']['Functions']['my_contact_request_allowance']['Returns'][number];

const CONTACT: ContactRow = {
  contact_id: 41,
  user_id: '0d6f4c1a-3b2e-4f5a-8c7d-9e0f1a2b3c4d',
  display_name: 'Karla Kartenfrau',
  slug: 'karla-kartenfrau',
  headline: 'Designerin',
  city: 'Kartenstadt',
  profile_img: '',
  last_seen_at: '2026-11-27T09:00:00Z',
  since: '2026-11-20T10:00:00Z',
  message: '',
  status: 'accepted',
  total: 1,
};
const ALLOWANCE: AllowanceRow = { plan: 'premium', remaining: 50, weekly_limit: 50, used: 0, renews_at: '2026-11-30T00:00:00Z', renews_on: '2026-11-30' };

describe('contacts', () => {
  it('a contact is a person card: name, link to the profile, message button', async () => {
    server.use(restRows('rpc/my_contacts', [CONTACT]), restRows('rpc/my_contact_request_allowance', [ALLOWANCE]), http.post(`${REST_URL}/rpc/contact_request_count`, () => HttpResponse.json(0)));
    renderScreen(<UserContactsRoute />, { path: '/user/contacts' });
    const card = await screen.findByTestId('contact-entry', {}, WAIT);
    expect(card.textContent).toContain(CONTACT.display_name);
    expect(within(card).getByRole('link').getAttribute('href')).toBe(`/u/${CONTACT.slug}`);
    expect(within(card).getByRole('button', { name: t('en', 'contacts.message') })).toBeTruthy();
  });
});

describe('empty user lists', () => {
  it('say what to do next, and the step leads there', async () => {
    const none = (table: string) => restRows(table, []);
    server.use(
      none('projects'),
      none('portfolios'),
      restRows('rpc/my_project_allowance', [{ used: 0, project_limit: 3, drafts: 0, draft_limit: 3 }]),
      restRows('rpc/my_profile', [{ user_role: 'basic' }]),
      none('rpc/my_inbox'),
    );
    let view = renderScreen(<UserProjectsRoute params={{}} locale="en" />, { path: '/user/projects' });
    expect((await screen.findByTestId('projects-empty', {}, WAIT)).textContent).toContain(t('en', 'projects.empty'));
    fireEvent.click(screen.getByRole('link', { name: t('en', 'projects.emptyAction') }));
    expect(view.location()).toMatch(/^\/user\/projects\/create-project-new$/);
    cleanup();

    view = renderScreen(<UserPortfoliosRoute params={{}} locale="en" />, { path: '/user/portfolios' });
    expect((await screen.findByTestId('portfolios-empty', {}, WAIT)).textContent).toContain(t('en', 'portfolios.empty'));
    fireEvent.click(screen.getByRole('link', { name: t('en', 'portfolios.emptyAction') }));
    expect(view.location()).toBe('/user/create-portfolio');
    cleanup();

    renderScreen(<UserChatRoute />, { path: '/user/chat' });
    expect((await screen.findByTestId('inbox-empty', {}, WAIT)).textContent).toContain(t('en', 'chat.inboxEmpty'));
  });
});
