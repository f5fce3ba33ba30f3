/** localStorage key of the fresh-login-required flag set by every sign-out (spec §4). */
export const FRESH_LOGIN_KEY = 'teamwerk.freshLoginRequired';
/** BroadcastChannel name on which tabs tell each other about sign-in and sign-out (spec §4). */
export const AUTH_CHANNEL = 'teamwerk-auth';

/** Message sent to the other tabs. */
export type AuthBroadcast = 'signed-in' | 'signed-out';

/** localStorage key written on every sign-in/sign-out; its `storage` event reaches the other tabs where BroadcastChannel does not. */
export const AUTH_EVENT_KEY = 'teamwerk.authEvent';

let sender: BroadcastChannel | null = null;

/** The last message this tab sent, and when (ms): a BroadcastChannel also reaches this tab's own listeners. */
let lastSent: { message: AuthBroadcast; at: number } | null = null;

/**
 * True when this tab itself sent `message` within the last 5 s: its own sign-out is followed by
 * the caller's navigation, not by the other-tabs rule (a deleted account going home must not be
 * sent to /login by its own broadcast).
 */
export function sentByThisTab(message: AuthBroadcast): boolean {
  return lastSent !== null && lastSent.message === message && Date.now() - lastSent.at < 5000;
}

/**
 * Tells the other tabs of this site about a sign-in or sign-out: BroadcastChannel (one long-lived
 * sender, so a message is never dropped by closing the channel right away) plus a localStorage
 * write whose `storage` event the other tabs also receive.
 */
export function broadcastAuth(message: AuthBroadcast): void {
  lastSent = { message, at: Date.now() };
  if (typeof BroadcastChannel !== 'undefined') {
    sender ??= new BroadcastChannel(AUTH_CHANNEL);
    sender.postMessage(message);
  }
  try {
    localStorage.setItem(AUTH_EVENT_KEY, JSON.stringify({ type: message, at: Date.now() }));
  } catch {
    // storage unavailable: BroadcastChannel only
  }
}

/** supabase-js keeps the session under `sb-<ref>-auth-token`; true when one is stored (no supabase-js needed). */
export function hasStoredSession(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith('sb-') && key.endsWith('-auth-token')) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * Expires every cookie the page can see (spec §4 sign-out "clears all cookies"), on the path `/`,
 * the current path and the host's parent domains.
 */
export function clearAllCookies(doc: Document = document): void {
  const names = doc.cookie
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter(Boolean);
  const host = doc.location?.hostname ?? '';
  const labels = host.split('.');
  const domains = [''];
  for (let i = 0; i < labels.length - 1; i++) domains.push(`; Domain=.${labels.slice(i).join('.')}`);
  const pathsToClear = ['/', doc.location?.pathname ?? '/'];
  for (const name of names) {
    for (const domain of domains) {
      for (const path of pathsToClear) {
        doc.cookie = `${name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=${path}${domain}`;
      }
    }
  }
}

/** True while the fresh-login-required flag of the last sign-out is set (spec §4). */
export function isFreshLoginRequired(): boolean {
  try {
    return localStorage.getItem(FRESH_LOGIN_KEY) === '1';
  } catch {
    return false;
  }
}

/** Marks that the next visit must log in again (spec §4); cleared by a successful login. */
export function setFreshLoginRequired(required: boolean): void {
  try {
    if (required) localStorage.setItem(FRESH_LOGIN_KEY, '1');
    else localStorage.removeItem(FRESH_LOGIN_KEY);
  } catch {
    // storage unavailable: nothing to remember
  }
}
