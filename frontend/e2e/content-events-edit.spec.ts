import { axe } from './axe';
import { expect, test } from '@playwright/test';
import { admin, createUser, insertEvent, token, type TestUser, useSession } from './content-events-support';
import { collectErrors, expectStackUp } from './support';

/**
 * Editing an event from /user/events (issue 8; rules in supabase/schemas/11_events.sql):
 * the organiser fixes title, date and price in a dialog and sees them on /events/{slug} (same slug), and a
 * refusal of the database (capacity below the confirmed attendees) shows a clear message.
 */
test.describe.configure({ mode: 'serial' });

let organiser: TestUser;
let a: TestUser;
let b: TestUser;
let title = '';
let slug = '';
let eventId = 0;

test.beforeAll(async () => {
  await expectStackUp();
  [organiser, a, b] = await Promise.all([createUser('premium', 'Edda'), createUser('basic', 'Anton'), createUser('basic', 'Berta')]);
  title = `Sommerfest ${token()}`;
  ({ id: eventId, slug } = await insertEvent(organiser.id, {
    title,
    capacity: 2,
    starts_at: '2031-06-13T16:00:00Z',
    ends_at: '2031-06-13T19:00:00Z',
    city: 'Leipzig',
  }));
});

test('the organiser edits title, date and price; /events/{slug} shows them (en)', async ({ page }) => {
  const errors = collectErrors(page);
  await useSession(page, organiser);
  await page.goto('/user/events');
  const edit = page.getByRole('button', { name: `Edit “${title}”` });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Edit event' });
  const titleInput = dialog.getByRole('textbox', { name: 'Title' });
  await expect(titleInput).toHaveValue(title);
  await expect(titleInput).toBeFocused();
  // the saved times appear as Berlin wall-clock times (CEST in June)
  await expect(dialog.getByLabel(/^Start/)).toHaveValue('2031-06-13T18:00');
  const scan = await axe(page).include('[role="dialog"]').analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id), JSON.stringify(serious.map((v) => [v.id, v.nodes.map((n) => n.html).slice(0, 3)]))).toEqual([]);

  const newTitle = `${title} (verschoben)`;
  await titleInput.fill(newTitle);
  // Escape with unsaved changes asks before discarding them
  await page.keyboard.press('Escape');
  await expect(dialog.getByTestId('event-edit-discard')).toContainText('Discard your unsaved changes?');
  await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('event-edit-discard')).toBeHidden();
  await expect(titleInput).toHaveValue(newTitle);
  await dialog.getByLabel(/^Start/).fill('2031-06-20T19:00');
  await dialog.getByLabel(/^End/).fill('2031-06-20T22:30');
  // no RSVPs yet: the event may still become paid
  await dialog.getByRole('switch', { name: 'Paid event' }).check();
  await dialog.getByLabel(/^Price \(incl\. VAT\)/).fill('12.50');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('my-organised-events')).toContainText(newTitle);
  // focus goes back to the button that opened the dialog
  await expect(page.getByRole('button', { name: `Edit “${newTitle}”` })).toBeFocused();

  const saved = await admin().from('events').select('slug, title, starts_at, ends_at, is_paid, price_cents').eq('id', eventId).single();
  expect(saved.data).toMatchObject({ slug, title: newTitle, is_paid: true, price_cents: 1250 });
  expect(new Date(saved.data!.starts_at).toISOString()).toBe('2031-06-20T17:00:00.000Z');
  expect(new Date(saved.data!.ends_at).toISOString()).toBe('2031-06-20T20:30:00.000Z');

  await page.goto(`/events/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(newTitle);
  await expect(page.getByTestId('event-when')).toContainText('20 June 2031');
  await expect(page.getByTestId('event-when')).toContainText(/19:00\s*–\s*22:30/);
  await expect(page.getByTestId('event-price')).toHaveText('Price: €12.50 incl. VAT');
  // the organiser can open the same editor from the event page; Cancel without changes just closes
  await page.getByRole('button', { name: `Edit “${newTitle}”` }).click();
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveValue(newTitle);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  title = newTitle;
  expect(errors).toEqual([]);
});

test('a capacity below the confirmed attendees is refused with a clear message (de)', async ({ page }) => {
  expect(eventId).toBeGreaterThan(0);
  // the event is paid since the first test: seats are taken by paid tickets (issue 16), written
  // here as the payment webhook would (service role)
  const takeSeat = async (userId: string) =>
    expect((await admin().from('event_attendees').insert({ event_id: eventId, user_id: userId, status: 'going' })).error).toBeNull();
  await takeSeat(a.id);
  await useSession(page, organiser);
  await page.goto('/de/user/events');
  await page.getByRole('button', { name: `„${title}“ bearbeiten` }).click();
  const dialog = page.getByRole('dialog', { name: 'Veranstaltung bearbeiten' });
  const places = dialog.getByRole('textbox', { name: /^Plätze/ });
  await expect(places).toHaveValue('2');
  // meanwhile a second person signs up: the form still knows of one, the database of two
  await takeSeat(b.id);
  await places.fill('1');
  await dialog.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(dialog.getByText('Die Zahl der Plätze darf nicht unter der Zahl der bestätigten Teilnehmenden (2) liegen.')).toBeVisible();
  await expect(places).toHaveAttribute('aria-invalid', 'true');
  expect((await admin().from('events').select('capacity').eq('id', eventId).single()).data!.capacity).toBe(2);

  // more places are fine
  await places.fill('5');
  await dialog.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Ihre Änderungen wurden gespeichert.')).toBeVisible();
  expect((await admin().from('events').select('capacity').eq('id', eventId).single()).data!.capacity).toBe(5);
  await page.goto(`/de/events/${slug}`);
  await expect(page.getByTestId('event-places')).toContainText('3 Plätze frei von 5');
});
