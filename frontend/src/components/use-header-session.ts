import { useSyncExternalStore } from 'react';
import { AUTH_CHANNEL, AUTH_EVENT_KEY, hasStoredSession } from '@/lib/auth-browser-state';

/**
 * The eager half of the header's session state (spec §2 header, §4 session). It uses only what
 * the SPA already has without supabase-js: the stored supabase-js session (`hasStoredSession`)
 * and the sign-in/sign-out broadcasts (`broadcastAuth`). The signed-in half (user id, profile,
 * supabase-js) lives in the lazily loaded `account-menu.tsx`, so the landing page stays light.
 */

/** Counts sign-in/sign-out signals; the account menu drops its cached user id when it changes. */
let epoch = 0;
const listeners = new Set<() => void>();
let detach: (() => void) | null = null;

/** True for a localStorage key that carries the session or the sign-in/out broadcast. */
function isAuthKey(key: string | null): boolean {
  return key === null || key === AUTH_EVENT_KEY || (key.startsWith('sb-') && key.endsWith('-auth-token'));
}

/**
 * Re-renders the header after an auth change.
 * @param changed true when the signed-in user may have changed (the cached user id is dropped);
 *   false only re-reads the stored session
 */
export function notifyAuthChange(changed: boolean): void {
  if (changed) epoch += 1;
  for (const listener of listeners) listener();
}

/**
 * Listens to the sign-in/sign-out signals the SPA already sends: the `teamwerk-auth`
 * BroadcastChannel (this tab and others) and `storage` events of the session key and
 * `teamwerk.authEvent` (other tabs). One set of browser listeners for all subscribers.
 */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!detach) {
    const onChange = () => notifyAuthChange(true);
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL);
    if (channel) channel.onmessage = onChange;
    const onStorage = (event: StorageEvent) => {
      if (isAuthKey(event.key)) onChange();
    };
    window.addEventListener('storage', onStorage);
    detach = () => {
      channel?.close();
      window.removeEventListener('storage', onStorage);
    };
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      detach?.();
      detach = null;
    }
  };
}

const currentEpoch = () => epoch;

/** Stored-session flag and auth-change counter of the header. */
export interface StoredSession {
  /** A supabase-js session is stored (it may still need a refresh, or turn out invalid). */
  stored: boolean;
  /** Changes on every sign-in/sign-out signal of this or another tab. */
  epoch: number;
}

/**
 * Whether a session is stored, following sign-in and sign-out in this and other tabs without
 * loading supabase-js. With no stored session the header shows "Log in" at once; with one it
 * shows a placeholder until the account menu has restored the session (no "Log in" flash).
 */
export function useStoredSession(): StoredSession {
  const stored = useSyncExternalStore(subscribe, hasStoredSession, () => false);
  const changes = useSyncExternalStore(subscribe, currentEpoch, () => 0);
  return { stored, epoch: changes };
}
