import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { admin, createUser, field, insertEvent, token, type TestUser, useSession } from './content-events-support';
import { collectErrors, expectStackUp } from './support';

test.describe.configure({ mode: 'serial' });

let organiser: TestUser;
let a: TestUser;
let b: TestUser;
let c: TestUser;
let slug = '';
let eventId = 0;

test.beforeAll(async () => {
  await expectStackUp();
  [organiser, a, b, c] = await Promise.all([createUser('premium', 'Olga'), createUser('basic', 'Anton'), createUser('basic', 'Berta'), createUser('basic', 'Carl')]);
});

test('an organiser creates an event as draft and publishes it (en)', async ({ page }) => {
  const errors = collectErrors(page);
  await useSession(page, organiser);
  await page.goto('/user/events/create-event');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create an event');
  const title = `Gründer-Abend ${token()}`;
  // validation mirrors the table: end before start is refused in the form
  await field(page, 'Title').fill(title);
  await field(page, 'Start').fill('2031-03-10T18:00');
  await field(page, 'End').fill('2031-03-10T17:00');
  await field(page, 'City').fill('Leipzig');
  await field(page, 'Capacity').fill('2');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByText('The end must be after the start.')).toBeVisible();
  await field(page, 'End').fill('2031-03-10T20:30');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page).toHaveURL(/\/events\/gr-nder-abend-|\/events\/gruender-abend-|\/events\/[a-z0-9-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.getByTestId('event-status')).toHaveText('Draft');
  // Europe/Berlin time (CET in March 2031 before the switch on the 30th)
  await expect(page.getByTestId('event-when')).toContainText('18:00');
  await expect(page.getByTestId('event-when')).toContainText('20:30');
  // only the transitions of event_status_transitions from draft: publish, cancel
  const actions = page.getByTestId('event-status-actions');
  await expect(actions.getByRole('button')).toHaveText(['Publish', 'Cancel event']);
  await actions.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('event-status')).toHaveText('Published');
  await expect(actions.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  slug = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const row = await admin().from('events').select('id, status, capacity, starts_at').eq('slug', slug).single();
  expect(row.data).toMatchObject({ status: 'published', capacity: 2 });
  expect(new Date(row.data!.starts_at).toISOString()).toBe('2031-03-10T17:00:00.000Z');
  eventId = row.data!.id;
  expect(errors).toEqual([]);
});

test('RSVPs fill the places, then the waitlist; cancelling promotes the next (de)', async ({ page }) => {
  expect(eventId).toBeGreaterThan(0);
  // A takes a seat through the API
  expect((await a.client.rpc('rsvp_event', { p_event_id: eventId })).error).toBeNull();
  // B through the UI (German)
  await useSession(page, b);
  await page.goto(`/de/events/${slug}`);
  await expect(page.getByTestId('event-places')).toContainText('1 Platz frei von 2');
  await page.getByTestId('event-rsvp').click();
  await expect(page.getByTestId('event-my-status')).toHaveText('Sie nehmen teil.');
  await expect(page.getByTestId('event-places')).toContainText('0 Plätze frei von 2');
  // C: full → waitlist, position 1
  await useSession(page, c);
  await page.reload();
  await expect(page.getByTestId('event-rsvp')).toHaveText('Auf die Warteliste');
  await page.getByTestId('event-rsvp').click();
  await expect(page.getByTestId('event-my-status')).toHaveText('Sie stehen auf der Warteliste, Position 1.');
  await expect(page.getByTestId('event-places')).toContainText('1 auf der Warteliste');
  // B cancels (with confirmation) → C is promoted by the database
  await useSession(page, b);
  await page.reload();
  await page.getByTestId('event-cancel-rsvp').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('event-rsvp')).toBeVisible();
  const seats = await admin().from('event_attendees').select('user_id, status').eq('event_id', eventId);
  const byUser = Object.fromEntries((seats.data ?? []).map((r) => [r.user_id, r.status]));
  expect(byUser).toEqual({ [a.id]: 'going', [b.id]: 'cancelled', [c.id]: 'going' });
  await useSession(page, c);
  await page.reload();
  await expect(page.getByTestId('event-my-status')).toHaveText('Sie nehmen teil.');
  // my events: C sees the RSVP, the organiser sees the event
  await page.goto('/de/user/events');
  await expect(page.getByTestId('my-rsvps')).toContainText('Gründer-Abend');
});

test('calendar export is a valid .ics file', async ({ page }) => {
  expect(slug).not.toBe('');
  await useSession(page, null);
  await page.goto(`/events/${slug}`);
  await expect(page.getByTestId('event-login-to-rsvp')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('event-ics').click()]);
  expect(download.suggestedFilename()).toBe(`${slug}.ics`);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:[^\r\n]+\r\n/);
  expect(text).toContain(`UID:event-${eventId}@127.0.0.1\r\n`);
  expect(text).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
  expect(text).toContain('\r\nDTSTART:20310310T170000Z\r\n');
  expect(text).toContain('\r\nDTEND:20310310T193000Z\r\n');
  expect(text).toMatch(/\r\nSUMMARY:Gründer-Abend [a-z0-9]+\r\n/);
  expect(text).toContain('\r\nLOCATION:Leipzig\r\n');
  expect(text).toContain(`\r\nURL:http://127.0.0.1:`);
  expect(text.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
  expect(text).not.toMatch(/[^\r]\n/);
});

test('/events lists upcoming events soonest first with price and category filters (en)', async ({ page }) => {
  const city = `Filterstadt${token()}`;
  const soon = new Date(Date.now() + 2 * 24 * 3600_000);
  const later = new Date(Date.now() + 20 * 24 * 3600_000);
  await insertEvent(organiser.id, { title: 'Later paid workshop', city, is_paid: true, price_cents: 1250, starts_at: later.toISOString(), ends_at: new Date(later.getTime() + 3600_000).toISOString() });
  await insertEvent(organiser.id, { title: 'Soon free meetup', city, starts_at: soon.toISOString(), ends_at: new Date(soon.getTime() + 3600_000).toISOString() });
  await insertEvent(organiser.id, { title: 'Hidden draft', city, status: 'draft' });
  await useSession(page, null);
  await page.goto(`/events?city=${city}`);
  const list = page.getByTestId('events-list');
  await expect(list.getByRole('link')).toHaveText(['Soon free meetup', 'Later paid workshop']);
  await expect(list).toContainText('€12.50');
  await field(page, 'Price').selectOption('paid');
  await expect(page).toHaveURL(/price=paid/);
  await expect(list.getByRole('link')).toHaveText(['Later paid workshop']);
  await field(page, 'Price').selectOption('free');
  await expect(list.getByRole('link')).toHaveText(['Soon free meetup']);
  await page.goto(`/events?city=${city}&category=art`);
  await expect(page.getByTestId('events-empty')).toBeVisible();
});
