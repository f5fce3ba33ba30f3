/**
 * update-user through the gateway against the running local stack: the rights matrix
 * (anonymous, self, another user, suspended self, admin, service role) × (profile fields,
 * admin-only fields, auth fields), bad input, and database errors passed on with their text.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { anonClient, createConfirmedUser, invoke, stack, uniqueEmail, withDb } from '../_shared/testing.ts';

const service = { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey };

async function row(id: string) {
  return await withDb(async (db) => (await db.query(
    `select p.firstname, p.headline, p.user_role, p.city, p.email, p.profile_visibility,
            exists (select 1 from public.account_suspensions s where s.user_id = p.id) as suspended,
            (select suspended_by from public.account_suspensions s where s.user_id = p.id) as suspended_by
     from public.profiles p where p.id = $1`, [id])).rows[0]);
}

Deno.test({
  name: 'update-user rights matrix',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const alice = await createConfirmedUser('uu-alice');
    const bob = await createConfirmedUser('uu-bob');
    const admin = await createConfirmedUser('uu-admin');
    await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));

    await t.step('anonymous → 401', async () => {
      const res = await invoke('update-user', { userId: alice.id, updates: { headline: 'x' } });
      assertEquals([res.status, res.body.error?.code], [401, 'unauthorized']);
    });

    await t.step('a user on themselves: profile fields yes, role/suspension/e-mail/password no', async () => {
      const ok = await invoke('update-user', {
        userId: alice.id,
        updates: { firstname: 'Alice', headline: 'Gründerin', city: 'Köln', profile_visibility: 0, social_links: { linkedin: 'https://linkedin.com/in/alice' }, skills: ['UX', 'React'] },
      }, { token: alice.accessToken });
      assertEquals(ok.status, 200, JSON.stringify(ok.body));
      assertEquals([ok.body.profile.firstname, ok.body.profile.headline, ok.body.profile.city, ok.body.suspended], ['Alice', 'Gründerin', 'Köln', false]);
      const r = await row(alice.id);
      assertEquals([r.firstname, r.headline, r.city, r.profile_visibility], ['Alice', 'Gründerin', 'Köln', 0]);

      for (const updates of [{ user_role: 'premium' }, { suspended: false }, { authenticated: 1 }, { email: uniqueEmail('new') }, { password: 'Ganz-Neu-2026' }, { headline: 'y', user_role: 'admin' }]) {
        const res = await invoke('update-user', { userId: alice.id, updates }, { token: alice.accessToken });
        assertEquals([res.status, res.body.error?.code], [403, 'forbidden_field'], JSON.stringify(updates));
      }
      const after = await row(alice.id);
      assertEquals([after.user_role, after.headline], ['free', 'Gründerin'], 'nothing changed');
    });

    await t.step('a user on someone else → 403 forbidden', async () => {
      const res = await invoke('update-user', { userId: bob.id, updates: { headline: 'hacked' } }, { token: alice.accessToken });
      assertEquals([res.status, res.body.error?.code], [403, 'forbidden']);
      assertEquals((await row(bob.id)).headline, null);
    });

    await t.step('bad input: unknown field, wrong type, constraint errors carry the server text', async () => {
      const unknown = await invoke('update-user', { userId: alice.id, updates: { stripe_customer_id: 'cus_x' } }, { token: alice.accessToken });
      assertEquals([unknown.status, unknown.body.error?.code], [400, 'unknown_field']);
      const type = await invoke('update-user', { userId: alice.id, updates: { profile_visibility: 2 } }, { token: alice.accessToken });
      assertEquals([type.status, type.body.error?.code], [400, 'validation_failed']);
      const empty = await invoke('update-user', { userId: alice.id, updates: {} }, { token: alice.accessToken });
      assertEquals(empty.status, 400);
      const notUuid = await invoke('update-user', { userId: 'alice', updates: { headline: 'x' } }, { token: alice.accessToken });
      assertEquals(notUuid.status, 400);
      const constraint = await invoke('update-user', { userId: alice.id, updates: { social_links: { myspace: 'https://myspace.com/a' } } }, { token: alice.accessToken });
      assertEquals([constraint.status, constraint.body.error?.code], [400, 'update_failed']);
      assert(/check constraint/.test(constraint.body.error.message), constraint.body.error.message);
      const slug = await invoke('update-user', { userId: alice.id, updates: { slug: 'Not A Slug!' } }, { token: alice.accessToken });
      assertEquals(slug.status, 400);
    });

    await t.step('admin on anyone: role, suspension (audited as the admin), e-mail and password', async () => {
      const res = await invoke('update-user', { userId: bob.id, updates: { user_role: 'premium', headline: 'Von Admin', suspended: true, suspension_reason: 'Spam' } }, { token: admin.accessToken });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      assertEquals([res.body.profile.user_role, res.body.suspended], ['premium', true]);
      const r = await row(bob.id);
      assertEquals([r.user_role, r.headline, r.suspended, r.suspended_by], ['premium', 'Von Admin', true, admin.id]);
      const audit = await withDb(async (db) => (await db.query(
        `select action, actor_id from public.audit_log where target_id = $1 order by id`, [bob.id])).rows);
      assert(audit.some((a: { action: string; actor_id: string }) => a.action === 'profile.role_changed' && a.actor_id === admin.id), JSON.stringify(audit));
      assert(audit.some((a: { action: string; actor_id: string }) => a.action === 'account.suspended' && a.actor_id === admin.id), JSON.stringify(audit));

      const newEmail = uniqueEmail('uu-bob-new');
      const auth = await invoke('update-user', { userId: bob.id, updates: { email: newEmail, password: 'Admin-Gesetzt-2026', suspended: false } }, { token: admin.accessToken });
      assertEquals(auth.status, 200, JSON.stringify(auth.body));
      assertEquals([auth.body.profile.email, auth.body.suspended], [newEmail, false]);
      const signIn = await anonClient().auth.signInWithPassword({ email: newEmail, password: 'Admin-Gesetzt-2026' });
      assert(!signIn.error, signIn.error?.message);

      const weak = await invoke('update-user', { userId: bob.id, updates: { password: 'weak' } }, { token: admin.accessToken });
      assertEquals([weak.status, weak.body.error?.code], [400, 'weak_password']);
      const taken = await invoke('update-user', { userId: bob.id, updates: { email: alice.email } }, { token: admin.accessToken });
      assertEquals(taken.status, 409, JSON.stringify(taken.body));
      const missing = await invoke('update-user', { userId: crypto.randomUUID(), updates: { headline: 'x' } }, { token: admin.accessToken });
      assertEquals([missing.status, missing.body.error?.code], [404, 'not_found']);
      // The database refuses an admin suspending themselves; its text comes back.
      const self = await invoke('update-user', { userId: admin.id, updates: { suspended: true } }, { token: admin.accessToken });
      assertEquals(self.status, 403, JSON.stringify(self.body));
      assertEquals((await row(admin.id)).suspended, false);
    });

    await t.step('a suspended user cannot change their own profile', async () => {
      await withDb((db) => db.query(`insert into public.account_suspensions (user_id, reason) values ($1, 'test')`, [alice.id]));
      const res = await invoke('update-user', { userId: alice.id, updates: { headline: 'trotzdem' } }, { token: alice.accessToken });
      // Auth refuses the banned user's token (401); were it accepted, RLS would refuse the write (403).
      assert(res.status === 401 || res.status === 403, JSON.stringify(res.body));
      assertEquals((await row(alice.id)).headline, 'Gründerin');
    });

    await t.step('service role on anyone', async () => {
      const res = await invoke('update-user', { userId: alice.id, updates: { suspended: false, user_role: 'basic', authenticated: 1 } }, service);
      assertEquals(res.status, 200, JSON.stringify(res.body));
      assertEquals([res.body.profile.user_role, res.body.suspended], ['basic', false]);
    });
  },
});
