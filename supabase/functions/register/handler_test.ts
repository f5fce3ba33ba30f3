/**
 * Registration and confirmation against the running local stack: register → confirm mail in the
 * user's language in the mailbox → confirm → authenticated = 1 and the welcome mail sent;
 * expired and forged links; resend-confirmation without account enumeration; bad input.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { answer, invoke, mailbox, post, stack, STRONG_PASSWORD, uniqueEmail, waitForMail, withDb } from '../_shared/testing.ts';
import { accountDepsFromEnv, type AccountDeps } from '../_shared/account-deps.ts';
import { createRegisterHandler } from './handler.ts';
import { createConfirmEmailHandler } from '../confirm-email/handler.ts';
import { createResendConfirmationHandler } from '../resend-confirmation/handler.ts';
import { signToken } from '../_shared/tokens.ts';

const deps: AccountDeps = accountDepsFromEnv();
const register = createRegisterHandler(deps);
const confirm = createConfirmEmailHandler(deps);

function registration(email: string, overrides: Record<string, unknown> = {}) {
  return {
    firstname: 'Lena',
    lastname: 'Fischer',
    email,
    password: STRONG_PASSWORD,
    type: 'business',
    terms_accepted: true,
    privacy_accepted: true,
    locale: 'de',
    ...overrides,
  };
}

/** The token from the confirm link in a mail's plain text. */
function tokenFrom(text: string, path: string): string {
  const m = new RegExp(`${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_.-]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1]!;
}

async function profile(email: string) {
  return await withDb(async (db) => (await db.query(
    `select p.id, p.authenticated, p.user_role, p.type, p.preferred_language, p.firstname, u.email_confirmed_at
     from public.profiles p join auth.users u on u.id = p.id where p.email = $1`, [email])).rows[0]);
}

Deno.test({
  name: 'register and confirm',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await t.step('German: register → confirm mail (de link) → confirm → authenticated 1 → welcome mail (de)', async () => {
      const email = uniqueEmail('reg-de');
      const res = await answer(await register(post(registration(email.toUpperCase()))));
      assertEquals(res.status, 201, JSON.stringify(res.body));
      assertEquals(res.body.email, email);
      assertEquals(res.body.confirmation_sent, true);

      const p = await profile(email);
      assertEquals([p.authenticated, p.user_role, p.type, p.preferred_language, p.firstname, p.email_confirmed_at], [0, 'free', 'business', 'de', 'Lena', null]);

      const [mail] = await waitForMail(email);
      assert(mail, 'confirm mail in the mailbox');
      assertEquals(mail.subject, 'Bitte bestätigen Sie Ihre E-Mail-Adresse');
      assert(mail.text!.startsWith('Hallo Lena,'));
      assert(mail.text!.includes(`${stack.siteUrl}/de/confirm-email?token=`));
      assert(mail.html!.includes('E-Mail-Adresse bestätigen'), 'German button label');
      const token = tokenFrom(mail.text!, '/de/confirm-email');

      const ok = await answer(await confirm(post({ token })));
      assertEquals([ok.status, ok.body], [200, { confirmed: true, already_confirmed: false }]);
      const after = await profile(email);
      assertEquals(after.authenticated, 1);
      assert(after.email_confirmed_at, 'auth e-mail confirmed');

      const mails = await waitForMail(email, 2);
      assertEquals(mails.length, 2);
      assertEquals(mails[0]!.subject, 'Willkommen bei Teamwerk, Lena!');
      // the mailbox has the mail a moment before the worker records it as sent (completions are
      // written per batch): wait for the record
      const welcomeRow = () => withDb(async (db) => (await db.query(
        `select status, lang from public.email_queue where user_id = $1 and email_type = 'welcome_email'`, [p.id])).rows);
      let welcome = await welcomeRow();
      for (let i = 0; i < 50 && welcome[0]?.status === 'processing'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        welcome = await welcomeRow();
      }
      assertEquals(welcome, [{ status: 'sent', lang: 'de' }]);

      // A second click: harmless, no second welcome mail.
      const again = await answer(await confirm(post({ token })));
      assertEquals([again.status, again.body.already_confirmed], [200, true]);
      await new Promise((r) => setTimeout(r, 300));
      assertEquals((await mailbox(email)).length, 2);
    });

    await t.step('English through the gateway: confirm mail in English with a link without /de', async () => {
      const email = uniqueEmail('reg-en');
      const res = await invoke('register', registration(email, { locale: 'en', type: 'other', firstname: 'Tom' }));
      assertEquals(res.status, 201, JSON.stringify(res.body));
      const [mail] = await waitForMail(email);
      assertEquals(mail!.subject, 'Please confirm your email address');
      assert(mail!.text!.startsWith('Hi Tom,'));
      const token = tokenFrom(mail!.text!, '/confirm-email');
      assert(mail!.text!.includes(`${stack.siteUrl}/confirm-email?token=`));
      const ok = await invoke('confirm-email', { token });
      assertEquals(ok.status, 200);
      const [welcome] = await waitForMail(email, 2);
      assertEquals(welcome!.subject, 'Welcome to Teamwerk, Tom!');
      assertEquals((await profile(email)).preferred_language, 'en');
    });

    await t.step('known address: the same answer as a new one, nothing created, one notice a day to the account (issue 12)', async () => {
      const email = uniqueEmail('dup');
      const fresh = await answer(await register(post(registration(email))));
      assertEquals(fresh.status, 201);
      const before = await profile(email);
      const dup = await answer(await register(post(registration(email.toUpperCase(), { firstname: 'Other', password: 'Another-Passw0rd' }))));
      assertEquals(dup.status, fresh.status);
      assertEquals(Object.keys(dup.body).sort(), Object.keys(fresh.body).sort());
      assertEquals(dup.body, { email, confirmation_sent: true });
      assertEquals((await profile(email)).firstname, before.firstname, 'the account is unchanged');
      const notices = async () => await withDb(async (db) => (await db.query(
        `select lang from public.email_queue where email = $1 and email_type = 'account_exists_notice'`, [email])).rows);
      assertEquals(await notices(), [{ lang: 'de' }]);
      assertEquals((await answer(await register(post(registration(email))))).status, 201);
      assertEquals((await notices()).length, 1, 'at most one notice a day');
      const unknown = await answer(await register(post(registration(uniqueEmail('dup-new')))));
      assertEquals(Object.keys(unknown.body).sort(), Object.keys(dup.body).sort());
    });

    await t.step('at most 20 registrations per client address and hour (429); bad input does not count', async () => {
      await withDb((db) => db.query(`delete from private.rate_limits where bucket = 'register:ip'`));
      const ip = `203.0.113.${1 + Math.floor(Math.random() * 200)}`;
      const from = (body: unknown) => post(body, { 'x-forwarded-for': ip });
      for (let i = 0; i < 3; i++) assertEquals((await answer(await register(from(registration('bad-address'))))).status, 400);
      for (let i = 0; i < 20; i++) assertEquals((await answer(await register(from(registration(uniqueEmail('rl')))))).status, 201);
      const refused = await answer(await register(from(registration(uniqueEmail('rl-over')))));
      assertEquals([refused.status, refused.body.error.code], [429, 'rate_limited']);
      await withDb((db) => db.query(`delete from private.rate_limits where bucket = 'register:ip'`));
    });

    await t.step('bad input: weak password names the rule, terms required, bad e-mail, bad type', async () => {
      const cases: [Record<string, unknown>, number, string, RegExp?][] = [
        [{ password: 'short1A' }, 400, 'weak_password', /at least 8 characters/],
        [{ password: 'alllowercase1' }, 400, 'weak_password', /upper-case/],
        [{ password: 'ALLUPPERCASE1' }, 400, 'weak_password', /lower-case/],
        [{ password: 'NoDigitsHere' }, 400, 'weak_password', /digit/],
        [{ terms_accepted: false }, 400, 'terms_not_accepted'],
        [{ privacy_accepted: false }, 400, 'terms_not_accepted'],
        [{ email: 'not-an-address' }, 400, 'validation_failed', /email/],
        [{ type: 'company' }, 400, 'validation_failed', /type/],
        [{ locale: 'fr' }, 400, 'validation_failed', /locale/],
        [{ firstname: '' }, 400, 'validation_failed', /firstname/],
      ];
      for (const [override, status, code, message] of cases) {
        const email = uniqueEmail('bad');
        const res = await answer(await register(post(registration(email, override))));
        assertEquals([res.status, res.body.error?.code], [status, code], JSON.stringify(override));
        if (message) assert(message.test(res.body.error.message), `${res.body.error.message} ~ ${message}`);
        assertEquals(await profile(email), undefined, 'no account created');
      }
      const notJson = await register(new Request('http://x/', { method: 'POST', body: '{nope' }));
      assertEquals(notJson.status, 400);
    });

    await t.step('expired, forged and undecodable confirm links → 400 token_expired, nothing changes', async () => {
      const email = uniqueEmail('expired');
      assertEquals((await register(post(registration(email)))).status, 201);
      const [mail] = await waitForMail(email);
      const token = tokenFrom(mail!.text!, '/de/confirm-email');
      // Six minutes later (default validity 5 minutes).
      const later = createConfirmEmailHandler({ ...deps, now: () => Date.now() + 6 * 60_000 });
      const expired = await answer(await later(post({ token })));
      assertEquals([expired.status, expired.body.error.code], [400, 'token_expired']);
      const p = await profile(email);
      const forged = await signToken('confirm', p.id, { secret: 'an-attacker-secret-that-is-long-enough!!' });
      for (const bad of [forged, token.slice(0, -3) + 'abc', 'garbage', `${token}x`]) {
        const res = await answer(await confirm(post({ token: bad })));
        assertEquals([res.status, res.body.error.code], [400, 'token_expired'], bad);
      }
      // A reset token is no confirm token.
      const reset = await signToken('reset', p.id, { secret: deps.tokenSecret });
      assertEquals((await confirm(post({ token: reset }))).status, 400);
      assertEquals((await profile(email)).authenticated, 0, 'still unconfirmed');
    });

    await t.step('resend-confirmation: same answer for unknown, confirmed and unconfirmed; new link only for unconfirmed', async () => {
      const resend = createResendConfirmationHandler(deps);
      const email = uniqueEmail('resend');
      assertEquals((await register(post(registration(email, { locale: 'en' })))).status, 201);
      await waitForMail(email);
      // Throttled within 60 s of the first mail; make the first one older.
      const age = () => withDb((db) => db.query(`update public.email_queue set created_at = now() - interval '2 minutes' where email = $1`, [email]));
      await age();
      const a = await answer(await resend(post({ email })));
      const b = await answer(await resend(post({ email: uniqueEmail('nobody') })));
      assertEquals([a.status, a.body], [200, { ok: true }]);
      assertEquals([b.status, b.body], [200, { ok: true }]);
      const mails = await waitForMail(email, 2);
      assertEquals(mails.length, 2);
      assertEquals(mails[0]!.subject, 'Please confirm your email address');
      // Throttle: an immediate second request sends nothing more.
      assertEquals((await resend(post({ email }))).status, 200);
      await new Promise((r) => setTimeout(r, 300));
      assertEquals((await mailbox(email)).length, 2);
      // The new link works.
      const ok = await answer(await confirm(post({ token: tokenFrom(mails[0]!.text!, '/confirm-email') })));
      assertEquals(ok.status, 200);
      // Confirmed accounts get nothing (but the same answer).
      await age();
      const c = await answer(await resend(post({ email })));
      assertEquals([c.status, c.body], [200, { ok: true }]);
      await new Promise((r) => setTimeout(r, 300));
      assertEquals((await mailbox(email)).filter((m) => m.subject.startsWith('Please confirm')).length, 2);
      const bad = await answer(await resend(post({ email: 'nope' })));
      assertEquals([bad.status, bad.body.error.code], [400, 'validation_failed']);
    });
  },
});
