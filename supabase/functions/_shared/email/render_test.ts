/** Unit tests of the React Email rendering (spec §7: placeholders escaped). No stack needed. */
import { assert, assertEquals } from '../assert.ts';
import { renderEmail } from './render.ts';

const base = { siteUrl: 'https://teamwerk.example', lang: 'de' as const };

Deno.test('placeholders are escaped in HTML, raw in text; subject on one line', async () => {
  const r = await renderEmail(
    { ...base, subject: 'Hallo {{firstname}}\r\nBcc: x@y', body: 'Hallo {{firstname}} {{lastname}},\n\nText', vars: { firstname: '<img src=x onerror=alert(1)>', lastname: '"&\'' } },
    'welcome_email',
  );
  assertEquals(r.subject, 'Hallo <img src=x onerror=alert(1)> Bcc: x@y');
  assert(!r.html.includes('<img src=x'), 'no injected tag');
  assert(r.html.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert(r.html.includes('&quot;&amp;&#x27;') || r.html.includes('&quot;&amp;\''), 'quotes escaped');
  assert(r.text.startsWith('Hallo <img src=x onerror=alert(1)> "&\',\n\nText'));
});

Deno.test('a link paragraph becomes a button with the localized label; only http(s) links are clickable', async () => {
  const body = 'Bitte bestätigen:\n\n{{link}}\n\nGrüße';
  const ok = await renderEmail({ ...base, subject: 's', body, vars: { link: 'https://teamwerk.example/de/confirm-email?token=a.b&x="1"' } }, 'confirm_email');
  assert(ok.html.includes('E-Mail-Adresse bestätigen'));
  assert(ok.html.includes('href="https://teamwerk.example/de/confirm-email?token=a.b&amp;x=&quot;1&quot;"'));
  const en = await renderEmail({ ...base, lang: 'en', subject: 's', body, vars: { link: 'https://x.example/confirm-email' } }, 'confirm_email');
  assert(en.html.includes('Confirm email address') && en.html.includes('lang="en"'));
  const evil = await renderEmail({ ...base, subject: 's', body: 'Go: {{link}}\n\n{{link}}', vars: { link: 'javascript:alert(1)' } }, 'confirm_email');
  assert(!evil.html.includes('href="javascript:'), 'no javascript: href');
  assert(evil.html.includes('javascript:alert(1)'), 'shown as text');
});

Deno.test('rendering is deterministic (Resend idempotency compares request bodies)', async () => {
  const input = { ...base, subject: 'Willkommen {{firstname}}', body: 'Hallo {{firstname}}\n\n• eins\n• zwei\n\n{{link}}', vars: { firstname: 'Anna', link: 'https://teamwerk.example/de/user' } };
  const a = await renderEmail(input, 'welcome_email');
  const b = await renderEmail(input, 'welcome_email');
  assertEquals(a, b);
  assert(a.html.includes('Impressum') && a.html.includes('https://teamwerk.example/de/impressum'), 'branded footer with locale links');
});

Deno.test('database-queued mails: site-relative paths become links in the row language, nothing else does (issue 13)', async () => {
  const { templateVars } = await import('./queue.ts');
  const row = (lang: string, payload: Record<string, unknown>) =>
    ({ id: 1, email: 'a@b.example', email_type: 'chat_unread', lang, user_metadata: { firstname: 'Anna' }, payload }) as unknown as Parameters<typeof templateVars>[0];
  const de = templateVars(row('de', { path: '/user/chat/0b0c', settings_path: '/user/settings', count: 3 }), 'https://teamwerk.example/');
  assertEquals(de.link, 'https://teamwerk.example/de/user/chat/0b0c');
  assertEquals(de.settings_link, 'https://teamwerk.example/de/user/settings');
  assertEquals(de.count, 3);
  const en = templateVars(row('en', { path: '/user/contacts?tab=received' }), 'https://teamwerk.example');
  assertEquals(en.link, 'https://teamwerk.example/user/contacts?tab=received');
  // the newsletter mails carry their token in the path's query (issue 33 §1)
  const token = '3f0c2a4e-9b1d-4c8e-8f5a-0d6b7e1c2a3b';
  const confirm = templateVars(row('de', { path: `/newsletter-thankyou?token=${token}` }), 'https://teamwerk.example');
  assertEquals(confirm.link, `https://teamwerk.example/de/newsletter-thankyou?token=${token}`);
  // another host or a scheme is never turned into a link of ours
  const evil = templateVars(row('en', { path: '//evil.example/x', settings_path: 'https://evil.example' }), 'https://teamwerk.example');
  assertEquals(evil.link, 'https://teamwerk.example/');
  assertEquals(evil.settings_link, undefined);

  const mail = await renderEmail(
    { ...base, subject: '{{sender_name}}', body: 'Neu:\n\n{{link}}\n\nAbbestellen: {{settings_link}}', vars: { ...de, sender_name: 'Ben' } },
    'chat_unread',
  );
  assert(mail.html.includes('Nachricht lesen'), 'button label of chat_unread');
  assert(mail.html.includes('href="https://teamwerk.example/de/user/settings"'), 'unsubscribe link clickable');
});
