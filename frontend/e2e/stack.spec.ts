import { expect, test } from '@playwright/test';
import { ANON_KEY, apiUrl, collectErrors, expectStackUp, nodeClient, SERVICE_ROLE_KEY } from './support';
import { linkFromMail } from './accounts-support';

const admin = () => nodeClient(SERVICE_ROLE_KEY);

test.describe('the SPA talks to the local stack (issue 2 item 10)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('/working-remote-jobs lists the remote jobs of the database', async ({ page }) => {
    const errors = collectErrors(page);
    const { data, error } = await admin().from('jobs').select('id, title').eq('remote', true).order('posted_at', { ascending: false }).limit(50);
    expect(error).toBeNull();
    await page.goto('/working-remote-jobs');
    if (data!.length === 0) {
      await expect(page.getByTestId('remote-jobs-empty')).toBeVisible();
    } else {
      const list = page.getByTestId('remote-jobs-list');
      await expect(list.getByRole('listitem')).toHaveCount(data!.length);
      await expect(list.getByRole('link', { name: data![0]!.title, exact: true }).first()).toHaveAttribute('href', `/jobs/${data![0]!.id}`);
    }
    expect(errors).toEqual([]);
  });

  // the error state with the retry policy (a GET twice, a POST once), the contact form's validation
  // and its refusals: src/features/jobs/__tests__/remote-jobs.test.tsx and
  // src/features/contact/__tests__/contact-screen.test.tsx; the snackbar's 4 s: landing-weight.spec.ts

  test('the contact form is stored in contact_messages', async ({ page }) => {
    const errors = collectErrors(page);
    const email = `contact-${Date.now()}@example.com`;
    await page.goto('/de/contact');
    await page.getByLabel('Name').fill('Erika Mustermann');
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByLabel('Betreff').fill('Frage zum Tarif');
    await page.getByLabel('Nachricht').fill('Gibt es einen Rabatt für Studierende?');
    await page.getByRole('checkbox', { name: /Ich bin einverstanden/ }).check();
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByTestId('contact-sent')).toBeVisible();
    const stored = await admin().from('contact_messages').select('name, subject, lang, topic').eq('email', email);
    expect(stored.error).toBeNull();
    expect(stored.data).toEqual([{ name: 'Erika Mustermann', subject: 'Frage zum Tarif', lang: 'de', topic: 'general' }]);
    expect(errors).toEqual([]);
  });

  // issue 33 §1: every link is followed as a person follows it, from the mailbox (never a token
  // read from the database): confirm link → confirmed → welcome mail → its unsubscribe link works.
  for (const lang of ['en', 'de'] as const) {
    test(`newsletter double opt-in from the mailbox (${lang}): confirm link, welcome mail, unsubscribe link`, async ({ page }) => {
      const t = lang === 'de'
        ? { prefix: '/de', email: 'E-Mail-Adresse', consent: /Newsletter erhalten/, submit: 'Anmelden', unsubscribe: 'Abbestellen' }
        : { prefix: '', email: 'E-mail address', consent: /receive the newsletter/, submit: 'Subscribe', unsubscribe: 'Unsubscribe' };
      const email = `news-${lang}-${Date.now()}@example.com`;
      const drainQueue = async () => {
        const run = await admin().functions.invoke('process-email-queue', { body: {} });
        expect(run.error).toBeNull();
      };
      await page.goto(`${t.prefix}/newsletter`);
      await page.getByLabel(t.email).fill(email);
      await page.getByRole('checkbox', { name: t.consent }).check();
      await page.getByRole('button', { name: t.submit }).click();
      await expect(page).toHaveURL(new RegExp(`${t.prefix}/newsletter-thankyou$`));
      const row = await admin().from('newsletter_subscribers').select('status, lang').eq('email', email).single();
      expect(row.error).toBeNull();
      expect(row.data).toEqual({ status: 'pending', lang });

      await drainQueue();
      const confirm = await linkFromMail(email, '/newsletter-thankyou?token=');
      expect(confirm).toMatch(new RegExp(`^${t.prefix}/newsletter-thankyou\\?token=[0-9a-f-]{36}$`));
      await page.goto(confirm);
      await expect(page.getByTestId('newsletter-confirmed')).toBeVisible();
      const confirmed = await admin().from('newsletter_subscribers').select('status').eq('email', email).single();
      expect(confirmed.data?.status).toBe('confirmed');

      await drainQueue();
      const unsubscribe = await linkFromMail(email, '/newsletter-unsubscribe?token=');
      expect(unsubscribe).toMatch(new RegExp(`^${t.prefix}/newsletter-unsubscribe\\?token=[0-9a-f-]{36}$`));
      await page.goto(unsubscribe);
      await expect(page.getByTestId('newsletter-unsubscribe-submit')).toBeVisible();
      const opened = await admin().from('newsletter_subscribers').select('status').eq('email', email).single();
      expect(opened.data?.status, 'opening the link does not act (mail scanners open links)').toBe('confirmed');
      await page.getByRole('button', { name: t.unsubscribe, exact: true }).click();
      await expect(page.getByTestId('newsletter-unsubscribed')).toBeVisible();
      const after = await admin().from('newsletter_subscribers').select('status').eq('email', email).single();
      expect(after.data?.status).toBe('unsubscribed');
    });
  }

  test('newsletter links with an unknown token say so', async ({ page }) => {
    await page.goto('/newsletter-thankyou?token=00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('newsletter-invalid')).toBeVisible();
    await page.goto('/newsletter-unsubscribe?token=00000000-0000-4000-8000-000000000000');
    await page.getByTestId('newsletter-unsubscribe-submit').click();
    await expect(page.getByTestId('newsletter-unsubscribe-error')).toBeVisible();
  });

  test('sitemaps are served with database content and valid structure', async ({ request }) => {
    const index = await request.get('/sitemap.xml');
    expect(index.status()).toBe(200);
    expect(index.headers()['content-type']).toContain('application/xml');
    expect(await index.text()).toContain('/de-sitemap.xml</loc>');
    const pages = await (await request.get('/index-sitemap.xml')).text();
    expect(pages).toContain('/legal/anbieterkennzeichnung</loc>');
    const { data } = await admin().from('jobs').select('id').limit(1);
    const de = await (await request.get('/de-sitemap.xml')).text();
    expect(de).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    if (data && data.length > 0) expect(de).toContain(`/de/jobs/${data[0]!.id}</loc>`);
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
  });

  test('the sitemap Edge Function serves the same documents as the dev/preview middleware', async ({ request }) => {
    for (const file of ['sitemap.xml', 'index-sitemap.xml', 'en-sitemap.xml', 'de-sitemap.xml']) {
      const fromFunction = await request.get(`${apiUrl}/functions/v1/sitemap/${file}`, { headers: { apikey: ANON_KEY } });
      expect(fromFunction.status(), file).toBe(200);
      expect(fromFunction.headers()['content-type']).toContain('application/xml');
      const fromSpa = await request.get(`/${file}`);
      // the documents differ only in the configured site origin
      const strip = (xml: string) => xml.replace(/https?:\/\/[^/<"]+/g, 'ORIGIN');
      expect(strip(await fromFunction.text()), file).toBe(strip(await fromSpa.text()));
    }
  });
});
