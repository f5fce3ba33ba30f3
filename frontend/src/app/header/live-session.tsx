import type { RealtimeChannel } from '@supabase/supabase-js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { CONTACTS_KEY } from '@/features/contacts';
import { userSettingsQuery } from '@/features/user';
import { notify } from '@/lib/notify';
import { refetchAfterChange } from '@/lib/query-client';
import { channelEffect } from '@/lib/realtime-channel';
import { supabase } from '@/lib/supabase';
import { setTitleUnreadCount } from '@/lib/title-prefix';
import { CHAT_KEY, unreadTotalQuery } from '@/features/chat';
import { presenceMoved, presenceTopic, setPresenceWatching } from '@/features/presence';

/** No input for this long (milliseconds) turns "online" into "away" (issue 13). */
export const AWAY_AFTER_MS = 5 * 60 * 1000;
/** How often an open tab stores "last seen" (milliseconds). */
export const LAST_SEEN_INTERVAL_MS = 60 * 1000;

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'mousemove', 'scroll', 'focus'] as const;

/**
 * The signed-in user's live connection, mounted once per tab by the header's account menu
 * (issue 13):
 * - `user:<id>` (private): `inbox` → inbox and unread total refetch in every tab; `contact_request`
 *   → an in-app snackbar and the requests list; `contact_accepted` → contacts refetch;
 *   `contact_expired` (issue 19) → contacts refetch, quietly; `presence_moved` (issue 31 §10: a
 *   removal or block moved someone's presence topic) → own presence re-joins its new topic, a
 *   watched contact's watch re-joins theirs. A rejoin
 *   after a lost connection refetches too, so nothing sent meanwhile is missed.
 * - own presence on `presence:user:<id>:<epoch>` (`presence_topic`): online, away after 5 minutes
 *   without input; nothing
 *   while "Show my online status" is off, and then no one else's presence is watched either
 *   (reciprocity). Each tab tracks under its own presence key and changes its status by untrack +
 *   track: realtime-js loses the reference of a key's earlier presence when a second one joins the
 *   same key (its onJoin payload rewrites the stored metas), and that presence would then never
 *   leave.
 * - "last seen" stored every minute while online (touch_presence).
 * - the unread total in the tab title.
 */
export function LiveSession({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const intl = useIntl();
  const intlRef = useRef(intl);
  useLayoutEffect(() => {
    intlRef.current = intl;
  }, [intl]);
  const settings = useQuery(userSettingsQuery());
  const unread = useQuery(unreadTotalQuery());
  /** Counts the moves of the own presence topic: each one re-joins (issue 31 §10). */
  const [ownMoves, setOwnMoves] = useState(0);

  useEffect(() => {
    setTitleUnreadCount(unread.data ?? 0);
  }, [unread.data]);
  useEffect(() => () => setTitleUnreadCount(0), []);

  useEffect(() => {
    // each event refetches with a request started after it (refetchAfterChange: an invalidation
    // during a query's first fetch would otherwise be answered by that fetch)
    const refreshChat = () => void refetchAfterChange(queryClient, CHAT_KEY);
    const refreshContacts = () => void refetchAfterChange(queryClient, CONTACTS_KEY);
    return channelEffect(`user:${userId}`, { config: { private: true } }, (channel) =>
      channel
      .on('broadcast', { event: 'inbox' }, refreshChat)
      .on('broadcast', { event: 'contact_request' }, ({ payload }: { payload: { display_name?: string } }) => {
        refreshContacts();
        notify('info', intlRef.current.formatMessage({ id: 'nav.notify.contactRequest' }, { name: payload.display_name ?? '' }));
      })
      .on('broadcast', { event: 'contact_accepted' }, () => {
        refreshContacts();
        notify('success', intlRef.current.formatMessage({ id: 'nav.notify.contactAccepted' }));
      })
      // issue 19: a request of mine expired unanswered (14 days): the sent list and the Connect button follow
      .on('broadcast', { event: 'contact_expired' }, refreshContacts)
      .on('broadcast', { event: 'presence_moved' }, ({ payload }: { payload: { user_id?: string } }) => {
        if (payload.user_id === userId) setOwnMoves((n) => n + 1);
        else if (payload.user_id) presenceMoved(payload.user_id);
      })
      .subscribe((status) => {
        if (status === 'SUBSCRIBED') refreshChat();
      }),
    );
  }, [userId, queryClient]);

  const show = settings.data?.show_online_status;
  useEffect(() => {
    if (show !== undefined) setPresenceWatching(show);
  }, [show]);

  useEffect(() => {
    if (show !== true) return;
    let channel: RealtimeChannel | null = null;
    let status: 'online' | 'away' = 'online';
    let joined = false;
    let tracked = false;
    let queue: Promise<unknown> = Promise.resolve();
    let awayTimer: ReturnType<typeof setTimeout> | undefined;
    const track = () => {
      const c = channel;
      if (!joined || !c) return;
      queue = queue
        .then(async () => {
          if (tracked) await c.untrack();
          tracked = (await c.track({ status })) === 'ok';
        })
        .catch(() => undefined);
    };
    const touch = () => {
      if (status === 'online') void supabase.rpc('touch_presence');
    };
    const scheduleAway = () => {
      clearTimeout(awayTimer);
      awayTimer = setTimeout(() => {
        status = 'away';
        track();
      }, AWAY_AFTER_MS);
    };
    let lastActivity = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - lastActivity < 1000) return;
      lastActivity = now;
      scheduleAway();
      if (status === 'away') {
        status = 'online';
        track();
        touch();
      }
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, onActivity, { passive: true });
    let stopped = false;
    let closeChannel: () => void = () => undefined;
    void presenceTopic(userId)
      .then((topic) => {
        if (stopped || !topic) return;
        closeChannel = channelEffect(topic, { config: { private: true } }, (c) => {
          channel = c;
          c.subscribe((s) => {
            if (s === 'SUBSCRIBED') {
              joined = true;
              track();
            }
          });
        });
      })
      .catch(() => undefined);
    scheduleAway();
    touch();
    const heartbeat = setInterval(touch, LAST_SEEN_INTERVAL_MS);
    return () => {
      clearTimeout(awayTimer);
      clearInterval(heartbeat);
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, onActivity);
      stopped = true;
      closeChannel();
    };
  }, [show, userId, ownMoves]);

  return null;
}
