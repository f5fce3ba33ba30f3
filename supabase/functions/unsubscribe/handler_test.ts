/**
 * One-click unsubscribe (issue 13) against the running local stack: a notification mail rendered
 * by the queue carries a link and List-Unsubscribe headers with a token bound to that mail; the
 * token switches off exactly that kind of mail for exactly that recipient, through the SPA's
 * POST and through an RFC 8058 one-click POST; forged, altered or foreign tokens and GET change
 * nothing.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { answer, createConfirmedUser, post, serviceClient, setEmailQueueCron, stack, withDb } from '../_shared/testing.ts';
import { createUnsubscribeHandler } from './handler.ts';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../_shared/email/unsubscribe.ts';
import { processEmailQueue, supabaseQueueStore, type MailSender, type OutgoingEmail } from '../_shared/email/queue.ts';

const admin = serviceClient();
const handler = createUnsubscribeHandler({ admin, secret: stack.tokenSecret });

async function queueMail(userId: string, email: string, type: string): Promise<number> {
  return await withDb(async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `select private.enqueue_email($1, $2, $3, 'en', '{"firstname":"Una"}'::jsonb,
         '{"requester_name":"Rolf","sender_name":"Rolf","count":2,"path":"/user/chat","settings_path":"/user/settings"}'::jsonb) as id`,
      [userId, email, type],
    );
    return Number(rows[0]!.id);
  });
}

async function settingsOf(userId: string): Promise<Record<string, unknown> | null> {
  const { data } = await admin.from('user_settings').select('email_contact_requests, email_messages').eq('user_id', userId).maybeSingle();
  return data;
}

Deno.test('tokens: bound to one mail id, deterministic, forgeries refused', async () => {
  const a = await signUnsubscribeToken(42, stack.tokenSecret);
  assertEquals(a, await signUnsubscribeToken(42, stack.tokenSecret));
  assertEquals(await verifyUnsubscribeToken(a, stack.tokenSecret), 42);
  const [, sig] = a.split('.');
  assertEquals(await verifyUnsubscribeToken(`43.${sig}`, stack.tokenSecret), null);
  assertEquals(await verifyUnsubscribeToken(a, 'another-secret-another-secret-another'), null);
  for (const bad of ['', '42', '42.', '0.x', 'abc.def', `42.${sig}x`, null, 42, 'x'.repeat(500)]) {
    assertEquals(await verifyUnsubscribeToken(bad, stack.tokenSecret), null, String(bad));
  }
});

Deno.test('the rendered mail links to /unsubscribe and carries List-Unsubscribe; the link switches off that kind only', async () => {
  const user = await createConfirmedUser('unsub');
  // the minute cron job's worker must not claim the row first (the test would find no mail)
  await setEmailQueueCron(false);
  const sent: OutgoingEmail[] = [];
  const capture: MailSender = { send: (mail) => (sent.push(mail), Promise.resolve({ ok: true, id: `cap_${sent.length}` })) };
  let mailId = 0;
  let mail: OutgoingEmail | undefined;
  let status = '';
  try {
    // a worker the job started just before the pause may still be draining the queue and take the
    // row (seen in a full run): then the row is sent and marked so, and a second mail is queued
    for (let attempt = 1; attempt <= 3 && !mail; attempt++) {
      mailId = await queueMail(user.id, user.email, 'chat_unread');
      // send only this row: the others of the queue stay for the real worker
      await withDb((db) => db.query(`update public.email_queue set next_attempt_at = now() + interval '1 hour' where status = 'pending' and id <> $1`, [mailId]));
      await processEmailQueue(supabaseQueueStore(admin), capture, {
        siteUrl: stack.siteUrl,
        unsubscribeSecret: stack.tokenSecret,
        functionsUrl: `${stack.apiUrl}/functions/v1`,
        maxBatches: 1,
      });
      mail = sent.find((m) => m.to === user.email);
      status = await withDb(async (db) => (await db.query<{ status: string }>(`select status from public.email_queue where id = $1`, [mailId])).rows[0]?.status ?? 'gone');
      if (!mail && status === 'pending') break; // not taken by anyone: retrying would not help
    }
  } finally {
    await withDb((db) => db.query(`update public.email_queue set next_attempt_at = now() where status = 'pending' and next_attempt_at > now() + interval '50 minutes'`));
    await setEmailQueueCron(true);
  }
  assert(mail, `mail rendered (the queue row is ${status})`);
  const token = await signUnsubscribeToken(mailId, stack.tokenSecret);
  assert(mail.html.includes(`/unsubscribe?token=${token}`), 'one-click link in the body');
  assertEquals(mail.headers?.['List-Unsubscribe'], `<${stack.apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(token)}>`);
  assertEquals(mail.headers?.['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');

  const res = await answer(await handler(post({ token })));
  assertEquals(res.status, 200);
  assertEquals(res.body, { unsubscribed: true, kind: 'messages' });
  assertEquals(await settingsOf(user.id), { email_contact_requests: true, email_messages: false });
  // repeating is harmless
  assertEquals((await handler(post({ token }))).status, 200);
});

Deno.test('RFC 8058 one-click POST through the gateway; GET and bad tokens change nothing', async () => {
  const user = await createConfirmedUser('unsub-oneclick');
  const mailId = await queueMail(user.id, user.email, 'contact_request');
  const token = await signUnsubscribeToken(mailId, stack.tokenSecret);
  const url = `${stack.apiUrl}/functions/v1/unsubscribe?token=${encodeURIComponent(token)}`;

  const get = await fetch(url, { headers: { apikey: stack.anonKey } });
  await get.body?.cancel();
  assertEquals(get.status, 405);
  const forged = await fetch(url.replace(/token=\d+/, `token=${mailId + 1}`), {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assertEquals([forged.status, (await forged.json()).error.code], [400, 'token_invalid']);
  assertEquals(await settingsOf(user.id), null);

  const oneClick = await fetch(url, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assertEquals(oneClick.status, 200);
  assertEquals((await oneClick.json()).kind, 'contact_requests');
  assertEquals(await settingsOf(user.id), { email_contact_requests: false, email_messages: true });

  // a mail kind without an unsubscribe switch (e.g. password reset) is refused
  const other = await signUnsubscribeToken(await queueMail(user.id, user.email, 'password_reset'), stack.tokenSecret);
  const refused = await answer(await handler(post({ token: other })));
  assertEquals([refused.status, refused.body.error.code], [400, 'token_invalid']);
});
