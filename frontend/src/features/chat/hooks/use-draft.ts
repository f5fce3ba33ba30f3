import { useEffect, useState } from 'react';

const draftKey = (conversationId: string) => `teamwerk.chat.draft.${conversationId}`;

/**
 * The unsent text of a conversation, kept in sessionStorage so it survives reloads and lost
 * connections (issue 13). @returns the draft and its setter ('' removes the stored draft)
 */
export function useDraft(conversationId: string): [string, (draft: string) => void] {
  const [draft, setDraft] = useState(() => sessionStorage.getItem(draftKey(conversationId)) ?? '');
  useEffect(() => {
    if (draft) sessionStorage.setItem(draftKey(conversationId), draft);
    else sessionStorage.removeItem(draftKey(conversationId));
  }, [draft, conversationId]);
  return [draft, setDraft];
}

/** The current time in milliseconds, updated every `intervalMs` (the edit window of messages). */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(tick);
  }, [intervalMs]);
  return now;
}
