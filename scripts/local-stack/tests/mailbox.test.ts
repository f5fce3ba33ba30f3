/**
 * Contract tests of the local mailbox (issue 2 item 9): the official `resend` SDK, pointed at
 * the mailbox with RESEND_BASE_URL, sends single and batch e-mails that show up in the JSON API
 * and on the web page; Resend's error statuses and shapes for bad keys and bad bodies; the
 * Idempotency-Key contract; persistence of the store across restarts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Resend } from 'resend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, uniqueEmail } from '../../test-support/clients.ts';
import { MessageStore, type StoredMessage } from '../services/mailbox/store.ts';

const mailbox = config.mailboxUrl;

function resend(key = config.resendApiKey): Resend {
  process.env.RESEND_BASE_URL = mailbox;
  return new Resend(key);
}

async function messagesTo(address: string): Promise<StoredMessage[]> {
  const res = await fetch(`${mailbox}/api/messages?to=${encodeURIComponent(address)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as StoredMessage[];
}

async function postRaw(pathname: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${mailbox}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.resendApiKey}`, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, json };
}

const from = 'Teamwerk <noreply@teamwerk.de>';

describe('Resend API: emails.send', () => {
  it('stores a sent e-mail, readable through the JSON API, emails.get and the web page', async () => {
    const to = uniqueEmail('send');
    const subject = `Willkommen <b>${randomUUID().slice(0, 6)}</b>`;
    const { data, error } = await resend().emails.send({
      from,
      to,
      subject,
      html: '<p>Hallo <a href="http://127.0.0.1:5173/confirm?token=abc">bestätigen</a></p>',
      text: 'Hallo, bitte bestätigen',
      tags: [{ name: 'category', value: 'confirm_email' }],
    });
    expect(error).toBeNull();
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await messagesTo(to.toUpperCase());
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: data!.id,
      from,
      to: [to],
      subject,
      text: 'Hallo, bitte bestätigen',
      tags: [{ name: 'category', value: 'confirm_email' }],
    });
    expect(list[0]!.html).toContain('confirm?token=abc');

    const one = await fetch(`${mailbox}/api/messages/${data!.id}`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as StoredMessage).subject).toBe(subject);

    const got = await resend().emails.get(data!.id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ object: 'email', id: data!.id, to: [to], subject, last_event: 'delivered' });

    const page = await (await fetch(`${mailbox}/`)).text();
    expect(page).toContain(`href="/messages/${data!.id}"`);
    expect(page).toContain('Willkommen &lt;b&gt;');
    expect(page).not.toContain(subject);
    const detail = await fetch(`${mailbox}/messages/${data!.id}`);
    expect(detail.status).toBe(200);
    const detailHtml = await detail.text();
    expect(detailHtml).toMatch(/<iframe[^>]+sandbox="[^"]*"[^>]+srcdoc="[^"]*confirm\?token=abc/);
    expect(detailHtml).toContain('Hallo, bitte bestätigen');
  });

  it('lists newest first and deletes by recipient only', async () => {
    const to = uniqueEmail('order');
    const other = uniqueEmail('other');
    for (const subject of ['first', 'second']) {
      const { error } = await resend().emails.send({ from, to, subject, text: subject });
      expect(error).toBeNull();
    }
    await resend().emails.send({ from, to: other, subject: 'keep', text: 'keep' });
    expect((await messagesTo(to)).map((m) => m.subject)).toEqual(['second', 'first']);

    const del = await fetch(`${mailbox}/api/messages?to=${encodeURIComponent(to)}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ deleted: 2 });
    expect(await messagesTo(to)).toEqual([]);
    expect(await messagesTo(other)).toHaveLength(1);
    expect((await fetch(`${mailbox}/api/messages/${randomUUID()}`)).status).toBe(404);
  });

  it('answers a missing API key with 401 missing_api_key and a wrong one with 403 invalid_api_key', async () => {
    const to = uniqueEmail('badkey');
    const wrong = await resend('re_not_the_local_key').emails.send({ from, to, subject: 'x', text: 'x' });
    expect(wrong.data).toBeNull();
    expect(wrong.error).toEqual({ statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid.' });

    const res = await fetch(`${mailbox}/emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from, to, subject: 'x', text: 'x' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header.' });
    expect(await messagesTo(to)).toEqual([]);
  });

  it('rejects malformed JSON, missing fields and wrong types with Resend error shapes, storing nothing', async () => {
    const to = uniqueEmail('invalid');
    const malformed = await postRaw('/emails', `{"from":"${from}","to":"${to}",`);
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ statusCode: 400, name: 'validation_error' });

    const missing = await resend().emails.send({ from, to, text: 'no subject' } as never);
    expect(missing.error).toEqual({ statusCode: 422, name: 'missing_required_field', message: 'Missing `subject` field.' });

    const wrongType = await postRaw('/emails', JSON.stringify({ from, to: [to, 42], subject: 's', text: 't' }));
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ statusCode: 422, name: 'validation_error' });

    const badAddress = await resend().emails.send({ from: 'not an address', to, subject: 's', text: 't' });
    expect(badAddress.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(badAddress.error?.message).toContain('`from`');

    const notObject = await postRaw('/emails', '[1,2,3]');
    expect(notObject.status).toBe(422);

    expect(await messagesTo(to)).toEqual([]);
  });

  it('answers a body over 10 MiB with 413 and stays up', async () => {
    const to = uniqueEmail('huge');
    const huge = await postRaw('/emails', JSON.stringify({ from, to, subject: 'huge', html: 'x'.repeat(11 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(huge.json).toMatchObject({ statusCode: 413 });
    expect(await messagesTo(to)).toEqual([]);
    const after = await resend().emails.send({ from, to, subject: 'after', text: 'still up' });
    expect(after.error).toBeNull();
    expect(await messagesTo(to)).toHaveLength(1);
  });

  it('unknown endpoints and methods give not_found / method_not_allowed', async () => {
    const res = await fetch(`${mailbox}/domains`, { headers: { authorization: `Bearer ${config.resendApiKey}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, name: 'not_found' });
    const put = await fetch(`${mailbox}/emails`, { method: 'PUT', headers: { authorization: `Bearer ${config.resendApiKey}` } });
    expect(put.status).toBe(405);
    expect(await put.json()).toMatchObject({ statusCode: 405, name: 'method_not_allowed' });
    const missing = await resend().emails.get(randomUUID());
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });
});

describe('Resend API: Idempotency-Key', () => {
  it('returns the same id for the same key and body, and stores the e-mail once', async () => {
    const to = uniqueEmail('idem');
    const key = `welcome-${randomUUID()}`;
    const payload = { from, to, subject: 'Willkommen', html: '<p>Hallo</p>' };
    const first = await resend().emails.send(payload, { idempotencyKey: key });
    const second = await resend().emails.send({ ...payload }, { idempotencyKey: key });
    expect(first.error).toBeNull();
    expect(second.data?.id).toBe(first.data?.id);
    expect(await messagesTo(to)).toHaveLength(1);
  });

  it('answers the same key with another body with 409 invalid_idempotent_request', async () => {
    const to = uniqueEmail('idem409');
    const key = `k-${randomUUID()}`;
    const ok = await resend().emails.send({ from, to, subject: 'A', text: 'a' }, { idempotencyKey: key });
    expect(ok.error).toBeNull();
    const conflict = await resend().emails.send({ from, to, subject: 'B', text: 'b' }, { idempotencyKey: key });
    expect(conflict.data).toBeNull();
    expect(conflict.error).toEqual({
      statusCode: 409,
      name: 'invalid_idempotent_request',
      message: 'Same idempotency key used with a different request payload.',
    });
    expect((await messagesTo(to)).map((m) => m.subject)).toEqual(['A']);
  });

  it('rejects a key longer than 256 characters with 400 invalid_idempotency_key', async () => {
    const to = uniqueEmail('idemlong');
    const res = await resend().emails.send({ from, to, subject: 'x', text: 'x' }, { idempotencyKey: 'k'.repeat(257) });
    expect(res.error).toMatchObject({ statusCode: 400, name: 'invalid_idempotency_key' });
    expect(await messagesTo(to)).toEqual([]);
  });
});

describe('Resend API: batch.send', () => {
  it('stores every e-mail of a batch and returns their ids in order', async () => {
    const a = uniqueEmail('batch-a');
    const b = uniqueEmail('batch-b');
    const { data, error } = await resend().batch.send([
      { from, to: a, subject: 'Batch A', text: 'a' },
      { from, to: [b], subject: 'Batch B', html: '<p>b</p>' },
    ]);
    expect(error).toBeNull();
    expect(data?.data).toHaveLength(2);
    const [ma] = await messagesTo(a);
    const [mb] = await messagesTo(b);
    expect(ma?.id).toBe(data!.data[0]!.id);
    expect(mb?.id).toBe(data!.data[1]!.id);
    expect(mb?.subject).toBe('Batch B');
  });

  it('strict validation rejects the whole batch; permissive stores the valid ones and lists errors', async () => {
    const a = uniqueEmail('strict-a');
    const strict = await resend().batch.send([
      { from, to: a, subject: 'ok', text: 'ok' },
      { from, to: 'not-an-address', subject: 'bad', text: 'bad' },
    ]);
    expect(strict.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(await messagesTo(a)).toEqual([]);

    const permissive = await resend().batch.send(
      [
        { from, to: a, subject: 'ok', text: 'ok' },
        { from, to: 'not-an-address', subject: 'bad', text: 'bad' },
      ],
      { batchValidation: 'permissive' },
    );
    expect(permissive.error).toBeNull();
    const body = permissive.data as unknown as { data: { id: string }[]; errors: { index: number; message: string }[] };
    expect(body.data).toHaveLength(1);
    expect(body.errors).toEqual([{ index: 1, message: expect.stringContaining('`to`') as unknown as string }]);
    expect(await messagesTo(a)).toHaveLength(1);
  });

  it('rejects a batch that is not an array', async () => {
    const res = await postRaw('/emails/batch', JSON.stringify({ from, to: uniqueEmail('nb'), subject: 's', text: 't' }));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});

describe('MessageStore persistence', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mailbox-store-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps messages and idempotency records across a reopen, and deletions too', async () => {
    const msg = (to: string): StoredMessage => ({
      object: 'email',
      id: randomUUID(),
      from,
      to: [to],
      cc: null,
      bcc: null,
      reply_to: null,
      subject: `to ${to}`,
      html: null,
      text: 'x',
      headers: null,
      tags: null,
      attachments: null,
      scheduled_at: null,
      last_event: 'delivered',
      created_at: new Date().toISOString(),
      source: 'internal',
    });
    const store = await MessageStore.open(dir);
    const a = msg('a@example.com');
    const b = msg('b@example.com');
    await store.add([a, b]);
    await store.remember({ key: 'k', endpoint: '/emails', bodyHash: 'h', status: 200, response: { id: a.id }, createdAt: Date.now() });

    const reopened = await MessageStore.open(dir);
    expect(reopened.list().map((m) => m.id)).toEqual([b.id, a.id]);
    expect(reopened.idempotent('/emails', 'k')?.response).toEqual({ id: a.id });

    expect(await reopened.delete({ to: 'A@example.com' })).toBe(1);
    const third = await MessageStore.open(dir);
    expect(third.list().map((m) => m.id)).toEqual([b.id]);
  });
});
