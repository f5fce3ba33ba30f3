/**
 * Contact messages and feedback for admins (issue 33 §9; supabase/schemas/14_feedback_newsletter_contact.sql):
 * - a signed-in member writing from the own confirmed address gets a copy of the message
 *   (contact_copy with subject and text); anyone else gets the receipt without any of the text
 *   (issue 12 §8: the form relays no text to strangers), and the rate limits still apply;
 * - only admins read the contact messages and everyone's feedback, newest first, and mark them
 *   handled (status done); members read and change nothing of it (their own feedback they read).
 * Fixtures live in a rolled-back transaction.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anon, TestDb, type Actor } from './support.ts';

let db: TestDb;
let member: Actor & { kind: 'user' };
let other: Actor & { kind: 'user' };
let admin: Actor & { kind: 'user' };
const ids: Record<string, number> = {};
const contactIds: Record<'own' | 'foreign' | 'anon', number> = { own: 0, foreign: 0, anon: 0 };
// addresses of this run only (committed data of other tests never shares them)
const tag = Math.random().toString(36).slice(2, 8);
const stranger = `stranger-${tag}@example.com`;
const visitor = `visitor-${tag}@example.com`;

const queued = async (email: string) =>
  db.sql<{ email_type: string; payload: Record<string, string> }>(
    `select email_type, payload from public.email_queue where email = $1 order by id`, [email]);

beforeAll(async () => {
  db = await TestDb.open();
  member = await db.user({ name: 'Mona Member' });
  other = await db.user({ name: 'Otto Other' });
  admin = await db.user({ role: 'admin', name: 'Ada Admin' });
  for (const [key, actor, email] of [['own', member, member.email], ['foreign', member, stranger], ['anon', anon, visitor]] as const) {
    const out = await db.keep(actor, `insert into public.contact_messages (user_id, name, email, subject, message, lang)
      values ($1, 'Mona', $2, 'Frage zu Rechnungen', 'Wie bekomme ich eine Rechnung mit Firmenadresse?', 'de')`,
      [actor.kind === 'user' ? actor.id : null, email]);
    expect(out.ok, out.message).toBe(true);
    // (the sender cannot read the row back: RETURNING needs the select policy)
    contactIds[key] = Number((await db.sql(`select max(id) as id from public.contact_messages where email = $1`, [email]))[0]!.id);
  }
  for (const actor of [member, other]) {
    const out = await db.keep(actor, `insert into public.feedback (user_id, category, message) values ($1, 'idea', 'Mehr Filter bitte') returning id`, [actor.id]);
    expect(out.ok, out.message).toBe(true);
    ids[`feedback-${actor.id}`] = Number(out.rows[0]!.id);
  }
});
afterAll(async () => db?.close());

describe('the sender of a contact message', () => {
  test('a member writing from the own address gets a copy with subject and text', async () => {
    const mails = await queued(member.email);
    expect(mails.map((m) => m.email_type)).toEqual(['contact_copy']);
    expect(mails[0]!.payload).toMatchObject({ subject: 'Frage zu Rechnungen', message: 'Wie bekomme ich eine Rechnung mit Firmenadresse?', name: 'Mona' });
  });

  test('another address (signed in or not) gets only the receipt, without the text', async () => {
    for (const email of [stranger, visitor]) {
      const mails = await queued(email);
      expect(mails.map((m) => m.email_type), email).toEqual(['contact_confirmation']);
      expect(mails[0]!.payload, email).toEqual({});
    }
  });

  test('both templates exist in German and English', async () => {
    const rows = await db.sql<{ lang: string; body: string }>(`select lang, body from public.email_templates where key = 'contact_copy' order by lang`);
    expect(rows.map((r) => r.lang)).toEqual(['de', 'en']);
    for (const r of rows) expect(r.body).toContain('{{message}}');
  });
});

describe('only admins read and handle contact messages and feedback', () => {
  test('contact messages: admins read them newest first; members and visitors read none', async () => {
    const asAdmin = await db.as(admin, `select id from public.contact_messages where id = any ($1) order by created_at desc, id desc`, [Object.values(contactIds)]);
    expect(asAdmin.rows.map((r) => Number(r.id))).toEqual([contactIds.anon, contactIds.foreign, contactIds.own]);
    expect((await db.as(member, `select id from public.contact_messages`)).rowCount).toBe(0);
    expect((await db.as(anon, `select id from public.contact_messages`)).ok).toBe(false);
  });

  test('contact messages: an admin marks one handled, a member cannot', async () => {
    const byMember = await db.as(member, `update public.contact_messages set status = 'done' where id = $1`, [contactIds.own]);
    expect(byMember.rowCount).toBe(0);
    const byAdmin = await db.keep(admin, `update public.contact_messages set status = 'done' where id = $1 returning status`, [contactIds.own]);
    expect(byAdmin.rows).toEqual([{ status: 'done' }]);
  });

  test('feedback: admins read everyone\'s and mark it handled; a member reads only the own and changes nothing', async () => {
    const mine = ids[`feedback-${member.id}`]!;
    const theirs = ids[`feedback-${other.id}`]!;
    const asAdmin = await db.as(admin, `select id from public.feedback where id = any ($1) order by created_at desc, id desc`, [[mine, theirs]]);
    expect(asAdmin.rows.map((r) => Number(r.id))).toEqual([theirs, mine]);
    const asMember = await db.as(member, `select id from public.feedback where id = any ($1)`, [[mine, theirs]]);
    expect(asMember.rows.map((r) => Number(r.id))).toEqual([mine]);
    expect((await db.as(member, `update public.feedback set status = 'done' where id = $1`, [mine])).rowCount).toBe(0);
    expect((await db.as(admin, `update public.feedback set status = 'done' where id = $1 returning status`, [theirs])).rows).toEqual([{ status: 'done' }]);
  });
});
