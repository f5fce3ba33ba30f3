/**
 * Contacts, presence and chat in the database (issue 13), in one rolled-back transaction:
 * contact requests (note length, self/unknown/hidden/blocked, payment, pending, asking back, the
 * 30-day rule after a decline, the daily limit), answers (only the addressee, only pending), a block
 * removing the open request, conversations only between contacts, writing and the 15-minute
 * edit/delete window, soft delete, inbox and unread counts, read receipts, realtime topic rules for
 * presence (reciprocity) and conversations, "last seen", the notification e-mails and their
 * switches, and the unread-message mail (once per conversation and day, after 15 minutes).
 * Broadcast delivery through the Realtime server is covered in realtime-privacy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestDb, type Actor } from './support.ts';

let db: TestDb;
type User = Actor & { kind: 'user' };

beforeAll(async () => {
  db = await TestDb.open();
});
afterAll(async () => db?.close());

const paidUser = (name: string, lang: 'de' | 'en' = 'de') => db.user({ role: 'premium', name, lang });
const request = (from: User, to: User, note: string | null = 'Hallo!') => db.keep(from, `select public.send_contact_request($1, $2) as status`, [to.id, note]);
const contactsOf = async (u: User, tab: string) => (await db.as(u, `select * from public.my_contacts($1)`, [tab])).rows;
const accept = async (a: User, b: User) => {
  expect((await request(a, b)).ok).toBe(true);
  expect((await db.keep(b, `update public.contacts set status = 'accepted' where requester_id = $1 and addressee_id = $2`, [a.id, b.id])).rowCount).toBe(1);
};
const conversationOf = async (a: User, b: User): Promise<string> => {
  const r = await db.keep(a, `select public.start_direct_conversation($1) as id`, [b.id]);
  expect(r.ok, r.message).toBe(true);
  return r.rows[0]!.id as string;
};
const say = (u: User, conv: string, body: string) =>
  db.keep(u, `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, $3) returning id`, [conv, u.id, body]);

describe('contact requests (send_contact_request)', () => {
  test('a note of at most 500 characters; no request to oneself, an unknown, hidden or blocked person; payment required', async () => {
    const a = await paidUser('Alma Anfrage');
    const b = await paidUser('Bodo Bekannt');
    const long = await db.as(a, `select public.send_contact_request($1, $2)`, [b.id, 'x'.repeat(501)]);
    expect([long.code, long.message]).toEqual(['22001', 'note_too_long']);
    expect((await db.as(a, `select public.send_contact_request($1, $2)`, [b.id, 'x'.repeat(500)])).ok).toBe(true);
    expect((await db.as(a, `select public.send_contact_request($1)`, [a.id])).message).toBe('cannot_contact_self');
    expect((await db.as(a, `select public.send_contact_request(gen_random_uuid())`)).code).toBe('PT404');
    const hidden = await db.user({ role: 'premium', name: 'Hilde Hidden', visible: false });
    expect((await db.as(a, `select public.send_contact_request($1)`, [hidden.id])).message).toBe('user_not_found');
    const blocker = await paidUser('Bert Blocker');
    await db.sql(`insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [blocker.id, a.id]);
    expect((await db.as(a, `select public.send_contact_request($1)`, [blocker.id])).message).toBe('blocked');
    const free = await db.user({ role: 'free', name: 'Frida Frei' });
    expect((await db.as(free, `select public.send_contact_request($1)`, [b.id])).code).toBe('PT402');
    // the table takes no direct INSERT around these rules
    expect((await db.as(a, `insert into public.contacts (requester_id, addressee_id) values ($1, $2)`, [a.id, b.id])).code).toBe('42501');
  });

  test('pending once; asking back accepts; then already contacts; the addressee is told (Broadcast and mail)', async () => {
    const a = await paidUser('Anna Anfang', 'en');
    const b = await paidUser('Bernd Bestaetigt', 'en');
    expect((await request(a, b, 'Let us build it')).rows[0]!.status).toBe('pending');
    expect((await db.as(a, `select public.send_contact_request($1)`, [b.id])).message).toBe('request_pending');
    const received = await contactsOf(b, 'received');
    expect(received.map((r) => [r.user_id, r.message, r.display_name])).toEqual([[a.id, 'Let us build it', 'Anna Anfang']]);
    expect((await contactsOf(a, 'sent')).map((r) => r.user_id)).toEqual([b.id]);
    expect((await db.as(b, `select public.contact_request_count() as n`)).rows[0]!.n).toBe(1);
    const [broadcast] = await db.sql<{ event: string; payload: { requester_id: string } }>(
      `select event, payload from realtime.messages where topic = $1 order by inserted_at desc limit 1`, [`user:${b.id}`]);
    expect(broadcast).toMatchObject({ event: 'contact_request', payload: { requester_id: a.id } });
    const mails = await db.sql<{ lang: string; payload: { requester_name: string; path: string } }>(
      `select lang, payload from public.email_queue where user_id = $1 and email_type = 'contact_request'`, [b.id]);
    expect(mails).toEqual([expect.objectContaining({ lang: 'en', payload: expect.objectContaining({ requester_name: 'Anna Anfang', path: '/user/contacts?tab=received' }) })]);

    expect((await request(b, a)).rows[0]!.status).toBe('accepted');
    expect((await contactsOf(a, 'contacts')).map((r) => r.user_id)).toEqual([b.id]);
    expect((await db.as(a, `select public.send_contact_request($1)`, [b.id])).message).toBe('already_contacts');
  });

  test('no e-mail when the addressee switched contact-request mails off (the in-app notice stays)', async () => {
    const a = await paidUser('Aaron Aus');
    const b = await paidUser('Berta Still');
    expect((await db.keep(b, `insert into public.user_settings (user_id, email_contact_requests) values ($1, false)`, [b.id])).ok).toBe(true);
    await request(a, b);
    expect(await db.sql(`select 1 from public.email_queue where user_id = $1 and email_type = 'contact_request'`, [b.id])).toEqual([]);
    expect((await db.as(b, `select public.contact_request_count() as n`)).rows[0]!.n).toBe(1);
  });

  test('only the addressee answers, only a pending request; a decline bars a new request for 30 days', async () => {
    const a = await paidUser('Arno Abgelehnt');
    const b = await paidUser('Britta Bestimmt');
    await request(a, b);
    const byRequester = await db.as(a, `update public.contacts set status = 'accepted' where requester_id = $1 and addressee_id = $2`, [a.id, b.id]);
    expect(byRequester.message).toBe('not_addressee');
    expect((await db.keep(b, `update public.contacts set status = 'declined' where requester_id = $1 and addressee_id = $2`, [a.id, b.id])).rowCount).toBe(1);
    const reopen = await db.as(b, `update public.contacts set status = 'accepted' where requester_id = $1 and addressee_id = $2`, [a.id, b.id]);
    expect([reopen.code, reopen.message]).toEqual(['PT409', 'not_pending']);
    const again = await db.as(a, `select public.send_contact_request($1)`, [b.id]);
    expect([again.code, again.message]).toEqual(['PT409', 'declined_recently']);
    // the requester cannot erase the decline to get around it (the row is simply not theirs to delete)
    expect((await db.as(a, `delete from public.contacts where requester_id = $1 and addressee_id = $2`, [a.id, b.id])).rowCount).toBe(0);
    // the requester's lists do not show the decline
    expect(await contactsOf(a, 'sent')).toEqual([]);
    // 31 days later the request may be sent again, as a fresh pending request
    await db.sql(`update public.contacts set responded_at = now() - interval '31 days' where requester_id = $1 and addressee_id = $2`, [a.id, b.id]);
    expect((await request(a, b, 'Neuer Versuch')).rows[0]!.status).toBe('pending');
    expect((await contactsOf(b, 'received')).map((r) => r.message)).toEqual(['Neuer Versuch']);
    // the one who declined may ask themselves at any time
    const c = await paidUser('Carla Zweite');
    await request(c, a);
    await db.keep(a, `update public.contacts set status = 'declined' where requester_id = $1 and addressee_id = $2`, [c.id, a.id]);
    expect((await request(a, c)).rows[0]!.status).toBe('pending');
  });

  test('at most 25 requests a day per requester (PT429)', async () => {
    const spammer = await paidUser('Sven Sammler');
    const targets: User[] = [];
    for (let i = 0; i < 26; i++) targets.push(await paidUser(`Ziel Nummer${i}`));
    for (const t of targets.slice(0, 25)) expect((await request(spammer, t)).ok).toBe(true);
    const limited = await db.as(spammer, `select public.send_contact_request($1)`, [targets[25]!.id]);
    expect([limited.code, limited.message]).toEqual(['PT429', 'contact_request_limit']);
    // yesterday's requests do not count
    await db.sql(`update public.contacts set created_at = now() - interval '25 hours' where requester_id = $1`, [spammer.id]);
    expect((await db.as(spammer, `select public.send_contact_request($1)`, [targets[25]!.id])).ok).toBe(true);
  });

  test('a block removes the pending request and hides the contact both ways', async () => {
    const a = await paidUser('Anja Offen');
    const b = await paidUser('Boris Block');
    await request(a, b);
    await db.keep(b, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [b.id, a.id]);
    expect(await db.sql(`select 1 from public.contacts where requester_id = $1 and addressee_id = $2`, [a.id, b.id])).toEqual([]);
    const c = await paidUser('Cem Kontakt');
    await accept(c, b);
    await db.keep(c, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [c.id, b.id]);
    expect(await contactsOf(b, 'contacts')).toEqual([]);
    expect(await contactsOf(c, 'contacts')).toEqual([]);
  });
});

describe('conversations and messages', () => {
  test('only contacts start a conversation; members write; a block silences it and hides it from the inbox', async () => {
    const a = await paidUser('Adam Chat');
    const b = await paidUser('Bea Chat');
    const stranger = await paidUser('Sina Fremd');
    const refused = await db.as(stranger, `select public.start_direct_conversation($1)`, [a.id]);
    expect([refused.code, refused.message]).toEqual(['PT403', 'not_a_contact']);
    expect((await db.as(stranger, `insert into public.conversations (kind, created_by) values ('direct', $1)`, [stranger.id])).code).toBe('42501');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    expect(await conversationOf(b, a)).toBe(conv);
    // (one transaction: now() is the same everywhere, so the reader is the member who did not open it)
    expect((await say(a, conv, 'Hallo Bea')).ok).toBe(true);
    expect((await db.as(stranger, `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Spam')`, [conv, stranger.id])).ok).toBe(false);

    const inbox = (await db.as(b, `select * from public.my_inbox()`)).rows;
    expect(inbox.map((r) => [r.conversation_id, r.other_user_id, r.last_body, r.unread])).toEqual([[conv, a.id, 'Hallo Bea', 1]]);
    expect((await db.as(b, `select public.unread_message_total() as n`)).rows[0]!.n).toBe(1);

    await db.keep(b, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [b.id, a.id]);
    expect((await say(a, conv, 'Noch da?')).ok).toBe(false);
    expect((await say(b, conv, 'Tschüss')).ok).toBe(false);
    expect((await db.as(b, `select * from public.my_inbox()`)).rows).toEqual([]);
    expect((await db.as(b, `select public.unread_message_total() as n`)).rows[0]!.n).toBe(0);
    expect((await db.as(b, `select * from public.conversation_info($1)`, [conv])).code).toBe('PT404');
  });

  test('after a block nobody writes to the conversation (edits, read receipts, title); the creator cannot erase it; members leave only themselves (issue 31 §5)', async () => {
    const a = await paidUser('Carla Creator');
    const b = await paidUser('Dirk Drüben');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    const mine = await say(a, conv, 'Meine Nachricht');
    expect(mine.ok).toBe(true);
    const theirs = await say(b, conv, 'Antwort von Dirk');
    expect(theirs.ok).toBe(true);
    // the creator cannot hard-delete the conversation with the other person's messages, nor remove them
    expect((await db.as(a, `delete from public.conversations where id = $1`, [conv])).rowCount).toBe(0);
    expect((await db.as(a, `delete from public.conversation_members where conversation_id = $1 and user_id = $2`, [conv, b.id])).rowCount).toBe(0);
    expect((await db.sql<{ n: number }>(`select count(*)::int as n from public.messages where conversation_id = $1`, [conv]))[0]!.n).toBe(2);

    const readBefore = (await db.sql<{ at: string | null }>(`select last_read_at::text as at from public.conversation_members where conversation_id = $1 and user_id = $2`, [conv, a.id]))[0]!.at;
    await db.keep(b, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [b.id, a.id]);
    // the blocked person can no longer edit (each edit would ping the blocker), delete or mark read
    const edit = await db.as(a, `update public.messages set body = 'Bearbeitet' where id = $1`, [mine.rows[0]!.id]);
    expect(edit.rowCount).toBe(0);
    expect((await db.as(a, `update public.messages set body = '', deleted_at = now() where id = $1`, [mine.rows[0]!.id])).rowCount).toBe(0);
    expect((await db.as(a, `update public.conversations set title = 'Umbenannt' where id = $1`, [conv])).rowCount).toBe(0);
    expect((await db.as(a, `select public.mark_conversation_read($1)`, [conv])).ok).toBe(true);
    const readAfter = (await db.sql<{ at: string | null }>(`select last_read_at::text as at from public.conversation_members where conversation_id = $1 and user_id = $2`, [conv, a.id]))[0]!.at;
    expect(readAfter).toBe(readBefore);
    expect((await db.sql<{ body: string }>(`select body from public.messages where id = $1`, [mine.rows[0]!.id]))[0]!.body).toBe('Meine Nachricht');
    // leaving is always possible, and only for oneself
    expect((await db.as(a, `delete from public.conversation_members where conversation_id = $1 and user_id = $2`, [conv, a.id])).rowCount).toBe(1);
  });

  test('edit and delete own messages within 15 minutes; delete empties the body; never someone else\'s', async () => {
    const a = await paidUser('Arne Edit');
    const b = await paidUser('Bianca Edit');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    const id = (await say(a, conv, 'Tippfehlr')).rows[0]!.id;
    const edit = await db.keep(a, `update public.messages set body = 'Tippfehler' where id = $1 returning body, edited_at`, [id]);
    expect(edit.rows[0]!.body).toBe('Tippfehler');
    expect(edit.rows[0]!.edited_at).not.toBeNull();
    expect((await db.as(b, `update public.messages set body = 'gefälscht' where id = $1`, [id])).rowCount).toBe(0);
    const [broadcast] = await db.sql<{ event: string; payload: { body: string } }>(
      `select event, payload from realtime.messages where topic = $1 and event = 'message_updated'`, [`conversation:${conv}`]);
    expect(broadcast).toMatchObject({ event: 'message_updated', payload: { body: 'Tippfehler' } });
    expect((await db.as(a, `delete from public.messages where id = $1`, [id])).code).toBe('42501');
    const del = await db.keep(a, `update public.messages set deleted_at = now() where id = $1 returning body, deleted_at`, [id]);
    expect(del.rows[0]!.body).toBe('');
    expect(del.rows[0]!.deleted_at).not.toBeNull();
    expect((await db.as(a, `update public.messages set body = 'wieder da' where id = $1`, [id])).message).toBe('message_deleted');

    const old = (await say(a, conv, 'Alt')).rows[0]!.id;
    await db.sql(`update public.messages set created_at = now() - interval '16 minutes' where id = $1`, [old]);
    const late = await db.as(a, `update public.messages set body = 'Zu spät' where id = $1`, [old]);
    expect([late.code, late.message]).toEqual(['PT403', 'edit_window_closed']);
    expect((await db.as(a, `update public.messages set deleted_at = now() where id = $1`, [old])).code).toBe('PT403');
  });

  test('read receipts: mark_conversation_read clears unread and broadcasts the receipt', async () => {
    const a = await paidUser('Anke Lesen');
    const b = await paidUser('Ben Lesen');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    await say(a, conv, 'Eins');
    await say(a, conv, 'Zwei');
    expect((await db.as(b, `select unread from public.my_inbox()`)).rows[0]!.unread).toBe(2);
    const read = await db.keep(b, `select public.mark_conversation_read($1) as at`, [conv]);
    expect(read.ok).toBe(true);
    expect((await db.as(b, `select unread from public.my_inbox()`)).rows[0]!.unread).toBe(0);
    const info = (await db.as(a, `select * from public.conversation_info($1)`, [conv])).rows[0]!;
    expect(info.other_last_read_at).toEqual(read.rows[0]!.at);
    expect(info.can_write).toBe(true);
    const [receipt] = await db.sql<{ payload: { user_id: string } }>(
      `select payload from realtime.messages where topic = $1 and event = 'read' order by inserted_at desc limit 1`, [`conversation:${conv}`]);
    expect(receipt!.payload.user_id).toBe(b.id);
    expect((await db.as(a, `select public.mark_conversation_read(gen_random_uuid())`)).code).toBe('PT404');
    // the receipt cannot be forged by writing last_read_at directly
    expect((await db.as(b, `update public.conversation_members set last_read_at = now() + interval '1 year' where conversation_id = $1 and user_id = $2`, [conv, b.id])).code).toBe('42501');
  });
});

describe('realtime topics and presence', () => {
  const canRead = async (u: User, topic: string) => (await db.as(u, `select private.can_use_topic($1) as ok`, [topic])).rows[0]!.ok;
  const canWrite = async (u: User, topic: string) => (await db.as(u, `select private.can_write_topic($1) as ok`, [topic])).rows[0]!.ok;
  const presenceTopic = async (userId: string) => (await db.sql<{ t: string }>(`select private.presence_topic($1) as t`, [userId]))[0]!.t;

  test('conversation topics for members without a block only', async () => {
    const a = await paidUser('Ali Thema');
    const b = await paidUser('Bo Thema');
    const c = await paidUser('Cleo Aussen');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    expect(await canRead(a, `conversation:${conv}`)).toBe(true);
    expect(await canWrite(b, `conversation:${conv}`)).toBe(true);
    expect(await canRead(c, `conversation:${conv}`)).toBe(false);
    expect(await canWrite(c, `conversation:${conv}`)).toBe(false);
    expect(await canRead(c, `user:${a.id}`)).toBe(false);
  });

  test('presence only between contacts, only while both show their status (reciprocity); "last seen" likewise', async () => {
    const a = await paidUser('Ada Online');
    const b = await paidUser('Bjarne Online');
    const c = await paidUser('Carl Fremd');
    const topic = await presenceTopic(a.id);
    expect(topic).toBe(`presence:user:${a.id}:0`);
    expect(await canRead(b, topic)).toBe(false);
    await accept(a, b);
    expect(await canRead(b, topic)).toBe(true);
    expect(await canRead(c, topic)).toBe(false);
    expect(await canWrite(a, topic)).toBe(true);
    expect(await canWrite(b, topic)).toBe(false);

    expect((await db.keep(a, `select public.touch_presence()`)).ok).toBe(true);
    // without paid access (contacts are a paid feature) nothing is stored
    const free = await db.user({ role: 'free', name: 'Fritz Frei' });
    expect((await db.keep(free, `select public.touch_presence()`)).ok).toBe(true);
    expect(await db.sql(`select 1 from private.last_seen where user_id = $1`, [free.id])).toEqual([]);
    const lastSeen = async () => (await db.as(b, `select last_seen_at from public.my_contacts('contacts')`)).rows[0]!.last_seen_at;
    expect(await lastSeen()).not.toBeNull();
    expect((await db.as(c, `select 1 from public.my_contacts('contacts')`)).rowCount).toBe(0);

    // Ada hides her status: nobody watches or gets her last seen, and she can no longer track
    await db.keep(a, `insert into public.user_settings (user_id, show_online_status) values ($1, false)`, [a.id]);
    expect(await canRead(b, topic)).toBe(false);
    expect(await canWrite(a, topic)).toBe(false);
    expect(await lastSeen()).toBeNull();
    // ... and sees no one else's (reciprocity)
    expect(await canRead(a, await presenceTopic(b.id))).toBe(false);
    await db.keep(a, `update public.user_settings set show_online_status = true where user_id = $1`, [a.id]);
    expect(await canRead(a, await presenceTopic(b.id))).toBe(true);
    // Bjarne hides his: he no longer sees Ada either
    await db.keep(b, `insert into public.user_settings (user_id, show_online_status) values ($1, false)`, [b.id]);
    expect(await canRead(b, topic)).toBe(false);
    expect(await lastSeen()).toBeNull();
  });

  test('removing a contact or a block moves both presence topics; the old ones admit nobody (issue 31 §10)', async () => {
    const a = await paidUser('Anke Umzug');
    const b = await paidUser('Bert Umzug');
    const c = await paidUser('Cora Bleibt');
    await accept(a, b);
    await accept(a, c);
    const [ta, tb] = [await presenceTopic(a.id), await presenceTopic(b.id)];
    expect((await db.as(b, `select public.presence_topic($1) as t`, [a.id])).rows[0]!.t).toBe(ta);
    expect((await db.keep(a, `delete from public.contacts where (requester_id = $1 and addressee_id = $2) or (requester_id = $2 and addressee_id = $1)`, [a.id, b.id])).rowCount).toBe(1);
    const [ta2, tb2] = [await presenceTopic(a.id), await presenceTopic(b.id)];
    expect([ta2, tb2]).toEqual([`presence:user:${a.id}:1`, `presence:user:${b.id}:1`]);
    expect(await canRead(c, ta)).toBe(false);
    expect(await canRead(c, ta2)).toBe(true);
    expect(await canWrite(a, ta)).toBe(false);
    expect(await canWrite(a, ta2)).toBe(true);
    expect(await canRead(a, tb)).toBe(false);
    expect((await db.as(b, `select public.presence_topic($1) as t`, [a.id])).rows[0]!.t).toBeNull();
    expect((await db.as(c, `select public.presence_topic($1) as t`, [a.id])).rows[0]!.t).toBe(ta2);
    // the owner, their remaining contact (and not the removed one) hear presence_moved
    const moved = await db.sql<{ topic: string }>(`select topic from realtime.messages where event = 'presence_moved' and payload->>'user_id' = $1 order by topic`, [a.id]);
    expect(moved.map((m) => m.topic).sort()).toEqual([`user:${a.id}`, `user:${c.id}`].sort());
    // c blocks a: both move again
    expect((await db.keep(c, `insert into public.user_blocks (blocker_id, blocked_id) values ($1, $2)`, [c.id, a.id])).ok).toBe(true);
    expect(await presenceTopic(a.id)).toBe(`presence:user:${a.id}:2`);
    expect(await presenceTopic(c.id)).toBe(`presence:user:${c.id}:1`);
    expect(await canRead(c, ta2)).toBe(false);
    expect((await db.as(a, `select public.presence_topic($1) as t`, [c.id])).rows[0]!.t).toBeNull();
  });

  test('user_settings belong to their owner only', async () => {
    const a = await paidUser('Amelie Einstellung');
    const b = await paidUser('Bruno Neugier');
    await db.keep(a, `insert into public.user_settings (user_id, email_messages) values ($1, false)`, [a.id]);
    expect((await db.as(b, `select 1 from public.user_settings where user_id = $1`, [a.id])).rowCount).toBe(0);
    expect((await db.as(b, `update public.user_settings set email_messages = true where user_id = $1`, [a.id])).rowCount).toBe(0);
    expect((await db.as(b, `insert into public.user_settings (user_id) values ($1)`, [a.id])).code).toBe('42501');
  });
});

describe('unread-message mail (cron)', () => {
  const queueMails = async () => (await db.sql<{ n: number }>(`select private.queue_unread_message_mails() as n`))[0]!.n;
  const mailsTo = (u: User) =>
    db.sql<{ payload: { path: string; count: number; sender_name: string } }>(`select payload from public.email_queue where user_id = $1 and email_type = 'chat_unread'`, [u.id]);

  test('after 15 minutes unread: one mail per conversation and day, none when read or switched off', async () => {
    const a = await paidUser('Anton Sender');
    const b = await paidUser('Berit Empfang');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    const id = (await say(a, conv, 'Bist du da?')).rows[0]!.id;
    await queueMails();
    expect(await mailsTo(b)).toEqual([]); // not yet 15 minutes
    await db.sql(`update public.messages set created_at = now() - interval '16 minutes' where id = $1`, [id]);
    await queueMails();
    await say(a, conv, 'Hallo?');
    await queueMails();
    expect(await mailsTo(b)).toEqual([{ payload: expect.objectContaining({ path: `/user/chat/${conv}`, sender_name: 'Anton Sender', count: 1 }) }]);
    expect(await mailsTo(a)).toEqual([]);

    // read conversations and switched-off mails send nothing
    const c = await paidUser('Cora Gelesen');
    await accept(a, c);
    const conv2 = await conversationOf(a, c);
    const id2 = (await say(a, conv2, 'Hi Cora')).rows[0]!.id;
    await db.sql(`update public.messages set created_at = now() - interval '20 minutes' where id = $1`, [id2]);
    await db.keep(c, `select public.mark_conversation_read($1)`, [conv2]);
    const d = await paidUser('Dora Ruhe');
    await accept(a, d);
    await db.keep(d, `insert into public.user_settings (user_id, email_messages) values ($1, false)`, [d.id]);
    const conv3 = await conversationOf(a, d);
    const id3 = (await say(a, conv3, 'Hi Dora')).rows[0]!.id;
    await db.sql(`update public.messages set created_at = now() - interval '20 minutes' where id = $1`, [id3]);
    await queueMails();
    expect(await mailsTo(c)).toEqual([]);
    expect(await mailsTo(d)).toEqual([]);
  });
});

describe('idempotent sends (issue 17)', () => {
  test('a message is stored once per sender and client id: a repeated send is refused with 23505, other senders and ids are free', async () => {
    const a = await paidUser('Ida Idempotent');
    const b = await paidUser('Ben Beständig');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    const key = '2f1d4c9e-8a7b-4c3d-9e2f-1a2b3c4d5e6f';
    const send = (u: User, body: string, clientId: string | null) =>
      db.keep(u, `insert into public.messages (conversation_id, sender_id, body, client_id) values ($1, $2, $3, $4) returning id`, [conv, u.id, body, clientId]);
    const first = await send(a, 'Hallo einmal', key);
    expect(first.ok, first.message).toBe(true);
    const again = await send(a, 'Hallo einmal', key);
    expect(again.ok).toBe(false);
    expect(again.code).toBe('23505');
    // the sender finds the stored one by its client id (what the SPA does after a 409)
    const found = await db.as(a, `select id from public.messages where sender_id = $1 and client_id = $2`, [a.id, key]);
    expect(found.rows).toEqual([{ id: first.rows[0]!.id }]);
    expect((await send(b, 'Gleiche ID, anderer Absender', key)).ok).toBe(true);
    expect((await send(a, 'Ohne ID', null)).ok).toBe(true);
    expect((await send(a, 'Ohne ID', null)).ok).toBe(true);
    const stored = await db.as(a, `select count(*)::int as n from public.messages where conversation_id = $1 and body = 'Hallo einmal'`, [conv]);
    expect(stored.rows[0]!.n).toBe(1);
  });
});

describe('message rate (issue 31 §9)', () => {
  test('at most 30 messages per sender and minute: a flood is refused with PT429, the other person still writes', async () => {
    const a = await paidUser('Flora Flut');
    const b = await paidUser('Bruno Bremse');
    await accept(a, b);
    const conv = await conversationOf(a, b);
    const outcomes: string[] = [];
    for (let i = 0; i < 35; i++) {
      const r = await say(a, conv, `Nachricht ${i}`);
      outcomes.push(r.ok ? 'ok' : String(r.code));
    }
    expect(outcomes.slice(0, 30)).toEqual(Array(30).fill('ok'));
    expect(outcomes.slice(30)).toEqual(Array(5).fill('PT429'));
    const stored = await db.as(a, `select count(*)::int as n from public.messages where conversation_id = $1 and sender_id = $2`, [conv, a.id]);
    expect(stored.rows[0]!.n).toBe(30);
    expect((await say(b, conv, 'Alles gut?')).ok).toBe(true);
  });
});
