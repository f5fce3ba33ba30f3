/**
 * `send-email` (spec §2/§7 `/api/send-email`: to, subject, html).
 *
 * POST `{ to: string | string[] (≤ 50), subject, html, text?, reply_to? }` with
 * `Authorization: Bearer <service_role key>` or an admin's access token; an optional
 * `Idempotency-Key` header is passed on to Resend.
 * → 200 `{ id }` (Resend message id).
 * Errors: 401 `unauthorized` (anonymous: no open relay), 403 `forbidden` (signed-in non-admin),
 * 400 `validation_failed`, 502 `email_send_failed` with Resend's message, 405, 500.
 */
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { env } from '../_shared/env.ts';
import type { MailSender } from '../_shared/email/queue.ts';

const address = z.string().trim().max(320).pipe(z.email());
const Body = z.object({
  to: z.union([address, z.array(address).min(1).max(50)]),
  subject: z.string().trim().min(1).max(200),
  html: z.string().min(1).max(512 * 1024),
  text: z.string().max(512 * 1024).optional(),
  reply_to: address.optional(),
});

/** Dependencies of send-email. */
export interface SendEmailDeps {
  /** Throws HttpError 401/403 unless the caller is the service role or an admin. */
  authorize: (req: Request) => Promise<unknown>;
  sender: MailSender;
  from?: string;
}

/** Builds the request handler of `send-email` over its dependencies. */
export function createSendEmailHandler(deps: SendEmailDeps): (req: Request) => Promise<Response> {
  return withErrors('send-email', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    await deps.authorize(req);
    const body = await readBody(req, Body, 1024 * 1024 + 4096);
    const to = Array.isArray(body.to) ? body.to : [body.to];
    const key = req.headers.get('Idempotency-Key') ?? undefined;
    const result = await deps.sender.send(
      {
        from: deps.from ?? env('EMAIL_FROM', 'Teamwerk <noreply@teamwerk.de>'),
        to,
        subject: body.subject,
        html: body.html,
        ...(body.text ? { text: body.text } : {}),
        ...(body.reply_to ? { replyTo: body.reply_to } : {}),
      },
      key,
    );
    if (!result.ok) throw new HttpError(502, 'email_send_failed', result.message);
    return json({ id: result.id });
  });
}
