/**
 * Admin-created users (issue 32 §6) through the gateway against the running local stack: only an
 * admin may create a confirmed account (others get 403 and nothing is created); a confirmed
 * account logs in at once and gets no confirmation mail; an unconfirmed one gets the product's
 * confirmation mail; an admin confirming an account in update-user lets it log in.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { anonClient, createConfirmedUser, invoke, STRONG_PASSWORD, uniqueEmail, waitForMail, withDb } from '../_shared/testing.ts';

function registration(email: string, overrides: Record<string, unknown> = {}) {
  return {
    firstname: 'Ada',
    lastname: 'Admin-Angelegt',
    email,
    password: STRONG_PASSWORD,
    type: 'other',
    terms_accepted: true,
    privacy_accepted: true,
    locale: 'en',
    ...overrides,
  };
}

async function account(email: string) {
  return await withDb(async (db) => (await db.query(
    `select p.id, p.authenticated, u.email_confirmed_at,
            (select count(*)::int from public.email_queue q where q.user_id = p.id and q.email_type = 'confirm_email') as confirm_mails
     from public.profiles p join auth.users u on u.id = p.id where p.email = $1`, [email])).rows[0]);
}

async function signIn(email: string) {
  return await anonClient().auth.signInWithPassword({ email, password: STRONG_PASSWORD });
}

Deno.test({
  name: 'admin-created users: confirmed or with the confirmation mail, admins only',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const member = await createConfirmedUser('ac-member');
    const admin = await createConfirmedUser('ac-admin');
    await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));

    await t.step('confirmed: true from a visitor or a member → 403 forbidden_field, nothing created', async () => {
      for (const token of [undefined, member.accessToken]) {
        const email = uniqueEmail('ac-refused');
        const res = await invoke('register', registration(email, { confirmed: true }), { token });
        assertEquals([res.status, res.body.error?.code], [403, 'forbidden_field'], JSON.stringify(res.body));
        assertEquals(await account(email), undefined);
      }
    });

    await t.step('an admin creates a confirmed account: it logs in at once, no confirmation mail', async () => {
      const email = uniqueEmail('ac-confirmed');
      const res = await invoke('register', registration(email, { confirmed: true }), { token: admin.accessToken });
      assertEquals(res.status, 201, JSON.stringify(res.body));
      assertEquals(res.body.confirmation_sent, false);
      const row = await account(email);
      assertEquals([row.id, row.authenticated, row.email_confirmed_at !== null, row.confirm_mails], [res.body.user_id, 1, true, 0]);
      const session = await signIn(email);
      assert(!session.error, session.error?.message);
    });

    await t.step('an admin creates an unconfirmed account: the confirmation mail arrives; confirming it in update-user lets it log in', async () => {
      const email = uniqueEmail('ac-unconfirmed');
      const res = await invoke('register', registration(email), { token: admin.accessToken });
      assertEquals(res.status, 201, JSON.stringify(res.body));
      assertEquals(res.body.confirmation_sent, true);
      const [mail] = await waitForMail(email, 1, 20_000);
      assert(mail && /\/confirm-email\?token=/.test(mail.text ?? mail.html ?? ''), JSON.stringify(mail));
      const refused = await signIn(email);
      assertEquals(refused.error?.code, 'email_not_confirmed');

      const member403 = await invoke('update-user', { userId: res.body.user_id, updates: { authenticated: 1 } }, { token: member.accessToken });
      assertEquals(member403.status, 403);
      assertEquals((await account(email)).email_confirmed_at, null);

      const confirmed = await invoke('update-user', { userId: res.body.user_id, updates: { authenticated: 1 } }, { token: admin.accessToken });
      assertEquals(confirmed.status, 200, JSON.stringify(confirmed.body));
      const row = await account(email);
      assertEquals([row.authenticated, row.email_confirmed_at !== null], [1, true]);
      const session = await signIn(email);
      assert(!session.error, session.error?.message);
    });
  },
});
