import { createHmac, randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { ANON_KEY, apiUrl, nodeClient, offset, SERVICE_ROLE_KEY, stack } from './support';

/** Mailbox of the local stack of this offset (scripts/local-stack/services/mailbox). */
export const mailboxUrl = `http://127.0.0.1:${54324 + offset}`;
/** supabase-js keeps the session under `sb-<first host label>-auth-token`. */
export const storageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;
/** A password that passes the strength rules. */
export const PASSWORD = 'Correct-Horse-42';

/** A unique test address. */
export const uniqueEmail = (tag: string) => `acc-${tag}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

/** Creates a confirmed user through the admin API (optionally with a role) and returns its id. */
export async function createUser(opts: { email?: string; password?: string; role?: string; firstname?: string; lastname?: string; confirmed?: boolean; paid?: boolean } = {}) {
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const email = opts.email ?? uniqueEmail('user');
  const password = opts.password ?? PASSWORD;
  const created = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: opts.confirmed ?? true,
    user_metadata: { firstname: opts.firstname ?? 'Test', lastname: opts.lastname ?? 'Person' },
  });
  expect(created.error).toBeNull();
  const id = created.data.user!.id;
  if (opts.paid) await grantSubscription(id);
  if (opts.role) {
    const updated = await admin.from('profiles').update({ user_role: opts.role }).eq('id', id).select('user_role').single();
    expect(updated.error).toBeNull();
  }
  return { id, email, password };
}

/** Signs in through the API and stores the session in the page's localStorage (no UI). */
export async function signInViaApi(page: Page, email: string, password: string = PASSWORD) {
  const anon = nodeClient(ANON_KEY);
  const signedIn = await anon.auth.signInWithPassword({ email, password });
  expect(signedIn.error).toBeNull();
  await page.goto('/impressum');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKey, JSON.stringify(signedIn.data.session)]);
  return signedIn.data.session!;
}

interface Mail {
  subject: string;
  html: string | null;
  text: string | null;
}

/** Waits for the newest mail to `to` whose text contains `contains`, and returns the first link to `pathPart` in it (path + query only). */
export async function linkFromMail(to: string, pathPart: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(`https?://[^\\s"'<>]*${pathPart.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"'<>]*`);
  while (Date.now() < deadline) {
    const res = await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as Mail[];
    for (const mail of mails) {
      const match = pattern.exec(mail.text ?? '') ?? pattern.exec(mail.html ?? '');
      if (match) {
        const url = new URL(match[0].replace(/&amp;/g, '&'));
        return `${url.pathname}${url.search}`;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail with a ${pathPart} link to ${to}`);
}

/**
 * A token signed with the stack's TOKEN_SECRET (generated for its data folder, as the functions
 * get it) but issued `ageSeconds` ago, to test the expiry path.
 */
export function localToken(purpose: 'confirm' | 'reset', userId: string, ageSeconds: number): string {
  const b64 = (buf: Buffer) => buf.toString('base64url');
  const payload = { v: 1, p: purpose, sub: userId, iat: Math.floor(Date.now() / 1000) - ageSeconds, n: b64(randomBytes(16)) };
  const body = b64(Buffer.from(JSON.stringify(payload)));
  const sig = createHmac('sha256', stack.tokenSecret).update(`teamwerk-token.${body}`).digest();
  return `${body}.${b64(sig)}`;
}

/** Role of a user, read with the service role. */
export async function roleOf(userId: string): Promise<string | undefined> {
  const { data } = await nodeClient(SERVICE_ROLE_KEY).from('profiles').select('user_role').eq('id', userId).single();
  return (data as { user_role?: string } | null)?.user_role;
}

/** Gives a user an active Premium subscription row (as sync_subscription would), so the payment-required guard lets them into /user (spec §6). */
export async function grantSubscription(userId: string): Promise<void> {
  const admin = nodeClient(SERVICE_ROLE_KEY);
  const now = new Date();
  const { error } = await admin.from('subscriptions').insert({
    user_id: userId,
    plan_id: 'premium',
    status: 'active',
    current_period_start: now.toISOString(),
    current_period_end: new Date(now.getTime() + 30 * 86400_000).toISOString(),
    stripe_customer_id: `cus_acc_${randomBytes(6).toString('hex')}`,
    stripe_subscription_id: `sub_acc_${randomBytes(8).toString('hex')}`,
    last_synced_at: now.toISOString(),
  });
  expect(error).toBeNull();
}
