/**
 * Pure chat logic shared by the API module and the pages (issue 13); no supabase-js here, so unit
 * tests import it without a configured client.
 */

/** A chat message as the table and the Broadcast carry it; timestamps are ISO strings. */
export interface ChatMessage {
  id: number;
  conversation_id: string;
  sender_id: string | null;
  body: string;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  /** Object name in the private bucket `chat-attachments`, or null. */
  attachment_path: string | null;
  attachment_name: string | null;
  /** Content type and size in bytes, taken by the database from the stored object. */
  attachment_type: string | null;
  attachment_size: number | null;
}

/** Private bucket of chat attachments (issue 13). */
export const ATTACHMENT_BUCKET = 'chat-attachments';
/** Largest attachment in bytes (10 MB; the bucket enforces the same). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Accepted attachment types (the bucket enforces the same). */
export const ATTACHMENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'] as const;

/** A file name safe for an object name: letters, digits, dot, dash and underscore, at most 80 characters. */
export function safeFileName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '');
  return (cleaned || 'file').slice(-80);
}

/** Why a file cannot be attached ('type' | 'size'), or null when it can. */
export function attachmentProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > ATTACHMENT_MAX_BYTES || file.size === 0) return 'size';
  return null;
}

/** Merges messages by id (later copies win: edits and deletes), sorted by id. */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
