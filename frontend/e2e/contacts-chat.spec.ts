import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createUser, linkFromMail, mailboxUrl, signInViaApi } from './accounts-support';
import { dismissCookies } from './billing-support';
import { ANON_KEY, dePath, expectAccessible, messages, nodeClient, runEmailQueue, SERVICE_ROLE_KEY } from './support';

/**
 * Contacts, presence and chat (issue 13), with two people in two browser contexts and a stranger:
 * a request with a note (in-app notification and the e-mail), accepting it, presence turning
 * online and offline, chatting both ways in real time, the typing indicator, the read receipt, the
 * unread badge in a second tab of the same user, editing and deleting, a message sent while the
 * receiver was offline arriving once after reconnecting, the stranger unable to start a
 * conversation, and a block stopping the conversation. Axe on both pages.
 */

const admin = nodeClient(SERVICE_ROLE_KEY);

type Lang = 'en' | 'de';
interface Person {
  id: string;
  email: string;
  password: string;
  name: string;
  slug: string;
}

async function person(firstname: string, lastname: string): Promise<Person> {
  const user = await createUser({ firstname, lastname, paid: true });
  const { data, error } = await admin.from('profiles').select('slug').eq('id', user.id).single();
  expect(error).toBeNull();
  return { ...user, name: `${firstname} ${lastname}`, slug: (data as { slug: string }).slug };
}

/** A new browser context signed in as `who` (with the cookie choice made). */
async function contextFor(browser: Browser, who: Person, lang: Lang): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: lang === 'de' ? 'de-DE' : 'en-US' });
  const page = await context.newPage();
  await signInViaApi(page, who.email, who.password);
  await dismissCookies(page);
  return { context, page };
}

const path = (lang: Lang, p: string) => (lang === 'de' ? dePath(p) : p);
/** A message of the catalogue with simple {placeholders} filled. */
function msg(lang: Lang, id: string, values: Record<string, string> = {}): string {
  const text = messages[lang][id];
  if (!text) throw new Error(`no message ${id}`);
  return text.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '');
}

async function connectAndAccept(lang: Lang, a: { page: Page; who: Person }, b: { page: Page; who: Person }, note: string) {
  // B waits on the requests tab: the request arrives live
  await b.page.goto(path(lang, '/user/contacts?tab=received'));
  await expect(b.page.getByTestId('contacts-empty')).toBeVisible();

  await a.page.goto(path(lang, `/u/${b.who.slug}`));
  await a.page.getByTestId('connect-button').click();
  await a.page.getByTestId('contact-note-input').fill(note);
  await a.page.getByTestId('contact-send').click();
  await expect(a.page.getByText(msg(lang, 'contacts.request.sent', { name: b.who.name }))).toBeVisible();
  await expect(a.page.getByTestId('connect-actions')).toHaveAttribute('data-relation', 'sent');

  // in-app notification at once, and the entry with the note
  await expect(b.page.getByText(msg(lang, 'nav.notify.contactRequest', { name: a.who.name }))).toBeVisible();
  const entry = b.page.getByTestId('contact-entry').filter({ hasText: a.who.name });
  await expect(entry.getByTestId('contact-note')).toHaveText(note);

  // the e-mail, in the addressee's language, links to the requests tab
  await runEmailQueue();
  const link = await linkFromMail(b.who.email, '/user/contacts');
  expect(link).toContain('tab=received');

  await entry.getByRole('button', { name: msg(lang, 'contacts.accept') }).click();
  await expect(b.page.getByText(msg(lang, 'contacts.accept.done', { name: a.who.name }))).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('contacts and chat in English: request, presence, real-time chat, receipts, badges, edit/delete, offline delivery, stranger, block', async ({ browser }) => {
  test.setTimeout(180_000);
  const anna = await person('Anna', `Kraft${Date.now() % 100000}`);
  const ben = await person('Ben', `Roth${Date.now() % 100000}`);
  const stranger = await person('Stella', `Fremd${Date.now() % 100000}`);
  const A = await contextFor(browser, anna, 'en');
  const B = await contextFor(browser, ben, 'en');

  await connectAndAccept('en', { page: A.page, who: anna }, { page: B.page, who: ben }, 'Hi Ben, let us build something together.');

  // contacts list: Anna is online (her tab is open); axe on the contacts page
  await B.page.getByTestId('contacts-tab-contacts').click();
  const annaEntry = B.page.getByTestId('contact-entry').filter({ hasText: anna.name });
  await expect(annaEntry.getByTestId('presence')).toHaveAttribute('data-status', 'online');
  await expectAccessible(B.page, 'contacts page');

  // Ben starts the conversation from the contact
  await annaEntry.getByRole('button', { name: msg('en', 'contacts.message') }).click();
  await expect(B.page).toHaveURL(/\/user\/chat\/[0-9a-f-]{36}$/);
  const conversationUrl = new URL(B.page.url()).pathname;
  await expect(B.page.getByTestId('conversation-title')).toHaveText(anna.name);
  await expect(B.page.getByTestId('presence')).toHaveAttribute('data-status', 'online');

  // Anna keeps a second tab on /user: its header badge follows
  const A2 = await A.context.newPage();
  await A2.goto('/user');
  await expect(A2.getByTestId('account-menu')).toBeVisible();

  // Ben writes (Enter sends, Shift+Enter breaks the line)
  const input = B.page.getByTestId('message-input');
  await input.fill('Hello Anna!');
  await input.press('Shift+Enter');
  await input.pressSequentially('See https://example.com/plan.');
  await input.press('Enter');
  await expect(B.page.getByTestId('message').filter({ hasText: 'Hello Anna!' })).toBeVisible();
  await expect(B.page.getByTestId('message-outgoing')).toHaveCount(0);

  // Anna: unread badge in the other tab and in the title, inbox entry
  await expect(A2.getByTestId('account-unread-badge')).toContainText('1');
  await expect(A2).toHaveTitle(/^\(1\) /);
  await A.page.goto('/user/chat');
  const inboxEntry = A.page.getByTestId('inbox-entry').filter({ hasText: ben.name });
  await expect(inboxEntry.getByTestId('inbox-unread')).toHaveText('1');
  await expect(inboxEntry.getByTestId('inbox-excerpt')).toContainText('Hello Anna!');
  await expectAccessible(A.page, 'chat inbox');
  await inboxEntry.click();
  await expect(A.page).toHaveURL(new RegExp(`${conversationUrl}$`));
  const received = A.page.getByTestId('message').filter({ hasText: 'Hello Anna!' });
  await expect(received).toBeVisible();
  // the link is clickable and safe
  const link = received.getByRole('link', { name: 'https://example.com/plan' });
  await expect(link).toHaveAttribute('href', 'https://example.com/plan');
  await expect(link).toHaveAttribute('rel', /noopener/);
  // reading clears the badge in the other tab; Ben sees "Seen"
  await expect(A2.getByTestId('account-unread-badge')).not.toContainText('1');
  await expect(A2).not.toHaveTitle(/^\(\d+\) /);
  await expect(B.page.getByTestId('read-receipt')).toHaveText(msg('en', 'chat.seen'));

  // typing indicator, then Anna's answer arrives at Ben in real time
  await A.page.getByTestId('message-input').pressSequentially('Hi Ben');
  await expect(B.page.getByTestId('typing-indicator')).toHaveText(msg('en', 'chat.typing', { name: anna.name }));
  await A.page.getByTestId('message-input').press('Enter');
  await expect(B.page.getByTestId('message').filter({ hasText: 'Hi Ben' })).toBeVisible();
  await expect(B.page.getByTestId('typing-indicator')).toHaveText('');

  // Ben attaches a PDF: Anna gets it through a signed URL; a stranger gets no URL
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  await B.page.locator('input[type=file]').setInputFiles({ name: 'pitch deck.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(B.page.getByTestId('attachment-selected')).toContainText('pitch deck.pdf');
  await B.page.getByTestId('send-message').click();
  const file = A.page.getByTestId('attachment-file').filter({ hasText: 'pitch deck.pdf' });
  await expect(file).toBeVisible();
  const href = await file.getByRole('link').getAttribute('href');
  const download = await fetch(href!);
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
  const { data: stored } = await admin.from('messages').select('attachment_path, attachment_size, attachment_type').not('attachment_path', 'is', null).eq('sender_id', ben.id).single();
  expect(stored).toMatchObject({ attachment_size: pdf.length, attachment_type: 'application/pdf' });
  const outsider = nodeClient(ANON_KEY);
  await outsider.auth.signInWithPassword({ email: stranger.email, password: stranger.password });
  const leaked = await outsider.storage.from('chat-attachments').createSignedUrl((stored as { attachment_path: string }).attachment_path, 60);
  expect(leaked.data).toBeNull();

  // Anna edits, then deletes her message; Ben sees both
  const own = A.page.getByTestId('message').filter({ hasText: 'Hi Ben' });
  await own.locator('..').getByTestId('message-actions').click();
  await A.page.getByRole('menuitem', { name: msg('en', 'chat.edit') }).click();
  await A.page.getByTestId('edit-input').fill('Hi Ben, great to meet you');
  await A.page.getByTestId('edit-input').press('Enter');
  await expect(B.page.getByTestId('message').filter({ hasText: 'Hi Ben, great to meet you' })).toContainText(msg('en', 'chat.edited'));
  await A.page.getByTestId('message').filter({ hasText: 'Hi Ben, great to meet you' }).locator('..').getByTestId('message-actions').click();
  await A.page.getByRole('menuitem', { name: msg('en', 'chat.delete') }).click();
  await A.page.getByTestId('confirm-action').click();
  await expect(B.page.getByTestId('message-deleted')).toHaveText(msg('en', 'chat.deleted'));
  await expect(B.page.getByText('Hi Ben, great to meet you')).toHaveCount(0);
  await expectAccessible(A.page, 'conversation');

  // Anna closes all her tabs: Ben sees her go offline
  await A.context.close();
  await expect(B.page.getByTestId('presence')).toHaveAttribute('data-status', 'offline', { timeout: 30_000 });

  // a message sent while Anna is offline arrives exactly once when she comes back
  await B.page.getByTestId('message-input').fill('Sent while you were away');
  await B.page.getByTestId('message-input').press('Enter');
  await expect(B.page.getByTestId('message').filter({ hasText: 'Sent while you were away' })).toBeVisible();
  const A3 = await contextFor(browser, anna, 'en');
  await A3.page.goto(conversationUrl);
  await expect(A3.page.getByTestId('message').filter({ hasText: 'Sent while you were away' })).toHaveCount(1);
  await expect(B.page.getByTestId('presence')).toHaveAttribute('data-status', 'online');

  // the stranger cannot start a conversation: no "Message" on Anna's profile, the database refuses
  const S = await contextFor(browser, stranger, 'en');
  await S.page.goto(`/u/${anna.slug}`);
  await expect(S.page.getByTestId('connect-actions')).toHaveAttribute('data-relation', 'none');
  await expect(S.page.getByTestId('message-button')).toHaveCount(0);
  const strangerApi = nodeClient(ANON_KEY);
  await strangerApi.auth.signInWithPassword({ email: stranger.email, password: stranger.password });
  const refused = await strangerApi.rpc('start_direct_conversation', { p_other_user_id: anna.id });
  expect(refused.error?.message).toBe('not_a_contact');
  await S.context.close();

  // issue 31 §10: Anna removes another contact, which moves her presence to a new topic; Ben's
  // watch follows it: he sees her go offline and come back with a new tab on the new topic
  const linked = await admin.from('contacts').insert({ requester_id: stranger.id, addressee_id: anna.id, status: 'accepted' }).select('id').single();
  expect(linked.error).toBeNull();
  expect((await admin.from('contacts').delete().eq('id', (linked.data as { id: number }).id)).error).toBeNull();
  await A3.context.close();
  await expect(B.page.getByTestId('presence')).toHaveAttribute('data-status', 'offline', { timeout: 30_000 });
  const A4 = await contextFor(browser, anna, 'en');
  await A4.page.goto(conversationUrl);
  await expect(B.page.getByTestId('presence')).toHaveAttribute('data-status', 'online');

  // Anna blocks Ben: the conversation leaves her inbox, Ben can no longer write
  await A4.page.goto(`/u/${ben.slug}`);
  await A4.page.getByRole('button', { name: msg('en', 'profile.block.button') }).click();
  await A4.page.getByRole('button', { name: msg('en', 'profile.block.confirm') }).click();
  await expect(A4.page.getByTestId('blocked-notice')).toBeVisible();
  await A4.page.goto('/user/chat');
  await expect(A4.page.getByTestId('inbox-entry').filter({ hasText: ben.name })).toHaveCount(0);
  await B.page.reload();
  await expect(B.page.getByTestId('conversation-unavailable').or(B.page.getByTestId('cannot-write'))).toBeVisible();
  const benApi = nodeClient(ANON_KEY);
  await benApi.auth.signInWithPassword({ email: ben.email, password: ben.password });
  const conversationId = conversationUrl.split('/').pop()!;
  const write = await benApi.from('messages').insert({ conversation_id: conversationId, sender_id: ben.id, body: 'Still there?' });
  expect(write.error).not.toBeNull();
  await A4.context.close();
  await B.context.close();
});

test('Kontakte und Chat auf Deutsch: Anfrage mit Notiz, Annehmen, Chat in beide Richtungen, Gesehen', async ({ browser }) => {
  test.setTimeout(120_000);
  const clara = await person('Clara', `Berg${Date.now() % 100000}`);
  const david = await person('David', `Stein${Date.now() % 100000}`);
  const C = await contextFor(browser, clara, 'de');
  const D = await contextFor(browser, david, 'de');
  await admin.from('profiles').update({ preferred_language: 'de' }).eq('id', david.id);

  await connectAndAccept('de', { page: C.page, who: clara }, { page: D.page, who: david }, 'Hallo David, lass uns gründen!');
  const mails = (await (await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(david.email)}`)).json()) as { subject: string }[];
  expect(mails.some((m) => m.subject === `${clara.name} möchte sich mit Ihnen vernetzen`)).toBe(true);

  // one-click unsubscribe from the mail, without login: opening the link changes nothing, the button does
  const unsubscribe = await linkFromMail(david.email, '/unsubscribe');
  expect(unsubscribe.startsWith('/de/unsubscribe?token=')).toBe(true);
  const visitor = await browser.newContext({ locale: 'de-DE' });
  const page = await visitor.newPage();
  await page.goto(unsubscribe);
  await dismissCookies(page);
  const setting = async () =>
    ((await admin.from('user_settings').select('email_contact_requests').eq('user_id', david.id).maybeSingle()).data as { email_contact_requests: boolean } | null)
      ?.email_contact_requests ?? true;
  expect(await setting()).toBe(true);
  await expectAccessible(page, 'Abbestellen');
  await page.getByTestId('unsubscribe-submit').click();
  await expect(page.getByTestId('unsubscribe-done')).toHaveText(msg('de', 'unsubscribe.done.contactRequests'));
  expect(await setting()).toBe(false);
  await visitor.close();
  // the settings page shows the switch off
  await D.page.goto(dePath('/user/settings'));
  await expect(D.page.getByTestId('setting-email_contact_requests')).not.toBeChecked();
  await D.page.goto(dePath('/user/contacts'));

  await D.page.getByTestId('contacts-tab-contacts').click();
  await D.page.getByTestId('contact-entry').filter({ hasText: clara.name }).getByRole('button', { name: msg('de', 'contacts.message') }).click();
  await expect(D.page).toHaveURL(/\/de\/user\/chat\/[0-9a-f-]{36}$/);
  const url = new URL(D.page.url()).pathname;
  await expect(D.page.getByTestId('presence')).toHaveText(msg('de', 'presence.online'));
  await expectAccessible(D.page, 'Unterhaltung');

  await D.page.getByTestId('message-input').fill('Hallo Clara!');
  await D.page.getByTestId('send-message').click();
  await C.page.goto(url);
  await expect(C.page.getByTestId('message').filter({ hasText: 'Hallo Clara!' })).toBeVisible();
  await expect(D.page.getByTestId('read-receipt')).toHaveText(msg('de', 'chat.seen'));
  await C.page.getByTestId('message-input').pressSequentially('Hallo David');
  await expect(D.page.getByTestId('typing-indicator')).toHaveText(msg('de', 'chat.typing', { name: clara.name }));
  await C.page.getByTestId('message-input').press('Enter');
  await expect(D.page.getByTestId('message').filter({ hasText: 'Hallo David' })).toBeVisible();
  await expect(D.page.getByTestId('day-separator').first()).toHaveText('Heute');
  await C.page.goto(dePath('/user/chat'));
  await expect(C.page.getByTestId('inbox-entry').filter({ hasText: david.name })).toBeVisible();
  await expect(C.page).toHaveTitle(new RegExp(msg('de', 'page.user-chat.title')));
  await expectAccessible(C.page, 'Posteingang');
  await C.context.close();
  await D.context.close();
});
