import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { type ChatMessage, chatErrorMessageId, sendMessage, uploadAttachment } from '../api/chat';

/** An optimistic message not confirmed by the database yet. */
export interface Outgoing {
  key: string;
  body: string;
  file: File | null;
  /** Object name once the file is uploaded (a retry does not upload again). */
  uploadedPath?: string;
  createdAt: string;
  status: 'sending' | 'failed';
}

/** The optimistic messages of a conversation and how they are sent. */
export interface OutgoingMessages {
  outgoing: Outgoing[];
  /** Queues a message (text and/or file) and sends it. */
  send: (body: string, file: File | null) => void;
  /** Sends a queued message (again): uploads its file once, then stores it. */
  deliver: (item: Outgoing) => Promise<void>;
  /** Drops a failed message. */
  discard: (key: string) => void;
}

/**
 * Optimistic sending (issue 13): a message shows at once as "sending", the stored one replaces it
 * (`onStored`), a failure leaves it as "failed, retry" with a snackbar; back online, failed
 * messages are sent again by themselves (issue 17).
 */
export function useOutgoingMessages(conversationId: string, me: string | undefined, onStored: (stored: ChatMessage) => void): OutgoingMessages {
  const intl = useIntl();
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);

  const deliver = async (item: Outgoing) => {
    if (!me) return;
    setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, status: 'sending' } : o)));
    try {
      let path = item.uploadedPath;
      if (item.file && !path) {
        path = await uploadAttachment(conversationId, me, item.file);
        const uploaded = path;
        setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, uploadedPath: uploaded } : o)));
      }
      const stored = await sendMessage(conversationId, me, item.body, item.file && path ? { path, name: item.file.name } : undefined, item.key);
      onStored(stored);
      setOutgoing((list) => list.filter((o) => o.key !== item.key));
    } catch (error) {
      setOutgoing((list) => list.map((o) => (o.key === item.key ? { ...o, status: 'failed' } : o)));
      notify('error', intl.formatMessage({ id: chatErrorMessageId(error) }));
    }
  };

  // back online: messages that failed while the connection was gone are sent again by themselves
  // (the network notice under the header tells the user what happens meanwhile, issue 17)
  const retryFailed = useRef<() => void>(() => undefined);
  useLayoutEffect(() => {
    retryFailed.current = () => {
      for (const item of outgoing) if (item.status === 'failed') void deliver(item);
    };
  });
  useEffect(() => {
    const up = () => retryFailed.current();
    window.addEventListener('online', up);
    return () => window.removeEventListener('online', up);
  }, []);

  const send = (body: string, file: File | null) => {
    const item: Outgoing = { key: crypto.randomUUID(), body, file, createdAt: new Date().toISOString(), status: 'sending' };
    setOutgoing((list) => [...list, item]);
    void deliver(item);
  };

  const discard = (key: string) => setOutgoing((list) => list.filter((x) => x.key !== key));

  return { outgoing, send, deliver, discard };
}
