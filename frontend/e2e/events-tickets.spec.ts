import { expect, type Page, test } from '@playwright/test';
import { admin, createUser, insertEvent, token, type TestUser, useSession as putSession } from './content-events-support';
import { dismissCookies, payOnCheckoutPage, stripeUrl } from './billing-support';
import { mailboxUrl } from './accounts-support';
import { expectStackUp, SERVICE_ROLE_KEY, stack } from './support';

/**
 * Paid tickets in the browser (issue 16), in English and German: buying with 4242 4242 4242 4242
 * and seeing the ticket, a declined card keeping no seat, cancelling with a refund, the
 * organiser cancelling (everyone refunded and e-mailed), and the waitlist offer by e-mail.
 */
test.describe.configure({ mode: 'serial' });

const CHECKOUT = /127\.0\.0\.1:\d+\/checkout\/cs_/;

let organiser: TestUser;
test.beforeAll(async () => {
  await expectStackUp();
  organiser = await createUser('premium', 'Olga');
});

async function paidEvent(capacity: number, title = `Workshop ${token()}`) {
  return insertEvent(organiser.id, { title, capacity, is_paid: true, price_cents: 2900, city: 'Köln', venue_name: 'Halle 7' });
}

const ticketOf = async (userId: string, eventId: number) =>
  (await admin().from('event_tickets').select('status, ticket_number, refund_reason').eq('user_id', userId).eq('event_id', eventId).order('id', { ascending: false }).limit(1)).data?.[0] ?? null;

/** Runs the e-mail queue now (pg_cron would within a minute). */
async function drainMail() {
  await fetch(`${stack.apiUrl}/functions/v1/process-email-queue`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}`, apikey: SERVICE_ROLE_KEY, 'Content-Type': 'application/json' },
    body: '{}',
  });
}

async function mailTo(email: string, subject: RegExp, timeoutMs = 20_000): Promise<{ subject: string; text: string | null }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await drainMail();
    const mails = (await (await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string | null }[];
    const found = mails.find((m) => subject.test(m.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no mail ${subject} to ${email}`);
}

/** Buys a ticket through the function and the hosted form (no browser), as another attendee. */
async function buyViaApi(user: TestUser, eventId: number) {
  const created = await user.client.functions.invoke('create-ticket-checkout', { body: { eventId, locale: 'en' } });
  expect(created.error).toBeNull();
  const { url } = created.data as { url: string };
  const paid = await fetch(`${url}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Api Käufer' }).toString(),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  await expect.poll(async () => (await ticketOf(user.id, eventId))?.status, { timeout: 15_000 }).toBe('paid');
}

async function openEvent(page: Page, user: TestUser, slug: string, locale: 'en' | 'de') {
  await putSession(page, user);
  await page.goto(`${locale === 'de' ? '/de' : ''}/events/${slug}`);
  await dismissCookies(page).catch(() => undefined);
}

test('buy a ticket with 4242 4242 4242 4242, see it, cancel it and see the refund (en)', async ({ page }) => {
  // errors of our pages (the sandbox's hosted checkout page has no favicon: not ours)
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.startsWith(stripeUrl)) errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const ev = await paidEvent(10);
  const buyer = await createUser('basic', 'Bianca');
  await openEvent(page, buyer, ev.slug, 'en');
  await expect(page.getByTestId('event-price')).toContainText('€29 incl. VAT');
  await page.getByTestId('ticket-buy').click();
  await expect(page).toHaveURL(CHECKOUT);
  await expect(page.getByText('€29.00').first()).toBeVisible();
  await payOnCheckoutPage(page, '4242 4242 4242 4242', 'en', 'payment');
  await expect(page).toHaveURL(/\/events\/ticket\/success\?session_id=cs_/);
  await expect(page.getByTestId('ticket-confirmed')).toContainText('Payment received. Your ticket number is TW-');
  const ticket = await ticketOf(buyer.id, ev.id);
  expect(ticket).toMatchObject({ status: 'paid' });
  await page.getByTestId('ticket-to-event').click();
  await expect(page.getByTestId('ticket-status')).toContainText(`You have a ticket: ${ticket!.ticket_number} (€29).`);
  await page.goto('/user/events');
  await expect(page.getByTestId(`my-ticket-${ticket!.ticket_number}`).getByTestId('my-ticket-status')).toHaveText('Paid');
  // cancel (more than 48 hours ahead): full refund through Stripe
  await page.goto(`/events/${ev.slug}`);
  await page.getByTestId('ticket-cancel').click();
  await expect(page.getByRole('dialog')).toContainText('You get the full amount of €29 back to your card.');
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('ticket-refund')).toContainText(`Ticket ${ticket!.ticket_number} was refunded (€29).`);
  await expect(page.getByTestId('ticket-buy')).toBeVisible();
  // mails follow the profile's language (German by default)
  const mail = await mailTo(buyer.email, /^Erstattung für /);
  expect(mail.text).toContain('29,00 €');
  await page.goto('/user/events');
  await expect(page.getByTestId(`my-ticket-${ticket!.ticket_number}`).getByTestId('my-ticket-status')).toHaveText('Refunded');
  expect(errors).toEqual([]);
});

test('a declined card keeps no seat (de)', async ({ page }) => {
  const ev = await paidEvent(1);
  const buyer = await createUser('basic', 'Dieter');
  await openEvent(page, buyer, ev.slug, 'de');
  await expect(page.getByTestId('event-price')).toContainText('29 € inkl. MwSt.');
  await expect(page.getByTestId('ticket-buy')).toHaveText('Zahlungspflichtig bestellen (29 €)');
  await page.getByTestId('ticket-buy').click();
  await expect(page).toHaveURL(CHECKOUT);
  await payOnCheckoutPage(page, '4000 0000 0000 0002', 'de', 'payment');
  await expect(page.getByRole('alert')).toContainText('Ihre Karte wurde abgelehnt.');
  expect(await ticketOf(buyer.id, ev.id)).toMatchObject({ status: 'pending' });
  // back on the event page: the seat is only held (no ticket), and giving up releases it
  await page.goto(`/de/events/${ev.slug}`);
  await expect(page.getByTestId('ticket-held')).toContainText('Ein Platz ist bis');
  await expect(page.getByTestId('ticket-status')).toHaveCount(0);
  await page.getByTestId('event-cancel-rsvp').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('ticket-buy')).toHaveText('Zahlungspflichtig bestellen (29 €)');
  await expect.poll(async () => (await ticketOf(buyer.id, ev.id))?.status).toBe('expired');
  const seat = await admin().from('event_attendees').select('status').eq('user_id', buyer.id).eq('event_id', ev.id).single();
  expect(seat.data?.status).toBe('cancelled');
});

test('the organiser cancels a paid event: everyone is refunded and e-mailed (de)', async ({ page }) => {
  const ev = await paidEvent(10, `Absage-Test ${token()}`);
  const buyers = [await createUser('basic', 'Erika'), await createUser('basic', 'Fritz')];
  for (const b of buyers) await buyViaApi(b, ev.id);
  await openEvent(page, organiser, ev.slug, 'de');
  await page.getByTestId('event-status-actions').getByRole('button', { name: 'Veranstaltung absagen' }).click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('event-status')).toHaveText('Abgesagt');
  for (const b of buyers) {
    await expect.poll(async () => (await ticketOf(b.id, ev.id))?.status, { timeout: 20_000 }).toBe('refunded');
    expect((await ticketOf(b.id, ev.id))?.refund_reason).toBe('event_cancelled');
    await mailTo(b.email, /^Abgesagt: Absage-Test/);
    await mailTo(b.email, /^Erstattung für Absage-Test/);
  }
  // the buyer sees it in their area
  await putSession(page, buyers[0]!);
  await page.goto('/de/user/events');
  await expect(page.getByTestId('my-tickets').getByTestId('my-ticket-status').first()).toHaveText('Erstattet');
});

test('the waitlist offer: a freed seat is offered by e-mail and paid within 24 hours (en)', async ({ page }) => {
  const ev = await paidEvent(1, `Warteliste ${token()}`);
  const first = await createUser('basic', 'Greta');
  const waiting = await createUser('basic', 'Hannes');
  expect((await admin().from('profiles').update({ preferred_language: 'en' }).eq('id', waiting.id)).error).toBeNull();
  await buyViaApi(first, ev.id);
  await openEvent(page, waiting, ev.slug, 'en');
  await expect(page.getByTestId('ticket-buy')).toHaveText('Join the waitlist');
  await page.getByTestId('ticket-buy').click();
  await expect(page.getByTestId('event-my-status')).toContainText('You are on the waitlist, position 1.');
  // the first attendee cancels: the seat is offered to the waiting person
  const cancelled = await first.client.functions.invoke('cancel-ticket', { body: { eventId: ev.id } });
  expect(cancelled.error).toBeNull();
  const offer = await mailTo(waiting.email, /^A seat for Warteliste/);
  expect(offer.text).toContain('We keep the seat for you until');
  const link = /https?:\/\/[^\s]+\/events\/[a-z0-9-]+/.exec(offer.text ?? '')![0];
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId('ticket-held')).toContainText('A seat is held for you until');
  await page.getByTestId('ticket-buy').click();
  await expect(page).toHaveURL(CHECKOUT);
  await payOnCheckoutPage(page, '4242 4242 4242 4242', 'en', 'payment');
  await expect(page.getByTestId('ticket-confirmed')).toBeVisible();
  expect(await ticketOf(waiting.id, ev.id)).toMatchObject({ status: 'paid' });
});
