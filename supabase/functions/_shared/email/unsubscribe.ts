/**
 * One-click unsubscribe from notification mails (issue 13: "an unsubscribe link"; RFC 8058).
 *
 * A token names the queued mail it came with: `<email_queue id>.<signature>`, the signature being
 * base64url(HMAC-SHA256(TOKEN_SECRET, "teamwerk-unsubscribe.<id>")). Deterministic on purpose:
 * a retried send renders the same body, which Resend's idempotency compares. Whoever holds the
 * mail may switch off that kind of mail for the mail's recipient, nothing else; the token does
 * not expire (a mail in a mailbox stays valid, as List-Unsubscribe expects).
 */
import { base64url, fromBase64url, timingSafeEqual } from '../tokens.ts';

/** The user_settings switch per unsubscribable mail kind (contact requests, messages: issue 13; event updates: issue 16; request reminders, weekly matches: issue 19). */
export const UNSUBSCRIBE_KINDS: Readonly<Record<string, 'email_contact_requests' | 'email_messages' | 'email_event_updates' | 'email_match_digest'>> = {
  contact_request: 'email_contact_requests',
  contact_request_reminder: 'email_contact_requests',
  chat_unread: 'email_messages',
  event_changed: 'email_event_updates',
  event_cancelled: 'email_event_updates',
  event_reminder: 'email_event_updates',
  match_digest: 'email_match_digest',
};

/** The name the unsubscribe answer gives each switch. */
export const UNSUBSCRIBE_NAMES = {
  email_contact_requests: 'contact_requests',
  email_messages: 'messages',
  email_event_updates: 'event_updates',
  email_match_digest: 'match_digest',
} as const;

const PREFIX = 'teamwerk-unsubscribe.';
const encoder = new TextEncoder();

async function signature(mailId: number, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${PREFIX}${mailId}`))));
}

/**
 * The unsubscribe token of queued mail `mailId` (a positive integer).
 * Errors: throws for a non-positive or non-integer id.
 */
export async function signUnsubscribeToken(mailId: number, secret: string): Promise<string> {
  if (!Number.isSafeInteger(mailId) || mailId <= 0) throw new Error('signUnsubscribeToken: mailId must be a positive integer');
  return `${mailId}.${await signature(mailId, secret)}`;
}

/** The mail id of a valid token, or null (malformed, forged, altered); never throws for bad input. */
export async function verifyUnsubscribeToken(token: unknown, secret: string): Promise<number | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const mailId = Number(match[1]);
  if (!Number.isSafeInteger(mailId)) return null;
  try {
    fromBase64url(match[2]!);
  } catch {
    return null;
  }
  return timingSafeEqual(await signature(mailId, secret), match[2]!) ? mailId : null;
}
