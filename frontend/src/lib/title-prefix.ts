import { useSyncExternalStore } from 'react';

/**
 * The unread count in the tab title, "(3) Chat | Teamwerk" (issue 13). The chat's live session
 * (loaded only for signed-in users) sets it; PageHead reads it. Kept apart from the chat code so
 * the page head does not pull supabase-js into public pages.
 */
let unread = 0;
const listeners = new Set<() => void>();

/** Sets the number shown before the title (0 = none). */
export function setTitleUnreadCount(count: number): void {
  const next = Math.max(0, Math.floor(count));
  if (next === unread) return;
  unread = next;
  for (const l of listeners) l();
}

/** The current count (re-renders on change). */
export function useTitleUnreadCount(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => unread,
    () => 0,
  );
}

/** `title` with the unread prefix when count > 0. */
export function withUnreadPrefix(title: string, count: number): string {
  return count > 0 ? `(${count}) ${title}` : title;
}
