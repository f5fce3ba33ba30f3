/**
 * The fault suite (issue 17): injects each fault into a running local stack while traffic flows,
 * then checks that nothing was lost or duplicated. Each fault prints what it did and what it
 * verified; the suite exits 1 when a check fails. `npm test` runs it as its `faults` step.
 *
 * Faults (in this order):
 * 1. mail-outage: the mail provider (the mailbox's Resend API) answers 500, then 429, for a
 *    minute while mails keep being queued; afterwards every mail is delivered exactly once, by
 *    priority, and the queue showed its backoff (attempts, last error, growing delays).
 * 2. runner-killed: the functions runner is killed (SIGKILL) in the middle of a queue batch and
 *    restarts; no mail is lost or sent twice (idempotency keys), no row stays claimed or locked.
 * 3. webhook-outage: Stripe's webhooks to the product answer 500 for a while and are retried,
 *    then one arrives twice and an old one arrives after a newer one; the subscription ends in
 *    Stripe's state, recorded once.
 * 4. ticket-outage (issue 16): the webhook endpoint fails while a buyer pays a ticket and closes
 *    the tab; Stripe's retries confirm the seat, a repeated event changes nothing (one ticket,
 *    one mail); then Stripe's API is down while the buyer cancels: the refund stays queued and
 *    is paid back once Stripe answers again, exactly once.
 * 5. postgres-restart: Postgres restarts while a member chats; PostgREST serves again within
 *    seconds, the stack's pieces reconnect by themselves, and the other member's Realtime client
 *    rejoins and has every message exactly once, in order.
 * (The browser losing its network is a browser test: frontend/e2e/offline.spec.ts.)
 *
 * Runs its own stack (TEAMWERK_STACK_OFFSET, default 8000) with fault injection on
 * (TEAMWERK_FAULTS=1) and short timings (claim lock 10 s, one mail at a time, webhook retries
 * from 2 s); starts it when needed and stops it at the end unless `--keep`.
 * Usage: `npx tsx scripts/faults/run.ts [--keep] [fault names…]`
 */
import fs from 'node:fs';
import pg from 'pg';
import WebSocket from 'ws';
import Stripe from 'stripe';
import { RealtimeClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';

process.env.TEAMWERK_STACK_OFFSET ??= '8000';
Object.assign(process.env, {
  TEAMWERK_FAULTS: '1',
  EMAIL_QUEUE_LOCK_SECONDS: '10',
  EMAIL_QUEUE_CONCURRENCY: '1',
  EMAIL_QUEUE_BATCH_SIZE: '10',
  STRIPE_SANDBOX_WEBHOOK_RETRY_BASE_MS: '2000',
});
const { stackConfig } = await import('../local-stack/config.ts');
const { readState, startStack, stopStack } = await import('../local-stack/cli.ts');
const { signJwt } = await import('../local-stack/jwt.ts');
const { sandboxStripe } = await import('../stripe/sync-prices.ts');

const config = stackConfig();
const keep = process.argv.includes('--keep');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const service = { apikey: config.serviceRoleKey, Authorization: `Bearer ${config.serviceRoleKey}` };

/** A failed check. */
class CheckFailed extends Error {}
function check(ok: boolean, what: string): void {
  if (!ok) throw new CheckFailed(what);
  console.log(`    verified: ${what}`);
}
const did = (what: string) => console.log(`    did: ${what}`);

// A pool that survives the database restart (idle clients that die are replaced).
const pool = new pg.Pool({ connectionString: config.dbUrl, max: 4 });
pool.on('error', () => undefined);
const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await pool.query<T>(text, params)).rows;

// -------------------------------------------------------------------------------------------
// Background traffic: visitors reading while the faults happen
// -------------------------------------------------------------------------------------------

class Traffic {
  ok = 0;
  failed = 0;
  private running = true;
  private loop: Promise<void>;
  constructor() {
    this.loop = (async () => {
      const paths = ['cities?select=name&limit=5', 'projects?select=id,title&limit=10', 'jobs?select=id,title&limit=10'];
      let i = 0;
      while (this.running) {
        try {
          const res = await fetch(`${config.apiUrl}/rest/v1/${paths[i++ % paths.length]}`, { headers: { apikey: config.anonKey }, signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          if (res.ok) this.ok++;
          else this.failed++;
        } catch {
          this.failed++;
        }
        await sleep(100);
      }
    })();
  }
  async stop(): Promise<{ ok: number; failed: number }> {
    this.running = false;
    await this.loop;
    return { ok: this.ok, failed: this.failed };
  }
}

// -------------------------------------------------------------------------------------------
// Helpers: queue, mailbox, faults
// -------------------------------------------------------------------------------------------

async function runQueue(): Promise<void> {
  const res = await fetch(`${config.apiUrl}/functions/v1/process-email-queue`, { method: 'POST', headers: { ...service, 'Content-Type': 'application/json' }, body: '{}' });
  await res.arrayBuffer();
}

interface MailboxMessage {
  id: string;
  to: string[];
  created_at: string;
}
async function mailbox(domainTag: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${config.mailboxUrl}/api/messages`);
  const all = (await res.json()) as MailboxMessage[];
  return all.filter((m) => m.to.some((t) => t.includes(domainTag)));
}

async function mailFault(body: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${config.mailboxUrl}/api/faults`, {
    method: body ? 'POST' : 'DELETE',
    headers: { Authorization: `Bearer ${config.resendApiKey}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mailbox fault: ${res.status} ${await res.text()}`);
}

/**
 * Starts (for at most 300 s, a safety net) or ends the Stripe sandbox's simulated outage: its API
 * answers 503 meanwhile.
 */
async function stripeOutage(on: boolean): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${config.ports.stripe}/_sandbox/outage`, {
    method: on ? 'POST' : 'DELETE',
    headers: { Authorization: `Bearer ${config.stripeSecretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: on ? 'seconds=300' : undefined,
  });
  if (!res.ok) throw new Error(`stripe outage: ${res.status} ${await res.text()}`);
}

async function gatewayFault(body: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${config.apiUrl}/__faults`, {
    method: body ? 'POST' : 'DELETE',
    headers: { Authorization: `Bearer ${config.serviceRoleKey}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`gateway fault: ${res.status} ${await res.text()}`);
}


/** Queues `n` mails of the kinds above, round robin, to addresses carrying `tag`; returns their ids. */
async function enqueue(tag: string, from: number, n: number): Promise<void> {
  await sql(
    `insert into public.email_queue (email, email_type, lang, user_metadata, payload)
     select $1 || '-' || i || '@faults.teamwerk.test', (array['password_reset','subscription_activated','contact_confirmation','contact_request','newsletter_welcome'])[1 + i % 5],
            case when i % 2 = 0 then 'de' else 'en' end, '{"firstname": "Fault", "lastname": "Test"}', jsonb_build_object('link', 'http://127.0.0.1:5173/', 'fault', $1::text)
     from generate_series($2::int, $2::int + $3::int - 1) i`,
    [tag, from, n],
  );
}

interface QueueRow {
  id: string;
  email: string;
  priority: number;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  locked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
const queueRows = (tag: string) =>
  sql<QueueRow>(`select id, email, priority, status, attempts, next_attempt_at, last_error, locked_at, created_at, updated_at from public.email_queue where payload ->> 'fault' = $1 order by id`, [tag]);

/** Every queued mail of `tag` was delivered exactly once; returns the mailbox messages. */
async function deliveredOnce(tag: string, expected: number): Promise<MailboxMessage[]> {
  const rows = await queueRows(tag);
  const messages = await mailbox(tag);
  const perAddress = new Map<string, number>();
  for (const m of messages) for (const t of m.to) perAddress.set(t, (perAddress.get(t) ?? 0) + 1);
  check(rows.length === expected && rows.every((r) => r.status === 'sent'), `all ${expected} queued mails are sent (statuses: ${[...new Set(rows.map((r) => r.status))].join(', ')})`);
  check(rows.every((r) => perAddress.get(r.email) === 1) && messages.length === expected, `the mailbox has exactly one message per queued mail (${messages.length} messages for ${expected} mails, none twice)`);
  return messages;
}

// -------------------------------------------------------------------------------------------
// 1. Mail provider outage
// -------------------------------------------------------------------------------------------

async function mailOutage(): Promise<void> {
  const tag = `outage-${Date.now().toString(36)}`;
  const traffic = new Traffic();
  const t0 = Date.now();
  const at = () => (Date.now() - t0) / 1000;
  // the newest rule wins while it lasts: 500 for the first 30 s, then the 429 one until 60 s
  await mailFault({ status: 429, seconds: 60 });
  await mailFault({ status: 500, seconds: 30 });
  did('the mail provider answers 500 for 30 s, then 429 (rate limited) for 30 s; 10 mails queued at once, 5 more after 20 s and after 45 s; the queue is run every 5 s (and by pg_cron every minute)');
  await enqueue(tag, 0, 10);
  let queued = 10;
  let snapshot: QueueRow[] = [];
  let deliveredDuringOutage = -1;
  while (at() < 61) {
    await runQueue();
    if (queued === 10 && at() >= 20) queued += (await enqueue(tag, 10, 5), 5);
    if (queued === 15 && at() >= 45) queued += (await enqueue(tag, 15, 5), 5);
    if (snapshot.length === 0 && at() >= 55) {
      snapshot = await queueRows(tag);
      deliveredDuringOutage = (await mailbox(tag)).length;
    }
    await sleep(Math.max(0, Math.min(5000, (61 - at()) * 1000)));
  }
  check(deliveredDuringOutage === 0, 'nothing reached the mailbox while the provider failed');
  const delay = (r: QueueRow) => Math.round((r.next_attempt_at.getTime() - r.updated_at.getTime()) / 1000);
  const errors = new Set(snapshot.map((r) => (r.last_error ?? '').match(/\b(500|429)\b|rate_limit|internal_server_error/)?.[0]).filter(Boolean));
  console.log(`    queue after 55 s (attempts:delay to the next try in s): ${snapshot.map((r) => `${r.attempts}:${delay(r)}`).join(' ')}; errors: ${snapshot.map((r) => r.last_error).filter(Boolean).slice(0, 2).join(' | ')}`);
  check(snapshot.every((r) => r.status === 'pending' && r.attempts >= 1 && r.last_error), `during the outage every mail stayed pending with its attempts and last error (${[...errors].join(', ')})`);
  check(snapshot.some((r) => r.attempts >= 2) && snapshot.every((r) => Math.abs(delay(r) - 30 * 2 ** (r.attempts - 1)) <= 2), 'backoff is visible: after one failure the next try waits 30 s, after two 60 s');
  // recovery: the faults have expired; run the queue until everything is out
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    await runQueue();
    const rows = await queueRows(tag);
    if (rows.every((r) => r.status === 'sent')) break;
    await sleep(5000);
  }
  console.log(`    all delivered ${Math.round(at() - 60)} s after the provider recovered`);
  const messages = await deliveredOnce(tag, queued);
  // priority: a mail due when another, less urgent one was sent (2 s margin for the send itself) went first
  const rows = await queueRows(tag);
  const arrival = new Map(messages.map((m) => [m.to[0]!, new Date(m.created_at).getTime()]));
  const late = rows.flatMap((a) =>
    rows.filter((b) => a.priority < b.priority && a.next_attempt_at.getTime() <= arrival.get(b.email)! - 2000 && arrival.get(a.email)! > arrival.get(b.email)!).map((b) => `${a.email} after ${b.email}`),
  );
  check(late.length === 0, `mails went out in order of priority (no mail delivered after a less urgent one that was sent when it was due)${late.length ? `: ${late.slice(0, 3).join('; ')}` : ''}`);
  const t = await traffic.stop();
  check(t.failed === 0, `visitor traffic was not affected (${t.ok} requests, ${t.failed} failed)`);
}

// -------------------------------------------------------------------------------------------
// 2. Functions runner killed mid-batch
// -------------------------------------------------------------------------------------------

/** Pids of this stack's Deno functions runner. */
function runnerPids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.some((a) => a.endsWith('functions/runner.ts')) && cmd.includes(String(config.ports.functions))) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

async function runnerKilled(): Promise<void> {
  const tag = `killed-${Date.now().toString(36)}`;
  const traffic = new Traffic();
  await mailFault({ delay_ms: 1500, seconds: 60 });
  await enqueue(tag, 0, 8);
  did('8 mails queued; the provider takes 1.5 s per mail; a queue run starts (one mail at a time)');
  const batch = runQueue().catch(() => undefined);
  // kill in the middle of the batch: once it has claimed the mails and one has reached the
  // provider (a fixed wait cut the batch before its claim on a busy machine)
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000) {
    await sleep(250);
    const rows = await queueRows(tag);
    if (rows.some((r) => r.status === 'processing') && (await mailbox(tag)).length >= 1) break;
  }
  const intoBatch = ((Date.now() - t0) / 1000).toFixed(1);
  const before = runnerPids();
  if (before.length === 0) throw new CheckFailed('the functions runner process was not found');
  for (const pid of before) process.kill(pid, 'SIGKILL');
  did(`killed the functions runner (pid ${before.join(', ')}) ${intoBatch} s into the batch`);
  await batch;
  await mailFault(null);
  const mid = await queueRows(tag);
  const sentBeforeKill = (await mailbox(tag)).length;
  check(mid.some((r) => r.status === 'processing'), `the batch was cut off: ${mid.filter((r) => r.status === 'processing').length} mails still claimed, ${sentBeforeKill} already at the provider`);
  // the runner comes back by itself
  let back = false;
  for (let i = 0; i < 50 && !back; i++) {
    await sleep(200);
    back = runnerPids().some((p) => !before.includes(p));
  }
  check(back, 'the functions runner was restarted by the stack');
  // claims expire after 10 s; then the next runs take the mails again
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    await sleep(3000);
    await runQueue();
    if ((await queueRows(tag)).every((r) => r.status === 'sent')) break;
  }
  await deliveredOnce(tag, 8);
  const retried = (await queueRows(tag)).filter((r) => r.attempts >= 2).length;
  console.log(`    ${retried} mails were claimed twice; the provider saw the same idempotency key for those already sent and kept one copy`);
  const locks = await sql<{ n: number }>(
    `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'email_queue' and l.pid <> pg_backend_pid()`,
  );
  const claimed = await sql<{ n: number }>(`select count(*)::int as n from public.email_queue where status = 'processing' and payload ->> 'fault' = $1`, [tag]);
  check(locks[0]!.n === 0 && claimed[0]!.n === 0, 'no row stays claimed or locked');
  const t = await traffic.stop();
  check(t.failed === 0, `visitor traffic was not affected (${t.ok} requests, ${t.failed} failed)`);
}

// -------------------------------------------------------------------------------------------
// 3. Stripe webhooks failing, duplicated, out of order
// -------------------------------------------------------------------------------------------

async function createUser(name: string): Promise<{ id: string; email: string }> {
  const email = `${name}-${Date.now().toString(36)}@faults.teamwerk.test`;
  const [row] = await sql<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
       created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(),
       '{"provider":"email","providers":["email"]}', '{"firstname":"Fault","lastname":"Tester","preferred_language":"en"}', now(), now(), '', '', '', '')
     returning id`,
    [email],
  );
  return { id: row!.id, email };
}

async function webhookEvent(stripe: Stripe, type: string, subscription: string): Promise<Stripe.Event> {
  for (let i = 0; i < 50; i++) {
    const events = await stripe.events.list({ type, limit: 20 });
    const hit = events.data.find((e) => (e.data.object as { id?: string }).id === subscription);
    if (hit) return hit;
    await sleep(200);
  }
  throw new CheckFailed(`no ${type} event for ${subscription}`);
}

/** Posts `event` to the product's webhook like Stripe does (signed with the endpoint secret). */
async function deliver(event: Stripe.Event): Promise<number> {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: config.stripeWebhookSecret });
  const res = await fetch(`${config.apiUrl}/functions/v1/stripe-webhook`, { method: 'POST', headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' }, body: payload });
  await res.arrayBuffer();
  return res.status;
}

async function webhookOutage(): Promise<void> {
  const traffic = new Traffic();
  const stripe = sandboxStripe(config);
  const user = await createUser('webhook');
  const [price] = await sql<{ stripe_price_id: string }>(`select stripe_price_id from public.prices where plan_id = 'premium' and billing_period = 'monthly' and active`);
  if (!price?.stripe_price_id) throw new CheckFailed('no synced premium price');
  // the outage lasts until the check below ends it (a fixed length ran out on a busy machine
  // before the check); the rule's own expiry is only a safety net
  await gatewayFault({ path: '/functions/v1/stripe-webhook', status: 500, seconds: 300 });
  did('the webhook endpoint answers 500; meanwhile a customer subscribes to Premium (Stripe API)');
  const customer = await stripe.customers.create({ email: user.email, metadata: { userId: user.id }, payment_method: 'pm_card_visa', invoice_settings: { default_payment_method: 'pm_card_visa' } });
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.stripe_price_id }], metadata: { userId: user.id, planType: 'premium' } });
  await sleep(3000);
  const early = await sql(`select 1 from public.subscriptions where stripe_subscription_id = $1`, [sub.id]);
  check(early.length === 0, 'while the endpoint fails, the subscription is not yet known to the product');
  await gatewayFault(null);
  did('the webhook endpoint answers again');
  let row: { status: string }[] = [];
  for (let i = 0; i < 60 && row.length === 0; i++) {
    await sleep(1000);
    row = await sql<{ status: string }>(`select status::text as status from public.subscriptions where stripe_subscription_id = $1`, [sub.id]);
  }
  check(row[0]?.status === 'active', `Stripe's retries delivered it after the outage: the subscription is ${row[0]?.status ?? 'missing'}`);
  const created = await webhookEvent(stripe, 'customer.subscription.created', sub.id);
  check((await deliver(created)) === 200, 'the same event delivered a second time is accepted (200)');
  const ledger = await sql<{ n: number }>(`select count(*)::int as n from public.stripe_events where id = $1`, [created.id]);
  const subs = await sql<{ n: number }>(`select count(*)::int as n from public.subscriptions where stripe_subscription_id = $1`, [sub.id]);
  check(ledger[0]!.n === 1 && subs[0]!.n === 1, 'it is recorded once (one ledger row, one subscription row)');
  await stripe.subscriptions.cancel(sub.id);
  did('the customer cancels (customer.subscription.deleted), then the old "created" event arrives late');
  await webhookEvent(stripe, 'customer.subscription.deleted', sub.id);
  let status = '';
  for (let i = 0; i < 40 && status !== 'canceled'; i++) {
    await sleep(250);
    status = (await sql<{ status: string }>(`select status::text as status from public.subscriptions where stripe_subscription_id = $1`, [sub.id]))[0]?.status ?? '';
  }
  check(status === 'canceled', 'the cancellation arrived: canceled');
  check((await deliver(created)) === 200, 'the late, older event is accepted');
  const final = (await sql<{ status: string }>(`select status::text as status from public.subscriptions where stripe_subscription_id = $1`, [sub.id]))[0]?.status;
  const live = await stripe.subscriptions.retrieve(sub.id);
  check(final === 'canceled' && live.status === 'canceled', `the subscription ends in Stripe's state (${live.status}), not the late event's (active)`);
  const [profile] = await sql<{ user_role: string }>(`select user_role::text from public.profiles where id = $1`, [user.id]);
  check(profile?.user_role !== 'premium', `the account lost Premium with the cancellation (role ${profile?.user_role})`);
  await sql(`delete from auth.users where id = $1`, [user.id]);
  const t = await traffic.stop();
  check(t.failed === 0, `visitor traffic was not affected (${t.ok} requests, ${t.failed} failed)`);
}

// -------------------------------------------------------------------------------------------
// 4. Ticket payments and refunds while the webhook or Stripe fails (issue 16)
// -------------------------------------------------------------------------------------------

/** Calls an Edge Function as a user (JWT signed with the stack's secret). */
async function callFunction(name: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${config.apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    headers: { apikey: config.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function ticketOutage(): Promise<void> {
  const stripe = sandboxStripe(config);
  const organiser = await createUser('organiser');
  const buyer = await createUser('ticket');
  const token = await signJwt({ sub: buyer.id, role: 'authenticated', aud: 'authenticated', email: buyer.email }, config.jwtSecret, 3600);
  const [ev] = await sql<{ id: string }>(
    `insert into public.events (organizer_id, title, status, starts_at, ends_at, city, capacity, is_paid, price_cents)
     values ($1, 'Fault ticket', 'published', now() + interval '10 days', now() + interval '10 days 2 hours', 'Köln', 5, true, 1900) returning id`, [organiser.id]);
  const eventId = Number(ev!.id);
  const ticket = async () => (await sql<{ status: string; payment_intent_id: string | null; checkout_session_id: string | null }>(
    `select status::text, payment_intent_id, checkout_session_id from public.event_tickets where user_id = $1 order by id desc limit 1`, [buyer.id]))[0];

  await gatewayFault({ path: '/functions/v1/stripe-webhook', status: 500, seconds: 300 });
  did('the webhook endpoint answers 500; a buyer pays a ticket and closes the tab before the success page');
  const cs = await callFunction('create-ticket-checkout', token, { eventId, locale: 'en' });
  check(cs.status === 200 && cs.body.status === 'held', `the checkout opens (${cs.status} ${String(cs.body.status)})`);
  const paid = await fetch(`${String(cs.body.url)}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Fault Buyer' }).toString(),
    redirect: 'manual',
  });
  await paid.arrayBuffer();
  check(paid.status === 303, 'the card is charged');
  await sleep(3000);
  check((await ticket())?.status === 'pending', 'while the endpoint fails, the ticket is still pending (the seat stays held)');
  await gatewayFault(null);
  did('the webhook endpoint answers again');
  let status = '';
  for (let i = 0; i < 60 && status !== 'paid'; i++) {
    await sleep(1000);
    status = (await ticket())?.status ?? '';
  }
  check(status === 'paid', `Stripe's retries confirmed the ticket after the outage (${status})`);
  const completed = await webhookEvent(stripe, 'checkout.session.completed', String(cs.body.sessionId));
  check((await deliver(completed)) === 200, 'the same event delivered again is accepted (200)');
  const mails = await sql<{ n: number }>(`select count(*)::int as n from public.email_queue where user_id = $1 and email_type = 'ticket_confirmation'`, [buyer.id]);
  const seats = await sql<{ status: string }>(`select status::text from public.event_attendees where user_id = $1 and event_id = $2`, [buyer.id, eventId]);
  check(mails[0]!.n === 1 && seats[0]?.status === 'going', 'one seat (going) and one ticket mail');

  // Stripe stays down until the refund is seen queued
  await stripeOutage(true);
  did("Stripe's API answers 503; the buyer cancels the ticket meanwhile");
  const cancelled = await callFunction('cancel-ticket', token, { eventId });
  check(cancelled.status === 200 && cancelled.body.refund === 'pending', `the cancellation is accepted, the refund queued (${cancelled.status} ${String(cancelled.body.refund)})`);
  check((await ticket())?.status === 'refund_pending', 'the ticket waits in the refund queue');
  await stripeOutage(false);
  did("Stripe's API answers again");
  await sql(`update public.event_tickets set refund_next_attempt_at = now() where user_id = $1 and status = 'refund_pending'`, [buyer.id]);
  did('after the outage the queue runs (its backoff moved to now; pg_cron runs it every minute)');
  const run = await fetch(`${config.apiUrl}/functions/v1/process-ticket-refunds`, { method: 'POST', headers: { ...service, 'Content-Type': 'application/json' }, body: '{}' });
  await run.arrayBuffer();
  const after = await ticket();
  const refunds = await stripe.refunds.list({ payment_intent: after!.payment_intent_id! });
  check(after?.status === 'refunded' && refunds.data.length === 1 && refunds.data[0]!.amount === 1900, `refunded exactly once in full (${after?.status}, ${refunds.data.length} refund)`);
  await sql(`delete from public.event_tickets where user_id = $1`, [buyer.id]);
  await sql(`delete from public.events where id = $1`, [eventId]);
  await sql(`delete from auth.users where id = any($1::uuid[])`, [[buyer.id, organiser.id]]);
}

// -------------------------------------------------------------------------------------------
// 5. Postgres restart during a chat
// -------------------------------------------------------------------------------------------

async function postgresRestart(): Promise<void> {
  const [a, b] = [await createUser('chat-a'), await createUser('chat-b')];
  for (const u of [a, b]) {
    await sql(
      `insert into public.subscriptions (user_id, plan_id, status, current_period_start, current_period_end, stripe_customer_id, stripe_subscription_id, last_synced_at)
       values ($1::uuid, 'premium', 'active', now() - interval '1 day', now() + interval '29 days', 'cus_fault_' || $1::text, 'sub_fault_' || $1::text, now())`,
      [u.id],
    );
  }
  await sql(`insert into public.contacts (requester_id, addressee_id, status, responded_at) values ($1, $2, 'accepted', now())`, [a.id, b.id]);
  const [conv] = await sql<{ id: string }>(`insert into public.conversations (kind, created_by) values ('direct', $1) returning id`, [a.id]);
  await sql(`insert into public.conversation_members (conversation_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`, [conv!.id, a.id, b.id]);
  const tokenA = await signJwt({ sub: a.id, role: 'authenticated', aud: 'authenticated', email: a.email }, config.jwtSecret, 3600);
  const tokenB = await signJwt({ sub: b.id, role: 'authenticated', aud: 'authenticated', email: b.email }, config.jwtSecret, 3600);

  // B's client does what the chat page does: live Broadcast from Database on the private topic,
  // and on every (re)join fetches what came after the newest message it has (keyset by id)
  const seen: number[] = [];
  const seenSet = new Set<number>();
  let duplicates = 0;
  const take = (id: number) => {
    if (seenSet.has(id)) return void duplicates++;
    seenSet.add(id);
    seen.push(id);
  };
  const catchUp = async () => {
    const after = seen.length ? Math.max(...seen) : 0;
    const res = await fetch(`${config.apiUrl}/rest/v1/messages?select=id&conversation_id=eq.${conv!.id}&id=gt.${after}&order=id.asc`, { headers: { apikey: config.anonKey, Authorization: `Bearer ${tokenB}` } });
    if (res.ok) for (const m of (await res.json()) as { id: number }[]) if (!seenSet.has(m.id)) take(m.id);
  };
  let joins = 0;
  let lastJoinAt = 0;
  const client = new RealtimeClient(`${config.apiUrl.replace(/^http/, 'ws')}/realtime/v1`, { params: { apikey: config.anonKey }, transport: WebSocket as unknown as WebSocketLikeConstructor, heartbeatIntervalMs: 5000 });
  await client.setAuth(tokenB);
  const channel = client.channel(`conversation:${conv!.id}`, { config: { private: true } });
  channel.on('broadcast', { event: 'message_created' }, (msg) => {
    const id = Number((msg.payload as { id?: number } | undefined)?.id);
    if (Number.isFinite(id) && id > 0) take(id);
  });
  await new Promise<void>((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') {
        joins++;
        lastJoinAt = Date.now();
        void catchUp();
        resolve();
      } else if (status === 'CHANNEL_ERROR' && joins === 0) reject(new Error(`join failed: ${err?.message}`));
    });
  });

  // A sends a message about every second throughout; a failed send is retried (the SPA's "retry"),
  // after checking whether it was stored after all
  const sent: string[] = [];
  let failedSends = 0;
  let sending = true;
  const sender = (async () => {
    let n = 0;
    while (sending) {
      const body = `fault-chat ${n++}`;
      for (;;) {
        try {
          const res = await fetch(`${config.apiUrl}/rest/v1/messages`, {
            method: 'POST',
            headers: { apikey: config.anonKey, Authorization: `Bearer ${tokenA}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
            body: JSON.stringify({ conversation_id: conv!.id, sender_id: a.id, body }),
            signal: AbortSignal.timeout(5000),
          });
          await res.arrayBuffer();
          if (res.ok) break;
        } catch {
          // network or timeout: fall through to the retry
        }
        failedSends++;
        await sleep(500);
        const stored = await fetch(`${config.apiUrl}/rest/v1/messages?select=id&conversation_id=eq.${conv!.id}&body=eq.${encodeURIComponent(body)}`, { headers: { apikey: config.anonKey, Authorization: `Bearer ${tokenA}` } }).then((r) => (r.ok ? (r.json() as Promise<unknown[]>) : null)).catch(() => null);
        if (stored && stored.length > 0) break;
      }
      sent.push(body);
      // about a message a second, as a person chats: the per-sender limit (30 a minute,
      // private.limit_message_rate) refuses floods, not this
      await sleep(600);
    }
  })();
  const traffic = new Traffic();
  await sleep(2000);
  const restartAt = Date.now();
  const res = await fetch(`${config.apiUrl}/__faults/postgres?down_ms=3000`, { method: 'POST', headers: { Authorization: `Bearer ${config.serviceRoleKey}` } });
  check(res.status === 202, 'the stack accepted the restart');
  did('Postgres stopped (fast shutdown) while A chats and visitors browse, and started again 3 s later');
  // PostgREST serves again
  await sleep(500);
  let servedAt = 0;
  while (Date.now() - restartAt < 60_000) {
    const r = await fetch(`${config.apiUrl}/rest/v1/cities?select=name&limit=1`, { headers: { apikey: config.anonKey } }).catch(() => null);
    if (r?.ok) {
      servedAt = Date.now();
      break;
    }
    await sleep(100);
  }
  const down = await fetch(`${config.apiUrl}/rest/v1/cities?select=name&limit=1`, { headers: { apikey: config.anonKey } });
  check(servedAt > 0 && down.ok, `PostgREST served again ${((servedAt - restartAt) / 1000).toFixed(1)} s after the restart began (3 s of it the database was down)`);
  check(servedAt - restartAt < 15_000, 'within seconds of the database coming back');
  await sleep(4000);
  sending = false;
  await sender;
  // the stack's own pieces: health (cron, queue, database) and the realtime replication
  let health = 0;
  for (let i = 0; i < 30 && health !== 200; i++) {
    health = (await fetch(`${config.apiUrl}/functions/v1/health`)).status;
    if (health !== 200) await sleep(1000);
  }
  check(health === 200, '/functions/v1/health answers 200 again (database, queue, cron)');
  // let Broadcast deliver the last ones, then count
  const [{ total }] = (await sql<{ total: number }>(`select count(*)::int as total from public.messages where conversation_id = $1`, [conv!.id])) as [{ total: number }];
  for (let i = 0; i < 50 && seen.length < total; i++) await sleep(200);
  const live = seen.length;
  if (seen.length < total) await catchUp();
  console.log(`    B had ${live} of ${total} messages live before fetching the rest`);
  const ordered = [...seen].sort((x, y) => x - y);
  const joined = joins === 1 ? 'stayed joined through the restart' : `joined ${joins} times, the last ${((lastJoinAt - restartAt) / 1000).toFixed(1)} s after the restart began`;
  console.log(`    A sent ${sent.length} messages (${failedSends} sends failed while the database was down and were retried); B's client ${joined}`);
  check(total === sent.length, `every message A sent is stored exactly once (${total} rows for ${sent.length} messages)`);
  check(seen.length === total && duplicates === 0, `B's client has every message exactly once (${seen.length} of ${total}, ${duplicates} duplicates dropped by id)`);
  check(JSON.stringify(ordered) === JSON.stringify((await sql<{ id: number }>(`select id::int as id from public.messages where conversation_id = $1 order by id`, [conv!.id])).map((r) => r.id)), 'in the order of the conversation');
  // a message after the restart arrives live, so replication is back (not only the catch-up)
  const liveBefore = seen.length;
  const r = await fetch(`${config.apiUrl}/rest/v1/messages`, {
    method: 'POST',
    headers: { apikey: config.anonKey, Authorization: `Bearer ${tokenA}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify({ conversation_id: conv!.id, sender_id: a.id, body: 'after the restart' }),
  });
  await r.arrayBuffer();
  const liveAt = Date.now();
  for (let i = 0; i < 150 && seen.length === liveBefore; i++) await sleep(100);
  console.log(`    the message after the restart took ${Date.now() - liveAt} ms`);
  check(seen.length === liveBefore + 1, 'a new message arrives live by Broadcast (Realtime replication reconnected)');
  const t = await traffic.stop();
  console.log(`    visitor traffic: ${t.ok} requests answered, ${t.failed} failed while the database was down`);
  await client.removeAllChannels();
  client.disconnect();
  await sql(`delete from auth.users where id = any($1::uuid[])`, [[a.id, b.id]]);
}

// -------------------------------------------------------------------------------------------

const FAULTS: [string, () => Promise<void>][] = [
  ['mail-outage', mailOutage],
  ['runner-killed', runnerKilled],
  ['webhook-outage', webhookOutage],
  ['ticket-outage', ticketOutage],
  ['postgres-restart', postgresRestart],
];

async function main(): Promise<void> {
  // a stack started without fault injection cannot take part: restart it with it
  if (readState(config)) {
    const probe = await fetch(`${config.apiUrl}/__faults`, { method: 'DELETE', headers: { Authorization: `Bearer ${config.serviceRoleKey}` } }).catch(() => null);
    if (!probe?.ok) await stopStack(config);
  }
  const started = await startStack(config);
  const failures: string[] = [];
  try {
    for (const [name, run] of FAULTS) {
      if (only.length && !only.includes(name)) continue;
      console.log(`\nfault ${name}`);
      const t0 = Date.now();
      try {
        await run();
        console.log(`  passed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message}`);
        console.log(`  FAILED: ${(err as Error).message}`);
        if (!(err instanceof CheckFailed)) console.log((err as Error).stack);
      } finally {
        await mailFault(null).catch(() => undefined);
        await gatewayFault(null).catch(() => undefined);
        await stripeOutage(false).catch(() => undefined);
      }
    }
  } finally {
    await pool.end().catch(() => undefined);
    if (!keep && !started.alreadyRunning) await stopStack(config);
    else if (!keep) await stopStack(config);
  }
  // the failures again at the very end: the test command repeats a failed step's last lines
  console.log(`\nfaults: ${failures.length === 0 ? 'all passed' : `${failures.length} failed`}`);
  for (const f of failures) console.log(`  FAILED ${f}`);
  process.exit(failures.length ? 1 : 0);
}

await main();
