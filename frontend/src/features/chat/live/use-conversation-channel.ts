import { useEffect, useLayoutEffect, useRef } from 'react';
import { channelEffect } from '@/lib/realtime-channel';
import type { ChatMessage } from '../api/chat';

/** Handlers of a conversation's live channel. */
export interface ConversationHandlers {
  /** New or changed messages (Broadcast from Database: insert, edit, delete). */
  onMessages: (messages: ChatMessage[]) => void;
  /** The other member read up to `last_read_at` (ISO). */
  onRead: (userId: string, lastReadAt: string) => void;
  /** Someone is typing (client Broadcast). */
  onTyping: (userId: string) => void;
  /** (Re)joined: fetch what was missed while disconnected. */
  onJoined: () => void;
}

/** How often a typing signal may be sent (milliseconds). */
const TYPING_THROTTLE_MS = 2000;

/**
 * Joins the private Realtime channel `conversation:<id>` (issue 13; the database admits members
 * without a block) and returns `sendTyping`. Messages come from the database's Broadcast, never
 * from postgres_changes; every (re)join calls `onJoined` so the page fetches everything after the
 * newest message it has: nothing is lost across reconnects, and merging by id avoids duplicates.
 */
export function useConversationChannel(conversationId: string, userId: string | null | undefined, handlers: ConversationHandlers): () => void {
  const handlersRef = useRef(handlers);
  useLayoutEffect(() => {
    handlersRef.current = handlers;
  });
  const sendRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!userId) return;
    const onMessage = ({ payload }: { payload: ChatMessage }) => handlersRef.current.onMessages([payload]);
    let lastTyping = 0;
    const close = channelEffect(`conversation:${conversationId}`, { config: { private: true, broadcast: { self: false } } }, (channel) => {
      channel
      .on('broadcast', { event: 'message_created' }, onMessage)
      .on('broadcast', { event: 'message_updated' }, onMessage)
      .on('broadcast', { event: 'read' }, ({ payload }: { payload: { user_id: string; last_read_at: string } }) => {
        if (payload.user_id !== userId) handlersRef.current.onRead(payload.user_id, payload.last_read_at);
      })
      .on('broadcast', { event: 'typing' }, ({ payload }: { payload: { user_id: string } }) => {
        if (payload.user_id !== userId) handlersRef.current.onTyping(payload.user_id);
      })
      .subscribe((status) => {
        if (status === 'SUBSCRIBED') handlersRef.current.onJoined();
      });
      sendRef.current = () => {
        const now = Date.now();
        if (now - lastTyping < TYPING_THROTTLE_MS) return;
        lastTyping = now;
        void channel.send({ type: 'broadcast', event: 'typing', payload: { user_id: userId } });
      };
    });
    return () => {
      sendRef.current = () => undefined;
      close();
    };
  }, [conversationId, userId]);

  return () => sendRef.current();
}
