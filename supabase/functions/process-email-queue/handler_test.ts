/**
 * process-email-queue against the running local stack (TEAMWERK_STACK_OFFSET): rendering,
 * retries with backoff, permanent failures, a worker dying mid-batch, Resend down then up,
 * concurrent workers, and who may call it. The minute cron job is paused while these run so
 * only the test's workers touch the queue.
 */
import { assert, assertEquals } from '../_shared/assert.ts';
import {
  createConfirmedUser,
  invoke,
  mailbox,
  post,
  answer,
  serviceClient,
  setEmailQueueCron,
  stack,
  uniqueEmail,
  withDb,
} from '../_shared/testing.ts';
import { createProcessEmailQueueHandler } from './handler.ts';
import { processEmailQueue, resendSender, supabaseQueueStore, type MailSender } from '../_shared/email/queue.ts';

const store = supabaseQueueStore(serviceClient());
const mailboxSender = resendSender(stack.resendApiKey, stack.mailboxUrl);
/** Resend unreachable: nothing listens on port 9 (discard) locally. */
const downSender = resendSender(stack.resendApiKey, 'http://127.0.0.1:9');
const options = { siteUrl: stack.siteUrl, batchSize: 50, maxAttempts: 3 };

/**
 * Sends every pending row with the mailbox, also those whose retry is not due yet, so a step that
 * counts processed rows starts from an empty queue: rows earlier steps of `npm test` left waiting
 * (a backoff of 30-60 s) would otherwise fall due in the middle of the step and be counted.
 */
async function drain(): Promise<void> {
  await withDb((db) => db.query(`update public.email_queue set next_attempt_at = now() where status = 'pending' and next_attempt_at > now()`));
  await processEmailQueue(store, mailboxSender, { siteUrl: stack.siteUrl, timeBudgetMs: 60_000 });
}

interface Row {
  id: number;
  status: string;
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  backoff_s: number;
}

async function enqueue(
  emails: string[],
  type = 'welcome_email',
  lang = 'de',
  meta: Record<string, unknown> = { firstname: 'Anna', lastname: 'Schmidt' },
): Promise<number[]> {
  return await withDb(async (db) => {
    const res = await db.query(
      `insert into public.email_queue (email, email_type, lang, user_metadata, payload)
       select e, $2, $3, $4::jsonb, '{}'::jsonb from unnest($1::text[]) e returning id`,
      [emails, type, lang, JSON.stringify(meta)],
    );
    return res.rows.map((r: { id: string }) => Number(r.id));
  });
}

async function rows(ids: number[]): Promise<Row[]> {
  return await withDb(async (db) => {
    const res = await db.query(
      `select id, status, attempts, last_error, provider_message_id,
              round(extract(epoch from next_attempt_at - now()))::int as backoff_s
       from public.email_queue where id = any($1::bigint[]) order by id`,
      [ids],
    );
    return res.rows.map((r: Row & { id: string }) => ({ ...r, id: Number(r.id) }));
  });
}

async function makeDue(ids: number[]): Promise<void> {
  await withDb((db) => db.query(`update public.email_queue set next_attempt_at = now() where id = any($1::bigint[])`, [ids]));
}

Deno.test({
  name: 'process-email-queue',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await setEmailQueueCron(false);
    try {
      await drain();

      await t.step('renders the template in the row language, escapes placeholders, sends once with provider id', async () => {
        const de = uniqueEmail('render-de');
        const en = uniqueEmail('render-en');
        const evil = { firstname: '<script>alert(1)</script>', lastname: 'O\'Neil & "Co"' };
        const [deId] = await enqueue([de], 'welcome_email', 'de', evil);
        const [enId] = await enqueue([en], 'welcome_email', 'en', { firstname: 'Jane', lastname: 'Doe' });
        const handler = createProcessEmailQueueHandler({ authorize: () => Promise.resolve(null), store, sender: mailboxSender, options });
        const res = await answer(await handler(post({})));
        assertEquals(res.status, 200);
        assertEquals(res.body, { processed: 2, sent: 2, failed: 0, dead: 0 });

        const [deMail] = await mailbox(de);
        assert(deMail, 'German mail arrived');
        assertEquals(deMail.subject, 'Willkommen bei Teamwerk, <script>alert(1)</script>!');
        assert(deMail.html!.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'name escaped in HTML');
        assert(!deMail.html!.includes('<script>'), 'no raw script tag');
        assert(deMail.html!.includes('lang="de"'));
        assert(deMail.html!.includes(`${stack.siteUrl}/de/user`), 'welcome links to /de/user');
        assert(deMail.text!.startsWith('Hallo <script>alert(1)</script>,'), 'plain text has the raw name');
        const [enMail] = await mailbox(en);
        assertEquals(enMail!.subject, 'Welcome to Teamwerk, Jane!');
        assert(enMail!.html!.includes(`href="${stack.siteUrl}/user"`), 'English link without /de');
        assert(enMail!.text!.includes('Hi Jane,'));

        const state = await rows([deId!, enId!]);
        assertEquals(state.map((r) => [r.status, r.attempts]), [['sent', 1], ['sent', 1]]);
        assertEquals(state[0]!.provider_message_id, deMail.id);
        assertEquals(state[1]!.provider_message_id, enMail!.id);
        // A second run finds nothing: nothing is sent twice.
        assertEquals((await answer(await handler(post({})))).body.processed, 0);
        assertEquals((await mailbox(de)).length, 1);
      });

      await t.step('Resend down: retries with exponential backoff, then failed with the last error', async () => {
        await drain();
        const to = uniqueEmail('backoff');
        const [id] = await enqueue([to]);
        let r = await processEmailQueue(store, downSender, options);
        assertEquals(r, { processed: 1, sent: 0, failed: 1, dead: 0 });
        let [row] = await rows([id!]);
        assertEquals([row!.status, row!.attempts], ['pending', 1]);
        assert(Math.abs(row!.backoff_s - 30) <= 2, `first backoff ~30 s, got ${row!.backoff_s}`);
        assert(row!.last_error!.includes('resend'), row!.last_error!);
        // Not due yet: a run now does not touch it.
        assertEquals((await processEmailQueue(store, downSender, options)).processed, 0);

        await makeDue([id!]);
        await processEmailQueue(store, downSender, options);
        [row] = await rows([id!]);
        assertEquals([row!.status, row!.attempts], ['pending', 2]);
        assert(Math.abs(row!.backoff_s - 60) <= 2, `second backoff ~60 s, got ${row!.backoff_s}`);

        await makeDue([id!]);
        r = await processEmailQueue(store, downSender, options);
        assertEquals(r, { processed: 1, sent: 0, failed: 1, dead: 1 });
        [row] = await rows([id!]);
        assertEquals([row!.status, row!.attempts], ['failed', 3]);
        assert(row!.last_error, 'last error kept');
        assertEquals((await mailbox(to)).length, 0);
      });

      await t.step('a permanent error (422 from Resend) fails the row at once', async () => {
        await drain();
        const to = uniqueEmail('permanent');
        const [id] = await enqueue([to]);
        const rejecting: MailSender = { send: () => Promise.resolve({ ok: false, retryable: false, message: 'resend 422 validation_error: bad from' }) };
        const r = await processEmailQueue(store, rejecting, options);
        assertEquals(r, { processed: 1, sent: 0, failed: 1, dead: 1 });
        const [row] = await rows([id!]);
        assertEquals([row!.status, row!.attempts, row!.last_error], ['failed', 1, 'resend 422 validation_error: bad from']);
      });

      await t.step('Resend down then up: no mail lost, none duplicated', async () => {
        await drain();
        const addresses = Array.from({ length: 12 }, () => uniqueEmail('downup'));
        const ids = await enqueue(addresses, 'welcome_email', 'en', { firstname: 'Max', lastname: 'Muster' });
        const down = await processEmailQueue(store, downSender, options);
        assertEquals([down.processed, down.sent, down.failed], [12, 0, 12]);
        assert((await rows(ids)).every((r) => r.status === 'pending' && r.attempts === 1));
        await makeDue(ids);
        const up = await processEmailQueue(store, mailboxSender, options);
        assertEquals([up.processed, up.sent, up.failed], [12, 12, 0]);
        const after = await rows(ids);
        assert(after.every((r) => r.status === 'sent' && r.attempts === 2 && r.provider_message_id));
        for (const a of addresses) assertEquals((await mailbox(a)).length, 1, a);
      });

      await t.step('a worker that dies after sending: the row is reclaimed after its lock and not sent again', async () => {
        await drain();
        const addresses = [uniqueEmail('dies-a'), uniqueEmail('dies-b')];
        const ids = await enqueue(addresses);
        // The dying worker: claims for 1 s, sends the first mail, dies before complete_email.
        const claimed = await store.claim(10, 1);
        assertEquals(claimed.map((c) => c.id).sort(), [...ids].sort());
        const first = claimed.find((c) => c.id === ids[0])!;
        const { renderEmail } = await import('../_shared/email/render.ts');
        const { templateVars } = await import('../_shared/email/queue.ts');
        const rendered = await renderEmail(
          { subject: first.subject!, body: first.body!, lang: 'de', vars: templateVars(first, stack.siteUrl), siteUrl: stack.siteUrl },
          first.email_type,
        );
        const sent = await mailboxSender.send(
          { from: 'Teamwerk <noreply@teamwerk.de>', to: first.email, subject: rendered.subject, html: rendered.html, text: rendered.text, tags: [{ name: 'email_type', value: first.email_type }] },
          `email_queue:${first.id}`,
        );
        assert(sent.ok);
        // While the claim holds, nobody else gets the rows.
        assertEquals((await processEmailQueue(store, mailboxSender, options)).processed, 0);
        await new Promise((r) => setTimeout(r, 1200));
        const r = await processEmailQueue(store, mailboxSender, options);
        assertEquals([r.processed, r.sent], [2, 2]);
        assertEquals((await mailbox(addresses[0]!)).length, 1, 'replayed by the idempotency key, not re-sent');
        assertEquals((await mailbox(addresses[1]!)).length, 1);
        const state = await rows(ids);
        assertEquals(state[0]!.provider_message_id, sent.ok ? sent.id : null, 'the first send\'s id');
        assert(state.every((s) => s.status === 'sent'));
      });

      await t.step('two concurrent workers (through the gateway) never send a row twice', async () => {
        await drain();
        const tag = crypto.randomUUID().slice(0, 8);
        const addresses = Array.from({ length: 150 }, (_, i) => `conc-${tag}-${i}@test.teamwerk.de`);
        const ids = await enqueue(addresses);
        const call = () => invoke('process-email-queue', {}, { token: stack.serviceRoleKey, apikey: stack.serviceRoleKey });
        const [a, b] = await Promise.all([call(), call()]);
        assertEquals([a.status, b.status], [200, 200]);
        const rest = await processEmailQueue(store, mailboxSender, options);
        // at least these 150: mails the stack's other cron jobs queue meanwhile (unread messages,
        // reminders) are due too and are sent by the same calls (a full run counted 165); that no
        // row went out twice is what the mailbox and the rows below show
        assert(a.body.processed + b.body.processed + rest.processed >= 150, 'every row processed');
        assert(a.body.sent + b.body.sent + rest.sent >= 150, 'every row sent');
        const all = await (await fetch(`${stack.mailboxUrl}/api/messages`)).json();
        const mine = (all as { to: string[]; id: string }[]).filter((m) => m.to.some((x) => x.startsWith(`conc-${tag}-`)));
        assertEquals(mine.length, 150, 'one message per row');
        assertEquals(new Set(mine.map((m) => m.to[0])).size, 150);
        const state = await rows(ids);
        assert(state.every((s) => s.status === 'sent' && s.attempts === 1));
        assertEquals(new Set(state.map((s) => s.provider_message_id)).size, 150, 'distinct provider ids');
      });

      await t.step('only the service role and admins may call it', async () => {
        const anon = await invoke('process-email-queue', {}, { token: stack.anonKey });
        assertEquals([anon.status, anon.body.error?.code], [401, 'unauthorized']);
        const user = await createConfirmedUser('queue-user');
        const asUser = await invoke('process-email-queue', {}, { token: user.accessToken });
        assertEquals([asUser.status, asUser.body.error?.code], [403, 'forbidden']);
        const admin = await createConfirmedUser('queue-admin');
        await withDb((db) => db.query(`update public.profiles set user_role = 'admin' where id = $1`, [admin.id]));
        const asAdmin = await invoke('process-email-queue', {}, { token: admin.accessToken });
        assertEquals(asAdmin.status, 200);
        const get = await invoke('process-email-queue', undefined, { token: stack.serviceRoleKey, method: 'GET' });
        assertEquals(get.status, 405);
      });
    } finally {
      await setEmailQueueCron(true);
    }
  },
});
