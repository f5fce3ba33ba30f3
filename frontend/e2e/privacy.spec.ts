import { expect, test, type Page } from '@playwright/test';
import { apiUrl, collectErrors, expectStackUp, nodeClient, SERVICE_ROLE_KEY } from './support';
import { createUser, signInViaApi } from './accounts-support';

/**
 * Issue 12 finding 1 as a visitor and as a signed-in stranger experience it: browsing the public
 * pages (search, a business and a private profile, events, jobs) the browser receives no member
 * e-mail address, no street of a private person and no Stripe id from the API, while a business
 * profile shows its address (spec §3) and a private one only the city.
 */
const service = () => nodeClient(SERVICE_ROLE_KEY);

/** Every API answer the page receives while `visit` runs, as text. */
async function apiTraffic(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const bodies: Promise<string>[] = [];
  const onResponse = (res: import('@playwright/test').Response) => {
    if (res.url().startsWith(apiUrl) && res.request().method() !== 'OPTIONS') bodies.push(res.text().catch(() => ''));
  };
  page.on('response', onResponse);
  await visit();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return Promise.all(bodies);
}

let memberEmails: string[];
let business: { slug: string; street: string; city: string };
let person: { slug: string; street: string; city: string };

test.beforeAll(async () => {
  await expectStackUp();
  const svc = service();
  const all = await svc.from('profiles').select('email').limit(5000);
  expect(all.error).toBeNull();
  memberEmails = all.data!.map((r) => r.email.toLowerCase()).filter(Boolean);
  const b = await svc.from('profiles').select('slug, street, city').eq('email', 'enterprise@teamwerk.test').single();
  expect(b.data?.street, 'the demo business profile has a street').toBeTruthy();
  business = { slug: b.data!.slug, street: b.data!.street!, city: b.data!.city! };
  const p = await createUser({ role: 'free', firstname: 'Petra', lastname: 'Privat' });
  const updated = await svc.from('profiles')
    .update({ type: 'other', street: 'Geheimgasse', house_number: '13', zipcode: '50667', city: 'Köln', stripe_customer_id: `cus_privacy_${p.id.slice(0, 8)}` })
    .eq('id', p.id).select('slug').single();
  expect(updated.error).toBeNull();
  person = { slug: updated.data!.slug, street: 'Geheimgasse', city: 'Köln' };
});

for (const who of ['visitor', 'signed-in stranger'] as const) {
  test(`a ${who} gets no e-mail, private address or Stripe id from the API`, async ({ page }) => {
    const errors = collectErrors(page);
    if (who === 'signed-in stranger') {
      const stranger = await createUser({ role: 'free', firstname: 'Sven', lastname: 'Fremd' });
      await signInViaApi(page, stranger.email);
      memberEmails = memberEmails.filter((e) => e !== stranger.email.toLowerCase());
    }
    const traffic = await apiTraffic(page, async () => {
      await page.goto('/search?q=Projekt');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.goto(`/u/${business.slug}`);
      await expect(page.getByTestId('public-profile')).toContainText(business.street);
      await page.goto(`/u/${person.slug}`);
      await expect(page.getByTestId('public-profile')).toContainText(person.city);
      await expect(page.getByTestId('public-profile')).not.toContainText(person.street);
      await page.goto('/events');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.goto('/jobs');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
    const text = traffic.join('\n').toLowerCase();
    expect(text.length).toBeGreaterThan(1000);
    expect(memberEmails.filter((e) => text.includes(e))).toEqual([]);
    expect(text).not.toContain('geheimgasse');
    expect(text).not.toMatch(/cus_[a-z0-9]/);
    expect(errors).toEqual([]);
  });
}
