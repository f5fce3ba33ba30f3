/**
 * Test support for the Deno function tests (not imported by any function).
 *
 * Reads the addresses and keys of the local stack of TEAMWERK_STACK_OFFSET from its config
 * (scripts/local-stack/config.ts: every port + offset; the secrets generated for its data folder,
 * issue 12 §3) and puts them into the environment unless already set, so handlers built with the
 * env-based dependencies talk to that stack and sign tokens with its TOKEN_SECRET:
 *   SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SUPABASE_PUBLISHABLE_KEYS,
 *   SUPABASE_SECRET_KEYS, SUPABASE_DB_URL, TOKEN_SECRET, RESEND_API_KEY, RESEND_BASE_URL (the
 *   mailbox), SITE_URL.
 * Run: `TEAMWERK_STACK_OFFSET=<n> node_modules/.bin/deno test --allow-all <files>` with that
 * stack started (`TEAMWERK_STACK_OFFSET=<n> npm run stack:start`).
 */
import pg from 'pg';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { stackConfig, type StackConfig } from '../../../scripts/local-stack/config.ts';
import { functionsEnv } from '../../../scripts/local-stack/services/functions/env.ts';

/** The local stack's config (ports, keys, generated secrets). */
export const stackConf: StackConfig = stackConfig({ TEAMWERK_STACK_OFFSET: Deno.env.get('TEAMWERK_STACK_OFFSET') ?? '0', SITE_URL: Deno.env.get('SITE_URL') });

/** Addresses and keys of the stack under test. */
export const stack = {
  offset: stackConf.offset,
  apiUrl: Deno.env.get('SUPABASE_URL') ?? stackConf.apiUrl,
  dbUrl: Deno.env.get('SUPABASE_DB_URL') ?? stackConf.dbUrl,
  mailboxUrl: Deno.env.get('RESEND_BASE_URL') ?? stackConf.mailboxUrl,
  siteUrl: Deno.env.get('SITE_URL') ?? stackConf.siteUrl,
  anonKey: Deno.env.get('SUPABASE_ANON_KEY') ?? stackConf.anonKey,
  serviceRoleKey: Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? stackConf.serviceRoleKey,
  tokenSecret: Deno.env.get('TOKEN_SECRET') ?? stackConf.tokenSecret,
  resendApiKey: Deno.env.get('RESEND_API_KEY') ?? stackConf.resendApiKey,
};

for (const [k, v] of Object.entries({
  SUPABASE_URL: stack.apiUrl,
  SUPABASE_ANON_KEY: stack.anonKey,
  SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
  SUPABASE_DB_URL: stack.dbUrl,
  TOKEN_SECRET: stack.tokenSecret,
  RESEND_API_KEY: stack.resendApiKey,
  RESEND_BASE_URL: stack.mailboxUrl,
  SITE_URL: stack.siteUrl,
  SUPABASE_PUBLISHABLE_KEYS: functionsEnv(stackConf).SUPABASE_PUBLISHABLE_KEYS!,
  SUPABASE_SECRET_KEYS: functionsEnv(stackConf).SUPABASE_SECRET_KEYS!,
})) {
  if (!Deno.env.get(k)) Deno.env.set(k, v);
}

/** Demo password of the seeded accounts. */
export const DEMO_PASSWORD = 'Teamwerk!2026';
/** A password that passes the strength rules. */
export const STRONG_PASSWORD = 'Sicher-Passwort-2026';

const clientOptions = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

/** A service-role supabase-js client of the stack. */
export function serviceClient(): SupabaseClient {
  return createClient(stack.apiUrl, stack.serviceRoleKey, clientOptions);
}

/** An anon supabase-js client of the stack. */
export function anonClient(): SupabaseClient {
  return createClient(stack.apiUrl, stack.anonKey, clientOptions);
}

/** Runs `fn` with a superuser connection to the stack's Postgres, closed afterwards. */
export async function withDb<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

/**
 * Pauses (`false`) or resumes (`true`) the pg_cron job that runs process-email-queue every minute,
 * so that a test's own worker is the only one that claims rows of the queue meanwhile.
 */
export async function setEmailQueueCron(active: boolean): Promise<void> {
  await withDb((db) => db.query(`select cron.alter_job(jobid, active := $1) from cron.job where jobname = 'process-email-queue'`, [active]));
}

/** A message as the mailbox's JSON API returns it. */
export interface MailboxMessage {
  id: string;
  to: string[];
  from: string;
  subject: string;
  html: string | null;
  text: string | null;
  created_at: string;
}

/** Messages sent to `to` (newest first). */
export async function mailbox(to: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${stack.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`mailbox ${res.status}`);
  const body = (await res.json()) as MailboxMessage[] | { messages?: MailboxMessage[]; data?: MailboxMessage[] };
  return Array.isArray(body) ? body : (body.messages ?? body.data ?? []);
}

/** Polls the mailbox until `count` messages for `to` arrived (or `timeoutMs` passed). */
export async function waitForMail(to: string, count = 1, timeoutMs = 10_000): Promise<MailboxMessage[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const msgs = await mailbox(to);
    if (msgs.length >= count || Date.now() > end) return msgs;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A fresh, unique test address (lower-case). */
export function uniqueEmail(tag: string): string {
  return `${tag}-${crypto.randomUUID().slice(0, 8)}@test.teamwerk.de`;
}

/** Calls a deployed function through the gateway, as the SPA does (`apikey` + optional bearer). */
export async function invoke(
  name: string,
  body: unknown,
  options: { token?: string | null; apikey?: string; method?: string } = {},
  // deno-lint-ignore no-explicit-any -- test answers are inspected field by field
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', apikey: options.apikey ?? stack.anonKey };
  if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? stack.anonKey}`;
  const res = await fetch(`${stack.apiUrl}/functions/v1/${name}`, {
    method: options.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the raw text
  }
  return { status: res.status, body: parsed };
}

/** Creates a confirmed user through the Auth admin API; returns its id and an access token. */
export async function createConfirmedUser(
  tag: string,
  meta: Record<string, unknown> = {},
): Promise<{ id: string; email: string; accessToken: string }> {
  const admin = serviceClient();
  const email = uniqueEmail(tag);
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: STRONG_PASSWORD,
    email_confirm: true,
    user_metadata: { firstname: 'Test', lastname: tag, ...meta },
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  const session = await anonClient().auth.signInWithPassword({ email, password: STRONG_PASSWORD });
  if (session.error || !session.data.session) throw new Error(`signIn: ${session.error?.message}`);
  return { id: data.user.id, email, accessToken: session.data.session.access_token };
}

/** Builds a JSON POST request for calling a handler in-process. */
export function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://functions.local/fn', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a handler's JSON answer. */
  // deno-lint-ignore no-explicit-any -- test answers are inspected field by field
export async function answer(res: Response): Promise<{ status: number; body: any }> {
  return { status: res.status, body: await res.json() };
}
