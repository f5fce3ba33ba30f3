/**
 * Issue 12 §3: a function whose secret is missing or too short answers 500
 * `server_misconfigured` and acts not at all, in every environment (no default in the source).
 *
 * Each group starts a second functions runner (scripts/local-stack/services/functions/runner.ts,
 * the program the stack runs) over supabase/functions with the stack's own function env
 * (scripts/local-stack/services/functions/env.ts) minus or with shortened secrets, on a free
 * port, without supabase/functions/.env. The functions it serves talk to the running stack, and
 * every "nothing changed" check reads the stack itself: Postgres (auth.users, profiles,
 * email_queue, subscriptions, cancellation_requests), the mailbox and the Stripe sandbox.
 * The control group (TOKEN_SECRET and STRIPE_WEBHOOK_SECRET missing) shows that each function
 * depends on its own secrets only: send-email, create-checkout-session and login-check act there.
 *
 * Run: TEAMWERK_STACK_OFFSET=<n> node_modules/.bin/deno test --allow-all supabase/functions/_shared/secrets_test.ts
 */
import { assert, assertEquals } from './assert.ts';
import { anonClient, createConfirmedUser, invoke, mailbox, serviceClient, stack, stackConf, STRONG_PASSWORD, uniqueEmail, withDb } from './testing.ts';
import { ensurePrices, payCheckout, sandboxStripe, signPayload, type PriceKey } from './billing-testing.ts';
import { pkceChallenge, signToken } from './tokens.ts';
import { functionsEnv } from '../../../scripts/local-stack/services/functions/env.ts';

const ROOT = new URL('../../../', import.meta.url).pathname.replace(/\/$/, '');
const RUNNER = `${ROOT}/scripts/local-stack/services/functions/runner.ts`;
const stripe = sandboxStripe();

/** A functions runner of this test; `url` is `http://127.0.0.1:<port>` (functions at `/<name>`). */
interface Runner {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts a runner with exactly `env` (plus PATH/HOME); resolves once it listens. */
async function startRunner(env: Record<string, string>): Promise<Runner> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '--allow-all', '--no-prompt', '--cached-only', `--config=${ROOT}/deno.json`, RUNNER, String(port), `${ROOT}/supabase/functions`, '--no-env-file'],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get('PATH') ?? '/usr/bin:/bin',
      HOME: Deno.env.get('HOME') ?? ROOT,
      ...(Deno.env.get('DENO_DIR') ? { DENO_DIR: Deno.env.get('DENO_DIR')! } : {}),
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      // no background sends from this runner (the stack's own queue worker is not under test)
      EMAIL_QUEUE_KICK: 'off',
      ...env,
    },
    stdout: 'piped',
    stderr: 'piped',
  }).spawn();
  let log = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      log += chunk;
      if (log.includes(`functions runner ready on ${port}`)) markReady();
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 30_000));
  const exited = child.status.then(() => 'exited' as const);
  const outcome = await Promise.race([ready.then(() => 'ready' as const), timeout, exited]);
  if (outcome !== 'ready') {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
    throw new Error(`functions runner did not start (${outcome}):\n${log}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => log,
    async stop() {
      try {
        child.kill('SIGTERM');
      } catch {
        // already gone
      }
      await child.status;
      await pumps;
    },
  };
}

/** Calls function `name` of `runner` (POST JSON unless a raw body is given). */
// deno-lint-ignore no-explicit-any -- answers are inspected field by field
async function call(runner: Runner, name: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${runner.url}/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** The answer of a function missing `secret`: 500 server_misconfigured naming the variable. */
function assertMisconfigured(res: { status: number; body: { error?: { code?: string; message?: string } } }, secret: string, what: string): void {
  assertEquals([res.status, res.body?.error?.code], [500, 'server_misconfigured'], `${what}: ${JSON.stringify(res.body)}`);
  assert(res.body.error?.message?.includes(secret), `${what}: the message names ${secret}: ${res.body.error?.message}`);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const service = bearer(stack.serviceRoleKey);
const codeVerifier = () => `${crypto.randomUUID()}${crypto.randomUUID()}`;

async function authUser(id: string) {
  return await withDb(async (db) => (await db.query('select email_confirmed_at, encrypted_password from auth.users where id = $1', [id])).rows[0]);
}

async function queuedMails(email: string) {
  return await withDb(async (db) => (await db.query('select email_type, status::text, attempts from public.email_queue where email = lower($1)', [email])).rows);
}

async function canSignIn(email: string, password: string): Promise<boolean> {
  const { data, error } = await anonClient().auth.signInWithPassword({ email, password });
  return !error && Boolean(data.session);
}

/** A confirmed user with a paid Premium subscription, set up through the running stack. */
async function subscriber(tag: string, prices: Record<PriceKey, string>) {
  const user = await createConfirmedUser(tag);
  const cs = await invoke('create-checkout-session', { userId: user.id, email: user.email, name: 'Sina Geheim', priceId: prices.premium_monthly, planType: 'premium' }, { token: user.accessToken });
  assertEquals(cs.status, 200, JSON.stringify(cs.body));
  assertEquals((await payCheckout(cs.body.url)).status, 303);
  const v = await invoke('verify-payment', { sessionId: cs.body.sessionId }, { token: user.accessToken });
  assertEquals(v.status, 200, JSON.stringify(v.body));
  return { ...user, sessionId: cs.body.sessionId as string, subscriptionId: v.body.subscriptionId as string };
}

/** The stored subscription row, read once it has stopped changing (webhooks of the payment may still arrive). */
async function settledSubscription(subscriptionId: string) {
  const read = () => withDb(async (db) => (await db.query(
    `select status::text, cancel_at_period_end, current_period_end, last_synced_at, updated_at from public.subscriptions where stripe_subscription_id = $1`,
    [subscriptionId],
  )).rows[0]);
  let last = JSON.stringify(await read());
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = JSON.stringify(await read());
    if (now === last) return JSON.parse(now);
    last = now;
  }
  return JSON.parse(last);
}

/** A Stripe-signed (with the sandbox's real webhook secret) customer.subscription.updated event setting cancel_at_period_end. */
async function signedCancelEvent(subscriptionId: string): Promise<{ payload: string; signature: string }> {
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  const payload = JSON.stringify({
    id: `evt_misconfigured_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`,
    object: 'event',
    api_version: '2023-10-16',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'customer.subscription.updated',
    data: { object: { ...sub, cancel_at_period_end: true }, previous_attributes: { cancel_at_period_end: false } },
  });
  return { payload, signature: await signPayload(payload) };
}

/** Waits while the stack's pg_cron queue job (every minute, second 0) could run within the next seconds. */
async function awayFromTheMinute(): Promise<void> {
  while (new Date().getUTCSeconds() >= 56 || new Date().getUTCSeconds() < 2) await new Promise((r) => setTimeout(r, 250));
}

/** The function env of the running stack (as its runner gets it) with `changes` applied (`null` = unset). */
function stackEnvWith(changes: Record<string, string | null>): Record<string, string> {
  const env: Record<string, string> = { ...functionsEnv(stackConf) };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * Every function that needs TOKEN_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET or
 * RESEND_API_KEY, called on `runner` (which lacks all four, or has them too short): 500
 * server_misconfigured, and nothing in the stack changed.
 */
async function expectRefusals(t: Deno.TestContext, runner: Runner, prices: Record<PriceKey, string>): Promise<void> {
  await t.step('process-email-queue claims and sends nothing', async () => {
    const email = uniqueEmail('sec-queue');
    // a login in the test file before this one kicks the stack's (configured) queue 2 s later
    // (login-check, spec §4): let that run pass first, then keep clear of the cron minute
    await new Promise((r) => setTimeout(r, 2500));
    await awayFromTheMinute();
    await withDb((db) => db.query(`insert into public.email_queue (email, email_type, lang) values ($1, 'welcome_email', 'en')`, [email]));
    const res = await call(runner, 'process-email-queue', {}, service);
    assertMisconfigured(res, 'RESEND_API_KEY', 'process-email-queue');
    assertEquals(await queuedMails(email), [{ email_type: 'welcome_email', status: 'pending', attempts: 0 }]);
    assertEquals((await mailbox(email)).length, 0);
    await withDb((db) => db.query('delete from public.email_queue where email = $1', [email]));
  });

  await t.step('send-email sends nothing', async () => {
    const to = uniqueEmail('sec-send');
    const res = await call(runner, 'send-email', { to, subject: 'Geheim', html: '<p>nicht senden</p>' }, service);
    assertMisconfigured(res, 'RESEND_API_KEY', 'send-email');
    await new Promise((r) => setTimeout(r, 300));
    assertEquals((await mailbox(to)).length, 0);
  });

  await t.step('register creates no account and queues no mail', async () => {
    const email = uniqueEmail('sec-register');
    const res = await call(runner, 'register', {
      firstname: 'Sina', lastname: 'Geheim', email, password: STRONG_PASSWORD, type: 'other', terms_accepted: true, privacy_accepted: true, locale: 'en',
    });
    assertMisconfigured(res, 'TOKEN_SECRET', 'register');
    const users = await withDb(async (db) => (await db.query('select id from auth.users where email = lower($1)', [email])).rows);
    assertEquals(users.length, 0);
    assertEquals(await queuedMails(email), []);
  });

  await t.step('confirm-email does not confirm, even with a valid token', async () => {
    const email = uniqueEmail('sec-confirm');
    const created = await serviceClient().auth.admin.createUser({ email, password: STRONG_PASSWORD, email_confirm: false, user_metadata: { firstname: 'Sina', lastname: 'Geheim' } });
    assert(created.data.user, created.error?.message);
    const token = await signToken('confirm', created.data.user.id, { secret: stack.tokenSecret });
    const res = await call(runner, 'confirm-email', { token });
    assertMisconfigured(res, 'TOKEN_SECRET', 'confirm-email');
    assertEquals((await authUser(created.data.user.id)).email_confirmed_at, null);
    assertEquals(await queuedMails(email), []);

    const resend = await call(runner, 'resend-confirmation', { email });
    assertMisconfigured(resend, 'TOKEN_SECRET', 'resend-confirmation');
    assertEquals(await queuedMails(email), []);
  });

  await t.step('request-password-reset queues no mail; complete-password-reset keeps the password, even with a valid token', async () => {
    const user = await createConfirmedUser('sec-reset');
    const ask = await call(runner, 'request-password-reset', { email: user.email, code_challenge: await pkceChallenge(codeVerifier()) });
    assertMisconfigured(ask, 'TOKEN_SECRET', 'request-password-reset');
    assertEquals((await queuedMails(user.email)).filter((m) => m.email_type === 'password_reset'), []);

    const verifier = codeVerifier();
    const token = await signToken('reset', user.id, { secret: stack.tokenSecret, codeChallenge: await pkceChallenge(verifier) });
    const before = (await authUser(user.id)).encrypted_password;
    const res = await call(runner, 'complete-password-reset', { token, code_verifier: verifier, password: 'Neues-Passwort-2026' });
    assertMisconfigured(res, 'TOKEN_SECRET', 'complete-password-reset');
    assertEquals((await authUser(user.id)).encrypted_password, before);
    assert(await canSignIn(user.email, STRONG_PASSWORD), 'the old password still works');
    assert(!(await canSignIn(user.email, 'Neues-Passwort-2026')), 'the new password was not set');
  });

  await t.step('create-checkout-session creates no customer and no session', async () => {
    const user = await createConfirmedUser('sec-checkout');
    const res = await call(runner, 'create-checkout-session', { userId: user.id, email: user.email, name: 'Sina Geheim', priceId: prices.basic_monthly, planType: 'basic' }, bearer(user.accessToken));
    assertMisconfigured(res, 'STRIPE_SECRET_KEY', 'create-checkout-session');
    const profile = await withDb(async (db) => (await db.query('select stripe_customer_id from public.profiles where id = $1', [user.id])).rows[0]);
    assertEquals(profile.stripe_customer_id, null);
    assertEquals((await stripe.customers.list({ email: user.email })).data.length, 0);
  });

  await t.step('portal, verify-payment, cancel-contract, delete-account and stripe-webhook leave a subscription as it is', async () => {
    const sub = await subscriber('sec-sub', prices);
    const before = await settledSubscription(sub.subscriptionId);
    assertEquals([before.status, before.cancel_at_period_end], ['active', false]);

    assertMisconfigured(await call(runner, 'create-portal-session', {}, bearer(sub.accessToken)), 'STRIPE_SECRET_KEY', 'create-portal-session');
    assertMisconfigured(await call(runner, 'verify-payment', { sessionId: sub.sessionId }, bearer(sub.accessToken)), 'STRIPE_SECRET_KEY', 'verify-payment');
    assertMisconfigured(
      await call(runner, 'organization-seats', { organizationId: crypto.randomUUID(), extraSeats: 1 }, bearer(sub.accessToken)),
      'STRIPE_SECRET_KEY',
      'organization-seats',
    );
    assertMisconfigured(
      await call(runner, 'cancel-contract', { name: 'Sina Geheim', email: sub.email, plan: 'premium', requestedDate: 'asap', locale: 'de' }, bearer(sub.accessToken)),
      'STRIPE_SECRET_KEY',
      'cancel-contract',
    );
    assertMisconfigured(await call(runner, 'delete-account', { email: sub.email }, bearer(sub.accessToken)), 'STRIPE_SECRET_KEY', 'delete-account');
    const account = await withDb(async (db) => (await db.query('select count(*)::int as n from auth.users where id = $1', [sub.id])).rows[0].n);
    assertEquals(account, 1, 'delete-account deleted nothing');
    const event = await signedCancelEvent(sub.subscriptionId);
    const hook = await call(runner, 'stripe-webhook', event.payload, { 'Stripe-Signature': event.signature });
    assertEquals([hook.status, hook.body?.error?.code], [500, 'server_misconfigured'], JSON.stringify(hook.body));

    assertEquals((await stripe.subscriptions.retrieve(sub.subscriptionId)).cancel_at_period_end, false);
    assertEquals(await settledSubscription(sub.subscriptionId), before);
    const requests = await withDb(async (db) => (await db.query('select id from public.cancellation_requests where email = lower($1)', [sub.email])).rows);
    assertEquals(requests.length, 0);
    assertEquals((await queuedMails(sub.email)).filter((m) => m.email_type === 'cancellation_confirmation'), []);
  });
}

Deno.test({
  name: 'functions without their secrets answer 500 server_misconfigured and change nothing',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const prices = await ensurePrices();

    await t.step('secrets unset', async (t) => {
      const runner = await startRunner(stackEnvWith({ TOKEN_SECRET: null, STRIPE_SECRET_KEY: null, STRIPE_WEBHOOK_SECRET: null, RESEND_API_KEY: null }));
      try {
        await expectRefusals(t, runner, prices);
      } catch (err) {
        console.error(runner.output());
        throw err;
      } finally {
        await runner.stop();
      }
    });

    await t.step('secrets one character too short', async (t) => {
      const runner = await startRunner(stackEnvWith({
        TOKEN_SECRET: stack.tokenSecret.slice(0, 31),
        STRIPE_SECRET_KEY: stackConf.stripeSecretKey.slice(0, 23),
        STRIPE_WEBHOOK_SECRET: stackConf.stripeWebhookSecret.slice(0, 31),
        RESEND_API_KEY: stackConf.resendApiKey.slice(0, 19),
      }));
      try {
        await expectRefusals(t, runner, prices);
      } catch (err) {
        console.error(runner.output());
        throw err;
      } finally {
        await runner.stop();
      }
    });

    await t.step('control: each function needs only its own secrets', async (t) => {
      const runner = await startRunner(stackEnvWith({ TOKEN_SECRET: null, STRIPE_WEBHOOK_SECRET: null }));
      try {
        await t.step('stripe-webhook refuses without STRIPE_WEBHOOK_SECRET (STRIPE_SECRET_KEY set)', async () => {
          const sub = await subscriber('sec-ctl-sub', prices);
          const before = await settledSubscription(sub.subscriptionId);
          const event = await signedCancelEvent(sub.subscriptionId);
          const hook = await call(runner, 'stripe-webhook', event.payload, { 'Stripe-Signature': event.signature });
          assertMisconfigured(hook, 'STRIPE_WEBHOOK_SECRET', 'stripe-webhook');
          assertEquals(await settledSubscription(sub.subscriptionId), before);
        });
        await t.step('register refuses without TOKEN_SECRET', async () => {
          const email = uniqueEmail('sec-ctl-register');
          const res = await call(runner, 'register', {
            firstname: 'Sina', lastname: 'Geheim', email, password: STRONG_PASSWORD, type: 'other', terms_accepted: true, privacy_accepted: true,
          });
          assertMisconfigured(res, 'TOKEN_SECRET', 'register');
        });
        await t.step('login-check, send-email and create-checkout-session act', async () => {
          const user = await createConfirmedUser('sec-ctl');
          const login = await call(runner, 'login-check', { email: user.email, password: STRONG_PASSWORD });
          assertEquals([login.status, login.body.status], [200, 'ok'], JSON.stringify(login.body));

          const to = uniqueEmail('sec-ctl-send');
          const sent = await call(runner, 'send-email', { to, subject: 'Kontrolle', html: '<p>senden</p>' }, service);
          assertEquals(sent.status, 200, JSON.stringify(sent.body));
          assertEquals((await mailbox(to)).length, 1);

          const cs = await call(runner, 'create-checkout-session', { userId: user.id, email: user.email, name: 'Sina Geheim', priceId: prices.basic_monthly, planType: 'basic' }, bearer(user.accessToken));
          assertEquals(cs.status, 200, JSON.stringify(cs.body));
          assertEquals((await stripe.customers.list({ email: user.email })).data.length, 1);
        });
      } catch (err) {
        console.error(runner.output());
        throw err;
      } finally {
        await runner.stop();
      }
    });
  },
});
