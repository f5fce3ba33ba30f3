/**
 * The local mailbox (issue 2 item 9): stands in for Resend on 127.0.0.1:<ports.mailbox>.
 *
 * - Resend API (`POST /emails`, `POST /emails/batch`, `GET /emails[/:id]`) so the `resend` SDK
 *   works with `RESEND_BASE_URL` pointing here (see resend-api.ts).
 * - `deliver(mail)` for in-process senders (auth's confirmation and recovery mails).
 * - Web pages: `/` lists messages newest first, `/messages/:id` shows one.
 * - JSON API for tests: `GET /api/messages?to=`, `GET /api/messages/:id`, `DELETE /api/messages[?to=]`.
 *
 * Messages persist under `<dataDir>/mailbox/` (store.ts).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BackgroundService, Mailer, OutgoingMail, StackContext } from '../../types.ts';
import { sendHtml, sendJson } from '../../http.ts';
import { MessageStore, type StoredMessage } from './store.ts';
import { handleResend } from './resend-api.ts';
import { FaultSwitch, faultsEnabled, pause, serveFaultControl } from '../../faults.ts';
import { listPage, messagePage, notFoundPage } from './pages.ts';

/** The mailbox as the daemon sees it, plus its store for in-process readers. */
export type MailboxService = BackgroundService & Mailer & { url: string; store: MessageStore };

/**
 * Starts the mailbox HTTP server on `ctx.config.ports.mailbox` (127.0.0.1) and opens its store.
 * Resolves once listening; rejects when the port is taken. `close()` stops the server and waits
 * for pending writes.
 */
export async function createMailbox(ctx: Omit<StackContext, 'mailer'>): Promise<MailboxService> {
  const store = await MessageStore.open(path.join(ctx.config.dataDir, 'mailbox'));

  const server = http.createServer((req, res) => {
    route(req, res, store, ctx.config.resendApiKey).catch((err: unknown) => {
      ctx.log('mailbox', 'request failed', { url: req.url, error: String(err) });
      if (!res.headersSent) sendJson(res, 500, { statusCode: 500, name: 'application_error', message: 'Internal server error.' });
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.ports.mailbox, ctx.config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  ctx.log('mailbox', `listening on http://${ctx.config.host}:${port}`);

  return {
    url: `http://${ctx.config.host}:${port}`,
    store,
    /**
     * Stores a mail sent by an in-process service (no Resend validation beyond a recipient).
     * Returns the new message id. Throws when `to` is empty.
     */
    async deliver(mail: OutgoingMail): Promise<{ id: string }> {
      if (!mail.to || mail.to.length === 0) throw new Error('mail without recipients');
      const msg: StoredMessage = {
        object: 'email',
        id: randomUUID(),
        from: mail.from,
        to: [...mail.to],
        cc: mail.cc ?? null,
        bcc: mail.bcc ?? null,
        reply_to: mail.reply_to ?? null,
        subject: mail.subject,
        html: mail.html ?? null,
        text: mail.text ?? null,
        headers: mail.headers ?? null,
        tags: mail.tags ?? null,
        attachments: null,
        scheduled_at: null,
        last_event: 'delivered',
        created_at: new Date().toISOString(),
        source: 'internal',
      };
      await store.add([msg]);
      return { id: msg.id };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.flush();
    },
  };
}

/** Provider faults of the fault suite (TEAMWERK_FAULTS=1 only; see ../../faults.ts). */
const faults = faultsEnabled() ? new FaultSwitch() : null;

async function route(req: http.IncomingMessage, res: http.ServerResponse, store: MessageStore, resendApiKey: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://mailbox.local');
  const pathname = url.pathname;
  const method = req.method ?? 'GET';

  // The Resend surface: /emails…, and any other path called with a bearer key (an SDK call of
  // an endpoint the mailbox does not offer gets Resend's JSON 404, not the HTML page).
  const isPage = pathname === '/' || pathname.startsWith('/messages/') || pathname.startsWith('/api/');
  if (faults && pathname === '/api/faults') {
    await serveFaultControl(req, res, faults, req.headers.authorization === `Bearer ${resendApiKey}`, '/emails');
    return;
  }
  if (pathname === '/emails' || pathname.startsWith('/emails/') || (!isPage && req.headers.authorization)) {
    // injected provider faults (fault suite only): sends fail with the rule's status after its delay
    const fault = method === 'POST' ? (faults?.match(pathname) ?? null) : null;
    if (fault) {
      await pause(fault.delay_ms ?? 0);
      if (fault.status !== undefined) {
        req.resume();
        const name = fault.status === 429 ? 'rate_limit_exceeded' : 'internal_server_error';
        const headers: Record<string, string> = fault.status === 429 ? { 'retry-after': '1' } : {};
        sendJson(res, fault.status, { statusCode: fault.status, name, message: `Injected fault: ${name}` }, headers);
        return;
      }
    }
    await handleResend(req, res, pathname, store, resendApiKey);
    return;
  }

  if (pathname === '/api/messages') {
    const to = url.searchParams.get('to') ?? undefined;
    if (method === 'GET') {
      sendJson(res, 200, store.list({ to }));
      return;
    }
    if (method === 'DELETE') {
      const deleted = await store.delete({ to });
      sendJson(res, 200, { deleted });
      return;
    }
    req.resume();
    sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, DELETE' });
    return;
  }
  const apiMatch = /^\/api\/messages\/([^/]+)$/.exec(pathname);
  if (apiMatch) {
    req.resume();
    if (method !== 'GET') {
      sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET' });
      return;
    }
    const msg = store.get(safeDecode(apiMatch[1]!));
    if (!msg) sendJson(res, 404, { error: 'message not found' });
    else sendJson(res, 200, msg);
    return;
  }

  req.resume();
  if (method !== 'GET' && method !== 'HEAD') {
    sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET' });
    return;
  }
  if (pathname === '/') {
    sendHtml(res, 200, listPage(store.list()));
    return;
  }
  const pageMatch = /^\/messages\/([^/]+)$/.exec(pathname);
  const msg = pageMatch ? store.get(safeDecode(pageMatch[1]!)) : undefined;
  if (msg) sendHtml(res, 200, messagePage(msg));
  else sendHtml(res, 404, notFoundPage());
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
