import type { RealtimeChannel } from '@supabase/supabase-js';
import { useEffect, useSyncExternalStore } from 'react';
import { channelEffect } from '@/lib/realtime-channel';
import { supabase } from '@/lib/supabase';

/**
 * Presence of contacts (issue 13) over Realtime Presence: every signed-in tab tracks
 * `{ status: 'online' | 'away' }` on the user's private presence topic (only that user may
 * track there, so every presence in the topic is theirs and several tabs count once: the user is
 * online when any tab is). Contacts join that topic to watch; the
 * database lets only accepted contacts join, and only when both show their online status
 * (reciprocity). A closed tab leaves at once (socket close), a crashed one within the server's
 * timeout.
 *
 * The topic is `presence:user:<id>:<epoch>`, looked up with `presence_topic` (issue 31 §10):
 * hosted Realtime authorises a private channel once, when it is joined, so a removed or blocked
 * person would keep hearing a topic they had joined. A removal or block moves both people's
 * presence to a new epoch and the database broadcasts `presence_moved` on `user:<id>` of them and
 * their remaining contacts; the live session then re-joins (`presenceMoved` for watched contacts).
 */

/** What a watcher sees of a person. */
export type PresenceStatus = 'online' | 'away' | 'offline';

interface Watch {
  close: () => void;
  status: PresenceStatus;
  refs: number;
  /** Pending teardown after the last watcher left (kept briefly, so navigation does not churn channels). */
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** How long a watch channel outlives its last watcher (milliseconds). */
const IDLE_CLOSE_MS = 10_000;

const watches = new Map<string, Watch>();
const listeners = new Set<() => void>();
let version = 0;
/** False while the viewer hides their own status: then nobody is watched (reciprocity). */
let watchingAllowed = true;

function emit(): void {
  version += 1;
  for (const l of listeners) l();
}

function statusOf(channel: RealtimeChannel): PresenceStatus {
  const metas = Object.values(channel.presenceState<{ status?: string }>()).flat();
  if (metas.length === 0) return 'offline';
  return metas.some((m) => m.status !== 'away') ? 'online' : 'away';
}

/**
 * The presence topic of `userId` the signed-in user may join (their own, or a contact's under the
 * reciprocity rule), or null (issue 31 §10).
 * @throws the PostgREST error when the lookup fails
 */
export async function presenceTopic(userId: string): Promise<string | null> {
  const { data, error } = await supabase.rpc('presence_topic', { p_user_id: userId });
  if (error) throw error;
  return data;
}

/** Looks up `userId`'s current topic and joins it for `watch`; sets `watch.close`. */
function connect(userId: string, watch: Watch): void {
  let stopped = false;
  let closeChannel: () => void = () => undefined;
  void presenceTopic(userId)
    .then((topic) => {
      if (stopped || !topic) return;
      closeChannel = channelEffect(topic, { config: { private: true } }, (channel) => {
        channel.on('presence', { event: 'sync' }, () => {
          if (stopped) return;
          const next = statusOf(channel);
          if (next !== watch.status) {
            watch.status = next;
            emit();
          }
        });
        channel.subscribe();
      });
    })
    .catch(() => undefined);
  watch.close = () => {
    stopped = true;
    closeChannel();
  };
}

function open(userId: string): Watch {
  const watch: Watch = { close: () => undefined, status: 'offline', refs: 0 };
  connect(userId, watch);
  return watch;
}

/**
 * `userId`'s presence moved to a new topic (Broadcast `presence_moved` on the viewer's
 * `user:<id>`, issue 31 §10): a watch of them leaves the old topic and joins the current one, or
 * stays offline when the viewer may no longer watch them.
 */
export function presenceMoved(userId: string): void {
  const w = watches.get(userId);
  if (!w) return;
  w.close();
  if (w.status !== 'offline') {
    w.status = 'offline';
    emit();
  }
  connect(userId, w);
}

/** Starts watching `userId` (reference counted); returns the function that stops. */
function watch(userId: string): () => void {
  let w = watches.get(userId);
  if (!w) {
    w = open(userId);
    watches.set(userId, w);
  }
  clearTimeout(w.idleTimer);
  w.refs += 1;
  const current = w;
  return () => {
    current.refs -= 1;
    if (current.refs > 0) return;
    current.idleTimer = setTimeout(() => {
      if (current.refs > 0 || watches.get(userId) !== current) return;
      watches.delete(userId);
      current.close();
    }, IDLE_CLOSE_MS);
  };
}

/**
 * Turns watching on or off for the viewer (off while they hide their own online status: the
 * database would refuse the joins anyway). Turning it off closes every watch channel.
 */
export function setPresenceWatching(allowed: boolean): void {
  if (watchingAllowed === allowed) return;
  watchingAllowed = allowed;
  if (!allowed) {
    for (const [id, w] of watches) {
      clearTimeout(w.idleTimer);
      w.close();
      watches.delete(id);
    }
  }
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Presence of each of `userIds` (accepted contacts), 'offline' until known. Re-renders on change.
 * @param userIds ids to watch; pass a stable list (e.g. from the rows on screen)
 */
export function usePresence(userIds: readonly string[]): Record<string, PresenceStatus> {
  useSyncExternalStore(subscribe, () => version);
  const allowed = useSyncExternalStore(subscribe, () => watchingAllowed);
  const key = [...new Set(userIds)].sort().join(',');
  useEffect(() => {
    if (!key || !allowed) return;
    const stops = key.split(',').map((id) => watch(id));
    return () => stops.forEach((stop) => stop());
  }, [key, allowed]);
  const result: Record<string, PresenceStatus> = {};
  for (const id of userIds) result[id] = allowed ? (watches.get(id)?.status ?? 'offline') : 'offline';
  return result;
}
