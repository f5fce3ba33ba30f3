/**
 * Contracts between the local stack's gateway/daemon and its services.
 *
 * Every in-process service (auth, storage, realtime, mailbox, stripe sandbox, cron/net worker)
 * is created by a factory `(ctx: StackContext) => Promise<Service>`; the daemon starts them in
 * order and closes them in reverse order on shutdown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type pg from 'pg';
import type { StackConfig } from './config.ts';

/** A mail as GoTrue/Resend would send it; stored by the mailbox. */
export interface OutgoingMail {
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  cc?: string[];
  bcc?: string[];
  reply_to?: string[];
  headers?: Record<string, string>;
  tags?: { name: string; value: string }[];
}

export interface Mailer {
  /** Stores a mail in the local mailbox; returns its id. */
  deliver(mail: OutgoingMail): Promise<{ id: string }>;
}

export interface StackContext {
  config: StackConfig;
  /** Pool connected as the postgres superuser. Use `withClaims` (db.ts) to act as a caller. */
  pool: pg.Pool;
  mailer: Mailer;
  log: (scope: string, message: string, extra?: unknown) => void;
}

/** A service mounted on the gateway under a path prefix (e.g. `/auth/v1`). */
export interface HttpService {
  /** `subpath` is the URL path after the prefix, starting with `/`, without the query string. */
  handle(req: IncomingMessage, res: ServerResponse, subpath: string): void | Promise<void>;
  /** WebSocket upgrades under the prefix (realtime only). */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string): void;
  close(): Promise<void>;
}

/** A background or standalone service (own port, worker loop). */
export interface BackgroundService {
  close(): Promise<void>;
}
