/**
 * Paid tickets end to end against the running local stack and its Stripe sandbox (issue 16):
 * create-ticket-checkout → the hosted page (payment mode) → the sandbox's own webhook deliveries
 * → event_tickets, verify-ticket, the ticket mail with its .ics file; duplicate, replayed and
 * out-of-order webhook events; an expired session releases the seat and the waitlist is
 * offered it; cancel-ticket refunds through the refund API; a payment that completes after the
 * seat was given away is refunded automatically; a cancelled event refunds everyone.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { createConfirmedUser, invoke, mailbox, stack, withDb } from '../_shared/testing.ts';
import { CARDS, eventually, payCheckout, postWebhook, sandboxCall, sandboxStripe, signPayload } from '../_shared/billing-testing.ts';

const stripe = sandboxStripe();
type Buyer = Awaited<ReturnType<typeof createConfirmedUser>>;

async function paidEvent(capacity: number, startsIn = '10 days'): Promise<{ id: number; slug: string }> {
  return await withDb(async (db) => {
    const org = (await db.query(`select id from public.profiles order by created_at limit 1`)).rows[0].id;
    const { rows } = await db.query(
      `insert into public.events (organizer_id, title, status, starts_at, ends_at, city, venue_name, capacity, is_paid, price_cents)
       values ($1, 'Ticket-Test ' || substr(md5(random()::text), 1, 6), 'published', now() + $2::interval,
               now() + $2::interval + interval '2 hours', 'Köln', 'Halle 7', $3, true, 2900) returning id, slug`,
      [org, startsIn, capacity]);
    return { id: Number(rows[0].id), slug: rows[0].slug as string };
  });
}

async function ticketOf(userId: string, eventId: number) {
  return await withDb(async (db) => (await db.query(
    `select t.status::text, t.ticket_number, t.checkout_session_id, t.payment_intent_id, t.refund_id, t.refund_reason, a.status::text as seat
     from public.event_tickets t left join public.event_attendees a on a.event_id = t.event_id and a.user_id = t.user_id
     where t.user_id = $1 and t.event_id = $2 order by t.id desc limit 1`, [userId, eventId])).rows[0] ?? null);
}

async function seatOf(userId: string, eventId: number): Promise<string | null> {
  return await withDb(async (db) => (await db.query(`select status::text from public.event_attendees where user_id = $1 and event_id = $2`, [userId, eventId])).rows[0]?.status ?? null);
}

async function checkout(buyer: Buyer, eventId: number, locale = 'en') {
  const res = await invoke('create-ticket-checkout', { eventId, locale }, { token: buyer.accessToken });
  assertEquals(res.status, 200, JSON.stringify(res.body));
  return res.body as { status: string; url?: string; sessionId?: string };
}

async function buy(buyer: Buyer, eventId: number) {
  const cs = await checkout(buyer, eventId);
  assertEquals(cs.status, 'held');
  const paid = await payCheckout(cs.url!, CARDS.ok);
  assertEquals(paid.status, 303, paid.text.slice(0, 300));
  assert(paid.location?.includes(`/events/ticket/success?session_id=${cs.sessionId}`), String(paid.location));
  const t = await eventually(async () => ((await ticketOf(buyer.id, eventId))?.status === 'paid' ? await ticketOf(buyer.id, eventId) : null));
  assertEquals(t?.seat, 'going');
  return { sessionId: cs.sessionId!, ticket: t! };
}

function fakeEvent(type: string, object: Record<string, unknown>) {
  return { id: `evt_test_${crypto.randomUUID().replaceAll('-', '')}`, object: 'event', api_version: '2023-10-16', created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object }, pending_webhooks: 1, request: { id: null, idempotency_key: null } };
}

Deno.test({
  name: 'paid tickets',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await t.step('buy: payment-mode checkout in the buyer language, webhook confirms, verify-ticket agrees, ticket mail with event.ics', async () => {
      const ev = await paidEvent(5);
      const buyer = await createConfirmedUser('ticket-buyer', { preferred_language: 'de' });
      const cs = await checkout(buyer, ev.id, 'de');
      const session = await stripe.checkout.sessions.retrieve(cs.sessionId!, { expand: ['line_items'] });
      assertEquals([session.mode, session.locale, session.amount_total, session.currency], ['payment', 'de', 2900, 'eur']);
      assertEquals(session.metadata?.kind, 'event_ticket');
      assertEquals(session.customer_email, buyer.email);
      const page = await (await fetch(cs.url!)).text();
      assert(page.includes('Zahlungspflichtig bestellen'), 'German order button');
      // reopening while the checkout is open returns the same session
      assertEquals((await checkout(buyer, ev.id, 'de')).sessionId, cs.sessionId);
      assertEquals((await payCheckout(cs.url!, CARDS.ok)).status, 303);
      const ticket = await eventually(async () => ((await ticketOf(buyer.id, ev.id))?.status === 'paid' ? await ticketOf(buyer.id, ev.id) : null));
      assertEquals(ticket?.seat, 'going');
      assert(ticket?.payment_intent_id?.startsWith('pi_'));
      const verified = await invoke('verify-ticket', { sessionId: cs.sessionId }, { token: buyer.accessToken });
      assertEquals([verified.status, verified.body.status, verified.body.ticketNumber, verified.body.eventSlug], [200, 'paid', ticket!.ticket_number, ev.slug]);
      const stranger = await createConfirmedUser('ticket-stranger');
      assertEquals((await invoke('verify-ticket', { sessionId: cs.sessionId }, { token: stranger.accessToken })).status, 404);
      // the queue runs every minute; run it now (the welcome mail comes too; the ticket mail has the ticket subject)
      await invoke('process-email-queue', {}, { token: stack.serviceRoleKey });
      const mail = await eventually(async () => (await mailbox(buyer.email)).find((m) => m.subject.startsWith('Ihr Ticket für')) ?? null, 90_000, 500);
      assert(mail, 'ticket mail');
      assert(mail!.text?.includes(ticket!.ticket_number), 'ticket number in the mail');
      assert(mail!.text?.includes('29,00 €'), 'receipt amount');
      const attachments = (mail as unknown as { attachments: { filename: string; content_type: string; size: number }[] }).attachments;
      assertEquals(attachments?.map((a) => [a.filename, a.content_type]), [['event.ics', 'text/calendar; charset=utf-8']]);
      assert(attachments![0]!.size > 200);
    });

    await t.step('duplicate, replayed and out-of-order webhook events leave the paid ticket as it is', async () => {
      const ev = await paidEvent(5);
      const buyer = await createConfirmedUser('ticket-dup');
      const { sessionId, ticket } = await buy(buyer, ev.id);
      const completed = (await stripe.events.list({ type: 'checkout.session.completed', limit: 50 })).data.find((e) => (e.data.object as { id: string }).id === sessionId)!;
      const resent = await sandboxCall('POST', `/v1/events/${completed.id}/resend`);
      assertEquals(resent.status, 200);
      // the same event id again is a duplicate in the ledger
      const payload = JSON.stringify(completed);
      const again = await postWebhook(payload, await signPayload(payload));
      assertEquals([again.status, again.body.duplicate], [200, true]);
      // a stale "expired" snapshot of the same session (new event id, out of order): the session is re-read, still complete
      const expiredPayload = JSON.stringify(fakeEvent('checkout.session.expired', { ...(completed.data.object as unknown as Record<string, unknown>), status: 'expired', payment_status: 'unpaid' }));
      const late = await postWebhook(expiredPayload, await signPayload(expiredPayload));
      assertEquals([late.status, late.body.ticket], [200, 'paid'], JSON.stringify(late.body));
      const after = await ticketOf(buyer.id, ev.id);
      assertEquals([after?.status, after?.seat, after?.ticket_number], ['paid', 'going', ticket.ticket_number]);
      const mails = await withDb(async (db) => (await db.query(`select count(*)::int as n from public.email_queue q join public.profiles p on p.id = q.user_id where p.id = $1 and q.email_type = 'ticket_confirmation'`, [buyer.id])).rows[0].n);
      assertEquals(mails, 1);
    });

    await t.step('a declined card keeps no seat; the expired session releases the hold and offers it to the waitlist', async () => {
      const ev = await paidEvent(1);
      const a = await createConfirmedUser('ticket-declined');
      const w = await createConfirmedUser('ticket-waiting');
      const cs = await checkout(a, ev.id);
      const declined = await payCheckout(cs.url!, CARDS.declined);
      assertEquals(declined.status, 402);
      assertEquals((await ticketOf(a.id, ev.id))?.status, 'pending');
      assertEquals(await seatOf(a.id, ev.id), 'held');
      assertEquals((await checkout(w, ev.id)).status, 'waitlisted');
      await stripe.checkout.sessions.expire(cs.sessionId!);
      const released = await eventually(async () => ((await ticketOf(a.id, ev.id))?.status === 'expired' ? true : null));
      assert(released, 'ticket expired by checkout.session.expired');
      assertEquals(await seatOf(a.id, ev.id), 'cancelled');
      assertEquals(await seatOf(w.id, ev.id), 'held');
      const offers = await withDb(async (db) => (await db.query(`select count(*)::int as n from public.email_queue where user_id = $1 and email_type = 'event_seat_offer'`, [w.id])).rows[0].n);
      assertEquals(offers, 1);
    });

    await t.step('cancel-ticket refunds in full through Stripe; charge.refunded agrees; a refund mail goes out', async () => {
      const ev = await paidEvent(5);
      const buyer = await createConfirmedUser('ticket-cancel');
      const { ticket } = await buy(buyer, ev.id);
      const res = await invoke('cancel-ticket', { eventId: ev.id }, { token: buyer.accessToken });
      assertEquals([res.status, res.body.refund], [200, 'refunded'], JSON.stringify(res.body));
      const refunds = await stripe.refunds.list({ payment_intent: ticket.payment_intent_id });
      assertEquals(refunds.data.map((r) => r.amount), [2900]);
      const after = await eventually(async () => ((await ticketOf(buyer.id, ev.id))?.refund_id ? await ticketOf(buyer.id, ev.id) : null));
      assertEquals([after?.status, after?.seat, after?.refund_reason, after?.refund_id], ['refunded', 'cancelled', 'attendee_cancelled', refunds.data[0]!.id]);
      // a second cancellation is harmless and refunds nothing more
      assertEquals((await invoke('cancel-ticket', { eventId: ev.id }, { token: buyer.accessToken })).body.refund, 'none');
      assertEquals((await stripe.refunds.list({ payment_intent: ticket.payment_intent_id })).data.length, 1);
      const soon = await paidEvent(5, '30 hours');
      const late = await createConfirmedUser('ticket-late');
      await buy(late, soon.id);
      const refused = await invoke('cancel-ticket', { eventId: soon.id }, { token: late.accessToken });
      assertEquals([refused.status, refused.body.error?.code], [400, 'refund_window_closed']);
    });

    await t.step('a payment that completes after the seat was given back is refunded automatically', async () => {
      const ev = await paidEvent(1);
      const a = await createConfirmedUser('ticket-slow');
      const b = await createConfirmedUser('ticket-fast');
      const cs = await checkout(a, ev.id);
      // a gives the seat back (cancel while the checkout page is still open elsewhere)…
      await withDb((db) => db.query(`update public.event_attendees set hold_expires_at = now() - interval '1 hour' where user_id = $1 and event_id = $2`, [a.id, ev.id]));
      await withDb((db) => db.query(`select private.release_expired_holds()`));
      // issue 31 §3: no new hold right after an unpaid one ended
      const again = await invoke('create-ticket-checkout', { eventId: ev.id, locale: 'en' }, { token: a.accessToken });
      assertEquals([again.status, again.body.error?.code], [429, 'hold_cooldown']);
      await buy(b, ev.id);
      // …and then pays in the old tab
      assertEquals((await payCheckout(cs.url!, CARDS.ok)).status, 303);
      const refunded = await eventually(async () => ((await ticketOf(a.id, ev.id))?.status === 'refunded' ? await ticketOf(a.id, ev.id) : null), 20_000);
      assertEquals([refunded?.refund_reason, refunded?.seat], ['no_seat', 'cancelled']);
      assertEquals(await seatOf(b.id, ev.id), 'going');
    });

    await t.step('the organiser cancels: every ticket is refunded by the queue', async () => {
      const ev = await paidEvent(5);
      const buyers = [await createConfirmedUser('ticket-crowd1'), await createConfirmedUser('ticket-crowd2')];
      const bought = [];
      for (const b of buyers) bought.push(await buy(b, ev.id));
      await withDb((db) => db.query(`update public.events set status = 'cancelled' where id = $1`, [ev.id]));
      const run = await invoke('process-ticket-refunds', {}, { token: buyers[0]!.accessToken });
      assertEquals(run.status, 200);
      for (const [i, b] of buyers.entries()) {
        const tk = await eventually(async () => ((await ticketOf(b.id, ev.id))?.status === 'refunded' ? await ticketOf(b.id, ev.id) : null));
        assertEquals(tk?.refund_reason, 'event_cancelled');
        assertEquals((await stripe.refunds.list({ payment_intent: bought[i]!.ticket.payment_intent_id })).data.length, 1);
      }
    });
  },
});
