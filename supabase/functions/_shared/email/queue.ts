/**
 * Drains `email_queue` (spec §7, issue 6): claim a batch (`claim_email_batch`, for update skip
 * locked), render each mail in the recipient's language, send it through Resend with the
 * idempotency key `email_queue:<id>`, then `complete_emails` (once per batch) or `fail_email`.
 *
 * Guarantees, with the database RPCs of the email migration:
 * - never sent twice: concurrent workers never claim the same row (skip locked); a row whose
 *   claim expired (worker died or was slow) is claimed again and re-sent with the same key and a
 *   byte-identical body, which Resend answers with the first send's result instead of sending;
 * - nothing lost: a failed send returns the row to pending with exponential backoff
 *   (30 s · 2^(attempts−1), max 1 h) until `maxAttempts`, then it is marked failed with its
 *   last error; a worker that dies mid-batch leaves rows in processing that are reclaimed once
 *   their lock expires.
 */
import { Resend } from 'resend';
import type { SupabaseClient } from '@supabase/supabase-js';
import { renderEmail, type EmailLang, type TemplateVars } from './render.ts';
import { localizedUrl } from '../accounts.ts';
import { env } from '../env.ts';
import { requireSecret } from '../secrets.ts';
import { signUnsubscribeToken, UNSUBSCRIBE_KINDS } from './unsubscribe.ts';
import { buildIcs, type IcsEvent } from '../site/index.ts';

/** A row returned by `claim_email_batch` (template already chosen for its language). */
export interface ClaimedEmail {
  id: number;
  user_id: string | null;
  email: string;
  email_type: string;
  lang: string;
  user_metadata: Record<string, unknown> | null;
  payload: Record<string, unknown> | null;
  attempts: number;
  subject: string | null;
  body: string | null;
}

/** The queue RPCs (service role). */
export interface QueueStore {
  claim(batchSize: number, lockSeconds: number): Promise<ClaimedEmail[]>;
  /** false when the row was no longer in processing (someone else finished it). */
  complete(id: number, providerMessageId: string | null): Promise<boolean>;
  /** Marks many rows sent in one call; returns how many changed. Optional (else one by one). */
  completeMany?(items: { id: number; providerMessageId: string | null }[]): Promise<number>;
  /** The row's new status, null when it was no longer in processing. */
  fail(id: number, error: string, maxAttempts: number): Promise<'pending' | 'failed' | null>;
}

/** An outgoing mail as Resend takes it. */
export interface OutgoingEmail {
  from: string;
  to: string | string[];
  subject: string;
  html: string;
  text?: string;
  replyTo?: string;
  tags?: { name: string; value: string }[];
  /** Extra headers, e.g. List-Unsubscribe (RFC 2369/8058). */
  headers?: Record<string, string>;
  /** Files (content base64), e.g. the ticket's event.ics (issue 16). */
  attachments?: { filename: string; content: string; contentType?: string }[];
}

/**
 * Result of one send: the provider id, or an error that is `retryable` (network, 429, 5xx,
 * concurrent request with the same key) or permanent (validation), or `alreadySent` when
 * Resend reports the key was used before with another body (the mail went out).
 */
export type SendResult =
  | { ok: true; id: string | null }
  | { ok: false; retryable: boolean; message: string; alreadySent?: boolean };

/** Sends one mail, with an idempotency key when given (Resend keeps keys 24 h). */
export interface MailSender {
  send(mail: OutgoingEmail, idempotencyKey?: string): Promise<SendResult>;
}

/** Tuning of one queue run. */
export interface QueueOptions {
  /** Rows per claim (1..1000), default 50. */
  batchSize?: number;
  /** Claim duration in seconds; an unfinished row is reclaimable after it. Default 60. */
  lockSeconds?: number;
  /** Attempts before a row is marked failed, default 5. */
  maxAttempts?: number;
  /** Parallel sends within a batch, default 8. */
  concurrency?: number;
  /** Stop claiming new batches after this many milliseconds, default 25 000. */
  timeBudgetMs?: number;
  /** Stop after this many batches (e.g. 1 for a quick kick after registration). */
  maxBatches?: number;
  /** Sender address, default EMAIL_FROM or 'Teamwerk <noreply@teamwerk.de>'. */
  from?: string;
  /** SPA origin for default links and the footer. */
  siteUrl: string;
  /**
   * TOKEN_SECRET for one-click unsubscribe links of notification mails (issue 13). Without it
   * those mails link to the settings page instead.
   */
  unsubscribeSecret?: string;
  /** `<project>/functions/v1`: target of the List-Unsubscribe one-click POST (RFC 8058). */
  functionsUrl?: string;
  /** Clock (ms since epoch) for the time budget. */
  now?: () => number;
}

/** Counts of one run: claimed rows, sent, failed attempts (of which `dead` became failed for good). */
export interface QueueRunResult {
  processed: number;
  sent: number;
  failed: number;
  dead: number;
}

/** The queue RPCs through a service-role Supabase client. Errors: throws the PostgREST error text. */
export function supabaseQueueStore(client: SupabaseClient): QueueStore {
  return {
    async claim(batchSize, lockSeconds) {
      const { data, error } = await client.rpc('claim_email_batch', { batch_size: batchSize, lock_seconds: lockSeconds });
      if (error) throw new Error(`claim_email_batch: ${error.message}`);
      return (data ?? []) as ClaimedEmail[];
    },
    async complete(id, providerMessageId) {
      const { data, error } = await client.rpc('complete_email', { p_id: id, p_provider_message_id: providerMessageId });
      if (error) throw new Error(`complete_email: ${error.message}`);
      return data === true;
    },
    async completeMany(items) {
      const { data, error } = await client.rpc('complete_emails', {
        p_ids: items.map((i) => i.id),
        p_provider_message_ids: items.map((i) => i.providerMessageId),
      });
      if (error) throw new Error(`complete_emails: ${error.message}`);
      return Number(data ?? 0);
    },
    async fail(id, message, maxAttempts) {
      const { data, error } = await client.rpc('fail_email', { p_id: id, p_error: message, p_max_attempts: maxAttempts });
      if (error) throw new Error(`fail_email: ${error.message}`);
      return (data ?? null) as 'pending' | 'failed' | null;
    },
  };
}

/**
 * A MailSender over the `resend` SDK. `baseUrl` defaults to RESEND_BASE_URL (the local
 * mailbox) or Resend's API. Resend error classification: 409 `invalid_idempotent_request` =
 * already sent; 409 `concurrent_idempotent_requests`, 429, 5xx and network errors retryable;
 * other 4xx permanent.
 */
export function resendSender(apiKey: string, baseUrl?: string): MailSender {
  const resend = new Resend(apiKey, baseUrl ? { baseUrl } : undefined);
  return {
    async send(mail, idempotencyKey) {
      let result;
      try {
        result = await resend.emails.send(mail, idempotencyKey ? { idempotencyKey } : undefined);
      } catch (err) {
        return { ok: false, retryable: true, message: err instanceof Error ? err.message : String(err) };
      }
      if (!result.error) return { ok: true, id: result.data?.id ?? null };
      const e = result.error as { statusCode?: number | null; name?: string; message?: string };
      const status = e.statusCode ?? null;
      const message = `resend ${status ?? 'network'} ${e.name ?? 'error'}: ${e.message ?? ''}`.trim();
      if (e.name === 'invalid_idempotent_request') return { ok: false, retryable: false, message, alreadySent: true };
      const retryable = status === null || status === 429 || status >= 500 || e.name === 'concurrent_idempotent_requests' || e.name === 'application_error';
      return { ok: false, retryable, message };
    },
  };
}

/**
 * The sender from the environment: RESEND_API_KEY (required, no default), RESEND_BASE_URL
 * (optional). Errors: throws MisconfiguredError (500 `server_misconfigured`, issue 12 §3) when
 * the key is missing or short.
 */
export function resendSenderFromEnv(): MailSender {
  return resendSender(requireSecret('RESEND_API_KEY'), env('RESEND_BASE_URL') || undefined);
}

/** Default link of a mail kind when its payload has none (welcome → the personal start page, a refunded duplicate → settings). */
function defaultLink(emailType: string, lang: EmailLang, siteUrl: string): string {
  if (emailType === 'welcome_email') return localizedUrl(siteUrl, lang, '/user');
  if (emailType === 'subscription_duplicate_refunded') return localizedUrl(siteUrl, lang, '/user/settings');
  return localizedUrl(siteUrl, lang, '/');
}

/** A site-relative path (`/user/chat/…`) of a payload, or null for anything else (no `//host`, no scheme). */
function sitePath(value: string | number | null | undefined): string | null {
  return typeof value === 'string' && /^\/(?!\/)[A-Za-z0-9\-._~/?=&%]*$/.test(value) ? value : null;
}

/**
 * Placeholder values of a row: user_metadata (names) overlaid by payload (links, amounts).
 * Database-queued mails that cannot know the site's address carry site-relative paths instead:
 * payload `path` becomes `{{link}}` and `<name>_path` becomes `{{<name>_link}}`, both in the
 * row's language (e.g. `settings_path: '/user/settings'` → `https://site/de/user/settings`).
 */
export function templateVars(row: ClaimedEmail, siteUrl: string): TemplateVars {
  const lang: EmailLang = row.lang === 'en' ? 'en' : 'de';
  const vars: TemplateVars = {};
  for (const source of [row.user_metadata ?? {}, row.payload ?? {}]) {
    for (const [k, v] of Object.entries(source)) {
      if (typeof v === 'string' || typeof v === 'number') vars[k] = v;
    }
  }
  for (const [k, v] of Object.entries(vars)) {
    const path = sitePath(v);
    if (k === 'path' && path && !vars.link) vars.link = localizedUrl(siteUrl, lang, path);
    else if (k.endsWith('_path') && path) vars[`${k.slice(0, -5)}_link`] = localizedUrl(siteUrl, lang, path);
  }
  if (!vars.link) vars.link = defaultLink(row.email_type, lang, siteUrl);
  return vars;
}

/**
 * The calendar file of a mail whose payload carries `ics` (the event's columns, see
 * private.sync_ticket_checkout): `event.ics` as text/calendar, base64. DTSTAMP is the payload's
 * `stamp` (when the ticket was paid) so a re-send is byte-identical (Resend idempotency). Null without `ics`.
 */
export function calendarAttachment(row: ClaimedEmail, lang: EmailLang, siteUrl: string): OutgoingEmail['attachments'] | null {
  const ics = row.payload?.ics as (IcsEvent & { stamp?: string }) | undefined;
  if (!ics || typeof ics !== 'object' || typeof ics.slug !== 'string') return null;
  const page = localizedUrl(siteUrl, lang, `/events/${ics.slug}`);
  const stamp = new Date(typeof ics.stamp === 'string' ? ics.stamp : 0);
  const text = buildIcs(ics, page, new URL(siteUrl).host, stamp);
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return [{ filename: 'event.ics', content: btoa(binary), contentType: 'text/calendar; charset=utf-8' }];
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

/**
 * Processes due mails until the queue is empty, `maxBatches` is reached or the time budget is
 * spent. Output: counts (see QueueRunResult). Errors: a failing claim RPC throws; errors of one
 * row (render, send, complete) are recorded on that row and do not stop the batch.
 */
export async function processEmailQueue(store: QueueStore, sender: MailSender, options: QueueOptions): Promise<QueueRunResult> {
  const batchSize = options.batchSize ?? 50;
  const lockSeconds = options.lockSeconds ?? 60;
  const maxAttempts = options.maxAttempts ?? 5;
  const concurrency = options.concurrency ?? 8;
  const now = options.now ?? Date.now;
  const deadline = now() + (options.timeBudgetMs ?? 25_000);
  const from = options.from ?? env('EMAIL_FROM', 'Teamwerk <noreply@teamwerk.de>');
  const result: QueueRunResult = { processed: 0, sent: 0, failed: 0, dead: 0 };

  for (let batch = 0; options.maxBatches === undefined || batch < options.maxBatches; batch++) {
    if (now() >= deadline) break;
    const rows = await store.claim(batchSize, lockSeconds);
    if (rows.length === 0) break;
    result.processed += rows.length;
    const completions = new CompletionBuffer(store);
    await pool(rows, concurrency, async (row) => {
      const outcome = await processRow(row, store, sender, completions, {
        from,
        maxAttempts,
        siteUrl: options.siteUrl,
        unsubscribeSecret: options.unsubscribeSecret,
        functionsUrl: options.functionsUrl,
      });
      if (outcome === 'sent') result.sent++;
      else if (outcome === 'dead') {
        result.failed++;
        result.dead++;
      } else if (outcome === 'retry') result.failed++;
    });
    await completions.flush();
    if (rows.length < batchSize) break;
  }
  return result;
}

/**
 * Collects sent rows and records them with one `complete_emails` call per batch. If the worker
 * dies before the flush, the rows are reclaimed after their lock and re-sent with the same
 * idempotency key, which Resend answers with the first result (no second mail).
 */
class CompletionBuffer {
  private items: { id: number; providerMessageId: string | null }[] = [];
  constructor(private readonly store: QueueStore) {}

  async add(id: number, providerMessageId: string | null): Promise<void> {
    if (!this.store.completeMany) {
      await this.store.complete(id, providerMessageId);
      return;
    }
    this.items.push({ id, providerMessageId });
  }

  /** Records the collected rows; on a failing bulk call, falls back to one call per row. */
  async flush(): Promise<void> {
    const items = this.items;
    this.items = [];
    if (items.length === 0 || !this.store.completeMany) return;
    try {
      await this.store.completeMany(items);
    } catch (err) {
      console.error(JSON.stringify({ fn: 'process-email-queue', completeMany: String(err) }));
      for (const item of items) {
        await this.store.complete(item.id, item.providerMessageId).catch(() => false);
      }
    }
  }
}

async function processRow(
  row: ClaimedEmail,
  store: QueueStore,
  sender: MailSender,
  completions: CompletionBuffer,
  opts: { from: string; maxAttempts: number; siteUrl: string; unsubscribeSecret?: string; functionsUrl?: string },
): Promise<'sent' | 'retry' | 'dead' | 'lost_claim'> {
  const recordFailure = async (message: string, permanent: boolean): Promise<'retry' | 'dead' | 'lost_claim'> => {
    // A permanent error fails the row now: max attempts = attempts already made.
    const status = await store.fail(row.id, message, permanent ? row.attempts : opts.maxAttempts);
    if (status === null) return 'lost_claim';
    return status === 'failed' ? 'dead' : 'retry';
  };
  try {
    if (!row.subject || !row.body) return await recordFailure(`no template for ${row.email_type}`, false);
    const lang: EmailLang = row.lang === 'en' ? 'en' : 'de';
    const vars = templateVars(row, opts.siteUrl);
    let headers: Record<string, string> | undefined;
    if (UNSUBSCRIBE_KINDS[row.email_type]) {
      // notification mails: one-click unsubscribe (issue 13), else the settings page
      vars.unsubscribe_link = vars.settings_link ?? localizedUrl(opts.siteUrl, lang, '/user/settings');
      if (opts.unsubscribeSecret) {
        const token = await signUnsubscribeToken(row.id, opts.unsubscribeSecret);
        vars.unsubscribe_link = localizedUrl(opts.siteUrl, lang, '/unsubscribe', { token });
        if (opts.functionsUrl) {
          headers = {
            'List-Unsubscribe': `<${opts.functionsUrl.replace(/\/+$/, '')}/unsubscribe?token=${encodeURIComponent(token)}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          };
        }
      }
    }
    const attachments = calendarAttachment(row, lang, opts.siteUrl);
    const rendered = await renderEmail({ subject: row.subject, body: row.body, lang, vars, siteUrl: opts.siteUrl }, row.email_type);
    const sent = await sender.send(
      {
        from: opts.from,
        to: row.email,
        subject: rendered.subject,
        html: rendered.html,
        text: rendered.text,
        tags: [{ name: 'email_type', value: row.email_type }],
        ...(headers ? { headers } : {}),
        ...(attachments ? { attachments } : {}),
      },
      `email_queue:${row.id}`,
    );
    if (sent.ok || sent.alreadySent) {
      await completions.add(row.id, sent.ok ? sent.id : null);
      return 'sent';
    }
    return await recordFailure(sent.message, !sent.retryable);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    try {
      return await recordFailure(message, false);
    } catch (inner) {
      // The row stays in processing and is reclaimed after its lock expires (nothing lost).
      console.error(JSON.stringify({ fn: 'process-email-queue', id: row.id, error: message, recordError: String(inner) }));
      return 'lost_claim';
    }
  }
}
