import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { refetchAfterChange } from '@/lib/query-client';
import { CHAT_KEY, type ChatMessage, fetchNewerMessages, fetchOlderMessages, markConversationRead, MESSAGE_PAGE_SIZE, mergeMessages } from '../api/chat';
import { useConversationChannel } from '../live/use-conversation-channel';

/** How long a typing signal shows (milliseconds). */
const TYPING_VISIBLE_MS = 4000;

/** The messages of a conversation and what the page does with them. */
export interface MessageThread {
  /** Stored messages, oldest first. */
  messages: ChatMessage[];
  /** Merges stored messages (sent, edited or deleted ones) into the list. */
  merge: (stored: ChatMessage[]) => void;
  loaded: boolean;
  loadError: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The newest read time the other side sent live (Broadcast), ISO; null until one arrives. */
  liveReadAt: string | null;
  /** The other side is typing (shown for 4 s after their last signal). */
  typing: boolean;
  /** Fetches what is newer than the newest message (the first page when there is none). */
  loadLatest: () => Promise<void>;
  /**
   * Fetches the page before the oldest message; `beforePrepend` runs just before the page is
   * merged (the list keeps its scroll position). Errors: a snackbar 'chat.loadError'.
   */
  loadOlder: (beforePrepend: () => void) => Promise<void>;
  /** Tells the other side that this user types (throttled by the channel). */
  sendTyping: () => void;
}

/**
 * The live message thread of /user/chat/{conversationId} (issue 13): the first page, older pages
 * (keyset by id, 50 at a time), new, edited and deleted messages over Broadcast from Database, a
 * rejoin fetching what was missed, read receipts and typing; the conversation is marked read while
 * the page is visible. When the channel cannot join (offline) the first page loads after 1.5 s.
 */
export function useMessageThread(conversationId: string, me: string | undefined): MessageThread {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [liveReadAt, setLiveReadAt] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const messagesRef = useRef(messages);
  useLayoutEffect(() => {
    messagesRef.current = messages;
  }, [messages]);

  const merge = useCallback((stored: ChatMessage[]) => setMessages((current) => mergeMessages(current, stored)), []);

  const markRead = useCallback(() => {
    if (document.visibilityState !== 'visible') return;
    void markConversationRead(conversationId)
      .then(() => refetchAfterChange(queryClient, CHAT_KEY))
      .catch(() => undefined);
  }, [conversationId, queryClient]);

  const loadLatest = useCallback(async () => {
    try {
      const newest = messagesRef.current.at(-1)?.id;
      if (newest === undefined) {
        const page = await fetchOlderMessages(conversationId, null);
        setMessages((current) => mergeMessages(current, page));
        setHasOlder(page.length === MESSAGE_PAGE_SIZE);
      } else {
        const newer = await fetchNewerMessages(conversationId, newest);
        if (newer.length) setMessages((current) => mergeMessages(current, newer));
      }
      setLoaded(true);
      setLoadError(false);
      markRead();
    } catch {
      setLoadError(true);
    }
  }, [conversationId, markRead]);

  const sendTyping = useConversationChannel(conversationId, me, {
    onMessages: (incoming) => {
      setMessages((current) => mergeMessages(current, incoming));
      if (incoming.some((m) => m.sender_id !== me)) {
        clearTimeout(typingTimer.current);
        setTyping(false);
        markRead();
      }
    },
    onRead: (_user, at) => setLiveReadAt((prev) => (!prev || at > prev ? at : prev)),
    onTyping: () => {
      clearTimeout(typingTimer.current);
      setTyping(true);
      typingTimer.current = setTimeout(() => setTyping(false), TYPING_VISIBLE_MS);
    },
    onJoined: () => void loadLatest(),
  });

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') markRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markRead]);

  useEffect(() => {
    // first load when the channel cannot join (e.g. offline): the channel's join loads otherwise
    const timer = setTimeout(() => {
      if (!loaded) void loadLatest();
    }, 1500);
    return () => clearTimeout(timer);
  }, [loaded, loadLatest]);

  const loadOlder = async (beforePrepend: () => void) => {
    const oldest = messagesRef.current[0]?.id;
    if (oldest === undefined || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await fetchOlderMessages(conversationId, oldest);
      beforePrepend();
      setMessages((current) => mergeMessages(current, page));
      setHasOlder(page.length === MESSAGE_PAGE_SIZE);
    } catch {
      notify('error', intl.formatMessage({ id: 'chat.loadError' }));
    } finally {
      setLoadingOlder(false);
    }
  };

  return { messages, merge, loaded, loadError, hasOlder, loadingOlder, liveReadAt, typing, loadLatest, loadOlder, sendTyping };
}
