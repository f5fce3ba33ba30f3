import { useSyncExternalStore } from 'react';
import { AUTH_CHANNEL, AUTH_EVENT_KEY, type AuthBroadcast, hasStoredSession } from './auth-browser-state';

/**
 * Who is signed in (spec §4 session), in one place for the whole SPA. The state is fed by one
 * supabase-js `onAuthStateChange` subscription, made by `startSession()` at the root; until a
 * session is stored (or another tab signs in) supabase-js is not even loaded, so public pages stay
 * light (issue 5 landing budget). The sign-in/sign-out signals of this and other tabs
 * (`broadcastAuth`: BroadcastChannel plus a localStorage key) are heard here too and handed to
 * `onAuthSignal` listeners.
 */

/** The signed-in user as the SPA needs it. */
export interface SessionUser {
  id: string;
  email: string;
}

/**
 * The session as components see it.
 * - `restoring`: a session is stored and supabase-js restores (and maybe refreshes) it;
 * - `signed-in` with `user`; `signed-out` without.
 */
export interface SessionState {
  status: 'restoring' | 'signed-in' | 'signed-out';
  user: SessionUser | null;
}

const listeners = new Set<() => void>();
const signalListeners = new Set<(message: AuthBroadcast) => void>();
let state: SessionState | null = null;
let connection: Promise<void> | null = null;
let started = false;

/** True when the page started without a stored session (so its cached data is nobody's). */
let startedSignedOut = false;

function current(): SessionState {
  if (!state) {
    startedSignedOut = !hasStoredSession();
    state = startedSignedOut ? { status: 'signed-out', user: null } : { status: 'restoring', user: null };
  }
  // a session stored since (a sign-in of this tab before supabase-js was connected here) is being restored
  if (state.status === 'signed-out' && !connection && hasStoredSession()) state = { status: 'restoring', user: null };
  return state;
}

function set(next: SessionState): void {
  const prev = current();
  if (prev.status === next.status && prev.user?.id === next.user?.id && prev.user?.email === next.user?.email) return;
  state = next;
  for (const listener of listeners) listener();
}

/**
 * Loads supabase-js once and subscribes to its auth events; its first event (INITIAL_SESSION)
 * settles a `restoring` state. Later events (sign-in, sign-out, refresh, a failed refresh that
 * removes the session, other tabs through supabase-js' own channel) keep the state current.
 */
function connect(): Promise<void> {
  current(); // settles startedSignedOut
  connection ??= import('./supabase').then(({ supabase, queryClient }) => {
    // the user the cached data belongs to: nobody when the page started without a session, else
    // unknown until the first event (INITIAL_SESSION)
    let lastUserId: string | null | undefined = startedSignedOut ? null : undefined;
    supabase.auth.onAuthStateChange((_event, session) => {
      const user = session ? { id: session.user.id, email: session.user.email ?? '' } : null;
      // cached data belongs to the user who fetched it (own profile, favourites, search results
      // without the people they blocked): when the signed-in user changes (sign-out, auto-logout,
      // another tab, a different account) every query is reset, so nobody sees the previous
      // user's data (spec §4)
      const changed = lastUserId !== undefined && (user?.id ?? null) !== lastUserId;
      lastUserId = user?.id ?? null;
      // outside the callback: supabase-js holds its auth lock while it runs
      setTimeout(() => {
        set(user ? { status: 'signed-in', user } : { status: 'signed-out', user: null });
        if (changed) void queryClient.resetQueries();
      }, 0);
    });
  });
  return connection;
}

/** True for a localStorage key that carries the session or the sign-in/sign-out broadcast. */
function isAuthKey(key: string | null): boolean {
  return key === null || key === AUTH_EVENT_KEY || (key.startsWith('sb-') && key.endsWith('-auth-token'));
}

/**
 * Starts following the session; called once at the root (later calls do nothing). Connects to
 * supabase-js at once when a session is stored, else on the first sign-in signal of this or another
 * tab; passes every signal on to `onAuthSignal` listeners.
 */
export function startSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const onSignal = (message: AuthBroadcast | null) => {
    if (!hasStoredSession() && !connection) set({ status: 'signed-out', user: null });
    else void connect();
    if (message) for (const listener of signalListeners) listener(message);
  };
  if (typeof BroadcastChannel !== 'undefined') {
    new BroadcastChannel(AUTH_CHANNEL).onmessage = (event: MessageEvent<AuthBroadcast>) => onSignal(event.data);
  }
  window.addEventListener('storage', (event) => {
    if (!isAuthKey(event.key)) return;
    let message: AuthBroadcast | null = null;
    if (event.key === AUTH_EVENT_KEY && event.newValue) {
      try {
        message = (JSON.parse(event.newValue) as { type: AuthBroadcast }).type;
      } catch {
        // not ours
      }
    }
    onSignal(message);
  });
  if (current().status === 'restoring') void connect();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Listens to the sign-in/sign-out signals of this tab (`broadcastAuth`) and the other tabs of the
 * site. @returns the function that stops listening
 */
export function onAuthSignal(listener: (message: AuthBroadcast) => void): () => void {
  signalListeners.add(listener);
  return () => signalListeners.delete(listener);
}

/** The session of this tab as a hook: `{ status, user }`, re-rendering on every change. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, current, current);
}

/**
 * The signed-in user once the stored session is restored, or null; without a stored session it
 * answers null at once, without loading supabase-js. For loaders, guards and api modules.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  if (!hasStoredSession() && !connection) return null;
  await connect();
  const { supabase } = await import('./supabase');
  const { data } = await supabase.auth.getSession();
  const user = data.session?.user ? { id: data.session.user.id, email: data.session.user.email ?? '' } : null;
  // what a guard just read is what the page it admits sees
  set(user ? { status: 'signed-in', user } : { status: 'signed-out', user: null });
  return user;
}

/** The signed-in user's id, or null (see getSessionUser). */
export async function getSessionUserId(): Promise<string | null> {
  return (await getSessionUser())?.id ?? null;
}
