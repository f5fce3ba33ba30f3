/**
 * Issue 33 §1: no link of a mail the database queues falls back to the home page.
 *
 * The newsletter mails were queued with only `{token}`, so process-email-queue filled `{{link}}`
 * with the home page: nobody could confirm, nobody could unsubscribe, and the settings link of
 * the subscription mails went home too. Here every mail kind the database queues is produced the
 * way the product produces it (its RPCs, triggers and cron functions on committed rows), sent
 * by the real process-email-queue into the stack's mailbox, and read from there: every link to
 * the site must be in the mail's language (`/de/…` for German) and none may be the bare home
 * page; each mail must carry the links its template promises (the confirm link, the unsubscribe
 * link, the settings page, …).
 *
 * Every key of `email_types` is either produced here or named in COVERED_ELSEWHERE with the test
 * that follows its link from the mailbox; a new mail kind fails this test until it is one of them.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { clientWithToken, config, serviceClient, superuserDb } from '../../scripts/test-support/clients.ts';
import { mintToken } from './exposure-support.ts';

type Lang = 'de' | 'en';

/** A mail as the mailbox's JSON API returns it. */
interface Mail {
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  tags: { name: string; value: string }[] | null;
}

/** One produced mail: recipient, kind, language and the site paths (without `/de`) its links must include. */
interface Expected {
  email: string;
  type: string;
  lang: Lang;
  paths: RegExp[];
}

/**
 * Mail kinds not produced here, with where their link is checked: the ones whose link an Edge
 * Function builds (the database only stores it), and the ones whose producer is a whole journey
 * (events, tickets, chat, matching, organisations), whose tests check the queued `path` or follow
 * the link from the mailbox.
 */
const COVERED_ELSEWHERE: Record<string, string> = {
  confirm_email: 'link built by register/resend-confirmation; frontend/e2e/accounts-auth.spec.ts follows it from the mailbox',
  password_reset: 'link built by request-password-reset; frontend/e2e/accounts-auth.spec.ts follows it from the mailbox',
  account_exists_notice: 'link (/login) built by register; supabase/functions/register/handler_test.ts checks the queued row',
  cancellation_confirm_link: 'link built and signed by cancel-contract; frontend/e2e/billing-cancel-confirm.spec.ts follows it from the mailbox',
  chat_unread: 'payload path /user/chat/<id>: supabase/tests/contacts-chat.test.ts; frontend/e2e/contacts-chat.spec.ts follows its unsubscribe link',
  ticket_confirmation: 'payload path /events/<slug> (private.event_mail_payload): supabase/tests/event-tickets.test.ts',
  ticket_refunded: 'payload path /user/events: supabase/tests/event-tickets.test.ts, mail read in frontend/e2e/events-tickets.spec.ts',
  event_seat_offer: 'payload path /events/<slug>: supabase/tests/event-tickets.test.ts',
  event_changed: 'payload path /events/<slug> (private.event_mail_payload): supabase/tests/event-tickets.test.ts',
  event_cancelled: 'payload path /events/<slug> (private.event_mail_payload): supabase/tests/event-tickets.test.ts',
  event_reminder: 'payload path /events/<slug>: supabase/tests/event-tickets.test.ts',
  match_digest: 'payload path /matches: supabase/tests/match-digest.test.ts',
  auth_confirm_signup: 'link to Auth /verify built by public.send_email_hook: scripts/local-stack/tests/auth.test.ts (OAuth, unverified address) follows the queued link',
  email_change_new: 'link to Auth /verify built by public.send_email_hook: supabase/tests/auth-mail-paths.test.ts follows it from the mailbox',
  email_change_current: 'link to Auth /verify built by public.send_email_hook: supabase/tests/auth-mail-paths.test.ts follows it from the mailbox',
  organization_invitation: 'payload path /invitations/<token>: frontend/e2e/organizations.spec.ts follows it from the mailbox',
  account_deleted: 'no link (the account is gone; reply to the mail): supabase/functions/delete-account/handler_test.ts reads it from the mailbox',
  account_deleted_subscription_cancelled: 'no link (the account is gone; reply to the mail): supabase/functions/delete-account/handler_test.ts reads it from the mailbox',
};

const tag = randomUUID().slice(0, 8);
const site = new URL(config.siteUrl);
let db: pg.Client;
let seq = 0;
const createdUsers: string[] = [];
const addresses: string[] = [];
const expected: Expected[] = [];

const address = (kind: string) => {
  const email = `links-${tag}-${++seq}-${kind.replace(/_/g, '-')}@tests.teamwerk.test`;
  addresses.push(email);
  return email;
};

/** A user through auth.users (the profile comes from the Auth trigger); unconfirmed on request. */
async function user(lang: Lang, kind: string, confirmed = true): Promise<{ id: string; email: string }> {
  const email = address(kind);
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
       raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '',
       case when $2 then now() end, '{"provider":"email","providers":["email"]}', $3, now(), now(), '', '', '', '')
     returning id`,
    [email, confirmed, JSON.stringify({ firstname: `Link${seq}`, lastname: tag, preferred_language: lang })],
  );
  const id = rows[0]!.id;
  createdUsers.push(id);
  await db.query(`update public.profiles set preferred_language = $2, profile_visibility = 1 where id = $1`, [id, lang]);
  return { id, email };
}

/** Sets the subscription of `userId` through sync_subscription, as verify-payment and the webhook do. */
async function syncSubscription(userId: string, status: 'active' | 'past_due'): Promise<void> {
  await db.query(
    `select public.sync_subscription($1, $2, $3, $4::public.subscription_status, null, 'basic', now() - interval '1 day',
       now() + interval '29 days', false, null, null, null, now())`,
    [userId, `cus_links_${tag}_${userId.slice(0, 8)}`, `sub_links_${tag}_${userId.slice(0, 8)}`, status],
  );
}

/** Every mail kind the database queues, produced through the product's own SQL (committed). */
async function produceAll(): Promise<void> {
  for (const lang of ['en', 'de'] as const) {
    // newsletter double opt-in: sign-up → newsletter_confirm; confirm → newsletter_welcome
    const pending = address('newsletter-confirm');
    await db.query(`select public.newsletter_subscribe($1, $2, 'mail-links-test')`, [pending, lang]);
    expected.push({ email: pending, type: 'newsletter_confirm', lang, paths: [/^\/newsletter-thankyou\?token=[0-9a-f-]{36}$/] });
    const welcome = address('newsletter-welcome');
    await db.query(`select public.newsletter_subscribe($1, $2, 'mail-links-test')`, [welcome, lang]);
    const confirmed = await db.query(
      `select public.newsletter_confirm(token) as ok from public.newsletter_subscribers where email = $1`, [welcome]);
    expect(confirmed.rows[0]?.ok).toBe(true);
    expected.push({ email: welcome, type: 'newsletter_confirm', lang, paths: [/^\/newsletter-thankyou\?token=[0-9a-f-]{36}$/] });
    expected.push({ email: welcome, type: 'newsletter_welcome', lang, paths: [/^\/newsletter-unsubscribe\?token=[0-9a-f-]{36}$/] });

    // welcome_email: the address gets confirmed (Auth sets email_confirmed_at)
    const fresh = await user(lang, 'welcome', false);
    await db.query(`update auth.users set email_confirmed_at = now() where id = $1`, [fresh.id]);
    expected.push({ email: fresh.email, type: 'welcome_email', lang, paths: [/^\/user$/] });

    // contact form receipt (no link in its template)
    const sender = address('contact');
    await db.query(
      `insert into public.contact_messages (name, email, subject, message, lang) values ('Link Test', $1, 'Links', 'Do the links work?', $2)`,
      [sender, lang]);
    expected.push({ email: sender, type: 'contact_confirmation', lang, paths: [] });

    // contact form copy (issue 33 §9): a signed-in member writing from the own address (no link)
    const member = await user(lang, 'contact-copy');
    await db.query(
      `insert into public.contact_messages (user_id, name, email, subject, message, lang) values ($1, 'Link Test', $2, 'Links', 'Do the links work?', $3)`,
      [member.id, member.email, lang]);
    expected.push({ email: member.email, type: 'contact_copy', lang, paths: [] });

    // subscription_activated, then payment_failed: both lead to the settings (subscription panel)
    const payer = await user(lang, 'subscription');
    await syncSubscription(payer.id, 'active');
    await syncSubscription(payer.id, 'past_due');
    expected.push({ email: payer.email, type: 'subscription_activated', lang, paths: [/^\/user\/settings$/] });
    expected.push({ email: payer.email, type: 'payment_failed', lang, paths: [/^\/user\/settings$/] });

    // a refunded duplicate subscription
    const dup = await user(lang, 'duplicate');
    await db.query(`select public.record_duplicate_subscription($1, $2, 'sub_kept', 're_dup', 1900, 'eur')`, [`sub_dup_${tag}_${lang}`, dup.id]);
    expected.push({ email: dup.email, type: 'subscription_duplicate_refunded', lang, paths: [/^\/user\/settings$/] });

    // cancellation receipt (§312k; no link in its template)
    const canceller = await user(lang, 'cancellation');
    const request = await db.query<{ id: string }>(
      `insert into public.cancellation_requests (name, email, lang, user_id) values ('Link Test', $1, $2, $3) returning id`,
      [canceller.email, lang, canceller.id]);
    await db.query(`select private.queue_cancellation_receipt($1)`, [request.rows[0]!.id]);
    expected.push({ email: canceller.email, type: 'cancellation_confirmation', lang, paths: [] });

    // contact request from a paying member, then its reminder a week later
    const requester = await user(lang, 'requester');
    await syncSubscription(requester.id, 'active');
    const addressee = await user(lang, 'addressee');
    const client = clientWithToken(await mintToken(requester.id, requester.email));
    const sent = await client.rpc('send_contact_request', { p_addressee_id: addressee.id, p_message: 'Links?' });
    expect(sent.error).toBeNull();
    await db.query(`update public.contacts set created_at = now() - interval '8 days' where requester_id = $1`, [requester.id]);
    await db.query(`update private.contact_request_log set sent_at = now() - interval '8 days' where requester_id = $1`, [requester.id]);
    await db.query(`select private.send_contact_request_reminders()`);
    for (const type of ['contact_request', 'contact_request_reminder']) {
      expected.push({ email: addressee.email, type, lang, paths: [/^\/user\/contacts\?tab=received$/, /^\/unsubscribe\?token=/] });
    }
  }
}

/** The mails to `email`, waiting until `count` arrived (process-email-queue is kicked between polls). */
async function mailsTo(email: string, count: number): Promise<Mail[]> {
  for (let i = 0; i < 80; i++) {
    const mails = (await (await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)).json()) as Mail[];
    if (mails.length >= count) return mails;
    if (i % 10 === 0) expect((await serviceClient().functions.invoke('process-email-queue', { body: {} })).error).toBeNull();
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`fewer than ${count} mails to ${email}`);
}

/** Every http(s) link of a mail: the plain-text part and the HTML hrefs. */
function linksOf(mail: Mail): URL[] {
  const found = new Set<string>();
  for (const m of (mail.text ?? '').matchAll(/https?:\/\/[^\s"'<>]+/g)) found.add(m[0]);
  for (const m of (mail.html ?? '').matchAll(/href="([^"]+)"/g)) found.add(m[1]!.replace(/&amp;/g, '&'));
  return [...found].map((u) => new URL(u));
}

beforeAll(async () => {
  db = await superuserDb();
  await produceAll();
  expect((await serviceClient().functions.invoke('process-email-queue', { body: {} })).error).toBeNull();
}, 120_000);

afterAll(async () => {
  if (!db) return;
  await db.query(`delete from public.newsletter_subscribers where email = any($1)`, [addresses]);
  await db.query(`delete from public.contact_messages where email = any($1)`, [addresses]);
  await db.query(`delete from public.email_queue where email = any($1)`, [addresses]);
  await db.query(`delete from auth.users where id = any($1::uuid[])`, [createdUsers]);
  await db.end();
  for (const email of addresses) {
    await fetch(`${config.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`, { method: 'DELETE' }).catch(() => undefined);
  }
});

test('every mail kind of email_types is produced here or followed from the mailbox by a named test', async () => {
  const { rows } = await db.query<{ key: string }>(`select key from public.email_types order by key`);
  const produced = new Set(expected.map((e) => e.type));
  const unaccounted = rows.map((r) => r.key).filter((k) => !produced.has(k) && !COVERED_ELSEWHERE[k]);
  expect(unaccounted).toEqual([]);
  expect(Object.keys(COVERED_ELSEWHERE).filter((k) => !rows.some((r) => r.key === k))).toEqual([]);
});

test('no link of a database-queued mail is the bare home page; each carries its own links in its language', async () => {
  const byAddress = new Map<string, Expected[]>();
  for (const e of expected) byAddress.set(e.email, [...(byAddress.get(e.email) ?? []), e]);
  const checked: string[] = [];
  for (const [email, wants] of byAddress) {
    const mails = await mailsTo(email, wants.length);
    for (const want of wants) {
      const label = `${want.type} (${want.lang}) to ${email}`;
      const mail = mails.find((m) => m.tags?.some((t) => t.name === 'email_type' && t.value === want.type));
      expect(mail, label).toBeDefined();
      const prefix = want.lang === 'de' ? '/de' : '';
      const sitePaths = linksOf(mail!)
        .filter((u) => u.origin === site.origin)
        .map((u) => `${u.pathname}${u.search}`);
      expect(sitePaths.length, `${label}: footer links at least`).toBeGreaterThan(0);
      for (const path of sitePaths) {
        expect(/^\/(de\/?)?(\?|#|$)/.test(path), `${label}: ${path} is the home page`).toBe(false);
        if (prefix) expect(path.startsWith('/de/'), `${label}: ${path} not German`).toBe(true);
        else expect(path.startsWith('/de/'), `${label}: ${path} is German`).toBe(false);
      }
      const unprefixed = sitePaths.map((p) => (prefix ? p.slice(prefix.length) : p));
      for (const wanted of want.paths) expect(unprefixed.some((p) => wanted.test(p)), `${label}: no link ${wanted} in ${unprefixed.join(' ')}`).toBe(true);
      checked.push(`${want.type}:${want.lang}`);
    }
  }
  expect(checked).toHaveLength(expected.length);
}, 120_000);
