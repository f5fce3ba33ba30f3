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
