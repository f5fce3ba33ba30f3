/**
 * send-email through the gateway against the running local stack: no open relay (anonymous
 * 401, normal users 403), the service role and admins may send; bad input; Resend failure.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import { answer, createConfirmedUser, invoke, mailbox, post, stack, uniqueEmail, withDb } from '../_shared/testing.ts';
import { createSendEmailHandler } from './handler.ts';
import { resendSender } from '../_shared/email/queue.ts';

const service = { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey };

Deno.test({
  name: 'send-email',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await t.step('anonymous and normal users are refused, nothing is sent', async () => {
      const to = uniqueEmail('relay');
      const mail = { to, subject: 'Spam', html: '<p>spam</p>' };
      const anon = await invoke('send-email', mail);
      assertEquals([anon.status, anon.body.error?.code], [401, 'unauthorized']);
      const noToken = await invoke('send-email', mail, { token: null });
      assertEquals(noToken.status, 401);
      const user = await createConfirmedUser('relay-user');
      const asUser = await invoke('send-email', mail, { token: user.accessToken });
      assertEquals([asUser.status, asUser.body.error?.code], [403, 'forbidden']);
      const forged = await invoke('send-email', mail, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2lnbmF0dXJl' });
      assertEquals(forged.status, 401);
      assertEquals((await mailbox(to)).length, 0);
    });

    await t.step('the service role and admins send: to, subject, html', async () => {
      const to = uniqueEmail('relay-ok');
      const res = await invoke('send-email', { to, subject: 'Hallo', html: '<p>Hallo Welt</p>' }, service);
      assertEquals(res.status, 200, JSON.stringify(res.body));
      assert(typeof res.body.id === 'string');
      const [mail] = await mailbox(to);
      assertEquals([mail!.id, mail!.subject, mail!.html], [res.body.id, 'Hallo', '<p>Hallo Welt</p>']);

      const admin = await createConfirmedUser('relay-admin');
      await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));
      const second = uniqueEmail('relay-admin-to');
      const byAdmin = await invoke('send-email', { to: [second, to], subject: 'Info', html: '<b>x</b>', text: 'x' }, { token: admin.accessToken });
      assertEquals(byAdmin.status, 200, JSON.stringify(byAdmin.body));
      assertEquals((await mailbox(second)).length, 1);
      assertEquals((await mailbox(to)).length, 2);
    });

    await t.step('bad input → 400 validation_failed; Resend failure → 502 with its message', async () => {
      for (const body of [{}, { to: 'x', subject: 's', html: 'h' }, { to: uniqueEmail('v'), subject: '', html: 'h' }, { to: uniqueEmail('v'), subject: 's' }, { to: [], subject: 's', html: 'h' }]) {
        const res = await invoke('send-email', body, service);
        assertEquals([res.status, res.body.error?.code], [400, 'validation_failed'], JSON.stringify(body));
      }
      const down = createSendEmailHandler({ authorize: () => Promise.resolve(null), sender: resendSender(stack.resendApiKey, 'http://127.0.0.1:9') });
      const res = await answer(await down(post({ to: uniqueEmail('down'), subject: 's', html: 'h' })));
      assertEquals([res.status, res.body.error.code], [502, 'email_send_failed']);
      const badKey = createSendEmailHandler({ authorize: () => Promise.resolve(null), sender: resendSender('re_wrong', stack.mailboxUrl) });
      const res2 = await answer(await badKey(post({ to: uniqueEmail('down'), subject: 's', html: 'h' })));
      assertEquals(res2.status, 502);
      assert(/API key is invalid/.test(res2.body.error.message), res2.body.error.message);
    });
  },
});
