/**
 * create-portal-session against the running local stack and its Stripe sandbox: no customer →
 * the spec §8 message; a subscriber gets a portal page in their language that links back to
 * /user/settings (or an allowed returnUrl); other origins are refused.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, stack, withDb } from '../_shared/testing.ts';
import { ensurePrices, payCheckout } from '../_shared/billing-testing.ts';

Deno.test({
  name: 'create-portal-session',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();

    await t.step('no Stripe customer (or one Stripe does not know) → 404 with the spec §8 message; anonymous → 401', async () => {
      const user = await createConfirmedUser('ps-none');
      const res = await invoke('create-portal-session', { locale: 'en' }, { token: user.accessToken });
      assertEquals(res.status, 404);
      assertEquals(res.body.error, { code: 'no_customer', message: 'No payment customer ID found. Please contact support.' });
      await withDb((db) => db.query(`update public.profiles set stripe_customer_id = 'cus_demo_unknown_' || substr(md5(random()::text), 1, 6) where id = $1`, [user.id]));
      const unknown = await invoke('create-portal-session', {}, { token: user.accessToken });
      assertEquals([unknown.status, unknown.body.error?.code], [404, 'no_customer']);
      const anon = await invoke('create-portal-session', {});
      assertEquals(anon.status, 401);
    });

    await t.step('subscriber: German portal page with the way back to /de/user/settings; returnUrl on the site; other origins refused', async () => {
      const user = await createConfirmedUser('ps-sub');
      const cs = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'P S', priceId: prices.premium_yearly, planType: 'premium' }, { token: user.accessToken });
      assertEquals(cs.status, 200, JSON.stringify(cs.body));
      assertEquals((await payCheckout(cs.body.url)).status, 303);

      const res = await invoke('create-portal-session', { locale: 'de' }, { token: user.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      const page = await fetch(res.body.url);
      const html = await page.text();
      assertEquals(page.status, 200);
      assert(html.includes(`${stack.siteUrl}/de/user/settings`), 'return link');
      assert(/Abo|Abonnement|kündigen/i.test(html), 'German page');

      const own = await invoke('create-portal-session', { locale: 'en', returnUrl: '/user/settings?tab=billing' }, { token: user.accessToken });
      assertEquals(own.status, 200);
      const ownHtml = await (await fetch(own.body.url)).text();
      assert(ownHtml.includes(`${stack.siteUrl}/user/settings?tab=billing`.replaceAll('&', '&amp;')), 'relative returnUrl resolved on the site');

      const evil = await invoke('create-portal-session', { returnUrl: 'https://evil.example/phish' }, { token: user.accessToken });
      assertEquals([evil.status, evil.body.error?.code], [400, 'invalid_return_url']);
    });
  },
});
