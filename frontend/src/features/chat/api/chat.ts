import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import { uploadFile } from '@/lib/upload-file';
import { ATTACHMENT_BUCKET, type ChatMessage, safeFileName } from './chat-logic';

export * from './chat-logic';

/** Lifetime of a signed attachment URL (seconds). */
export const ATTACHMENT_URL_TTL_S = 3600;

/**
 * Chat (issue 13, spec §2 /user/chat): inbox, conversation history with keyset paging, sending,
 * editing and deleting within 15 minutes, read receipts. Rules live in the database (contacts only
 * start a conversation, blocked members cannot write, the 15-minute window); messages arrive
 * through Broadcast from Database on `conversation:<id>` (see use-conversation-channel.ts).
 */

/** A row of `my_inbox`. */
export type InboxRow = Database['public']['Functions']['my_inbox']['Returns'][number];
/** The row of `conversation_info`. */
export type ConversationInfo = Database['public']['Functions']['conversation_info']['Returns'][number];


/** Messages per history page (keyset by id, never offset). */
export const MESSAGE_PAGE_SIZE = 50;
/** Longest message (characters; the database checks the same). */
export const MESSAGE_MAX = 5000;
/** Own messages can be edited or deleted this long after sending (milliseconds; the database decides). */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** Conversations per inbox page. */
export const INBOX_PAGE_SIZE = 30;

/** Query key prefix of chat data (inbox, unread total, conversation info); invalidated by `inbox` Broadcasts. */
export const CHAT_KEY = ['chat'] as const;

const MESSAGE_COLUMNS =
  'id, conversation_id, sender_id, body, created_at, edited_at, deleted_at, attachment_path, attachment_name, attachment_type, attachment_size';



/** Query options of an inbox page: `{ rows, total }`, most recent activity first. */
export const inboxQuery = (page: number) =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'inbox', page],
    queryFn: async (): Promise<{ rows: InboxRow[]; total: number }> => {
      const rows = unwrap(await supabase.rpc('my_inbox', { p_limit: INBOX_PAGE_SIZE, p_offset: (page - 1) * INBOX_PAGE_SIZE }), 'POST');
      return { rows, total: Number(rows[0]?.total ?? 0) };
    },
    placeholderData: (previous) => previous,
  });

/** Query options of the caller's unread total (header badge, navigation, tab title). */
export const unreadTotalQuery = () =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'unread-total'],
    queryFn: async (): Promise<number> => unwrap(await supabase.rpc('unread_message_total'), 'POST'),
    staleTime: 60_000,
  });

/**
 * Query options of a conversation's header data, or null when the caller is not a member (or a
 * block hides it).
 */
export const conversationInfoQuery = (conversationId: string) =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'info', conversationId],
    queryFn: async (): Promise<ConversationInfo | null> => {
      const result = await supabase.rpc('conversation_info', { p_conversation_id: conversationId });
      if (result.error?.message === 'conversation_not_found' || result.error?.code === '22P02') return null;
      return unwrap(result, 'POST')[0] ?? null;
    },
  });

/**
 * One page of history: the `MESSAGE_PAGE_SIZE` messages before `beforeId` (newest page when
 * null), returned oldest first.
 */
export async function fetchOlderMessages(conversationId: string, beforeId: number | null): Promise<ChatMessage[]> {
  let query = supabase.from('messages').select(MESSAGE_COLUMNS).eq('conversation_id', conversationId);
  if (beforeId !== null) query = query.lt('id', beforeId);
  const rows = unwrap(await query.order('id', { ascending: false }).limit(MESSAGE_PAGE_SIZE), 'GET') as ChatMessage[];
  return rows.reverse();
}

/**
 * Catch-up after a (re)join: every message after `afterId` plus those still inside the 15-minute
 * edit window (so edits and deletes made while disconnected arrive too), oldest first, at most 500.
 */
export async function fetchNewerMessages(conversationId: string, afterId: number): Promise<ChatMessage[]> {
  const editableSince = new Date(Date.now() - EDIT_WINDOW_MS - 60_000).toISOString();
  return unwrap(
    await supabase
      .from('messages')
      .select(MESSAGE_COLUMNS)
      .eq('conversation_id', conversationId)
      .or(`id.gt.${afterId},created_at.gt.${editableSince}`)
      .order('id')
      .limit(500),
    'GET',
  ) as ChatMessage[];
}



/**
 * Uploads an attachment into the sender's folder of the conversation through the upload function
 * (which checks the bytes).
 * @returns the object name to send with the message
 * @throws ApiError when it is refused (not a member, blocked, too large, wrong type or bytes)
 */
export async function uploadAttachment(conversationId: string, senderId: string, file: File): Promise<string> {
  return uploadFile(ATTACHMENT_BUCKET, `${conversationId}/${senderId}/${safeFileName(file.name)}`, file);
}

/** A signed URL (valid `ATTACHMENT_URL_TTL_S`) of an attachment, for members only (Storage RLS). */
export const attachmentUrlQuery = (path: string, download?: string) =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'attachment-url', path, download ?? ''],
    queryFn: async (): Promise<string> => {
      const { data, error } = await supabase.storage.from(ATTACHMENT_BUCKET).createSignedUrl(path, ATTACHMENT_URL_TTL_S, download ? { download } : undefined);
      if (error || !data) throw new ApiError(error?.message ?? 'no signed URL', 400, 'POST');
      return data.signedUrl;
    },
    staleTime: (ATTACHMENT_URL_TTL_S - 300) * 1000,
  });

/**
 * Sends a message as `senderId`, optionally with an uploaded attachment. `clientId` (a UUID made
 * once per message) makes sending again safe: the database stores a message once per sender and
 * client id, and a repeated send returns the stored one.
 * @returns the stored row
 * @throws ApiError (42501 when a block or membership refuses it, PT402 payment required,
 *   22023 invalid_attachment)
 */
export async function sendMessage(
  conversationId: string,
  senderId: string,
  body: string,
  attachment: { path: string; name: string } | undefined,
  clientId: string,
): Promise<ChatMessage> {
  const result = await supabase
    .from('messages')
    .insert({
      conversation_id: conversationId,
      sender_id: senderId,
      body,
      client_id: clientId,
      ...(attachment ? { attachment_path: attachment.path, attachment_name: attachment.name.slice(0, 200) } : {}),
    })
    .select(MESSAGE_COLUMNS)
    .single();
  if (result.error?.code === '23505') {
    // an earlier try of this message was stored but its answer never arrived (issue 17): that
    // stored message is the result, not a second copy
    return unwrap(await supabase.from('messages').select(MESSAGE_COLUMNS).eq('sender_id', senderId).eq('client_id', clientId).single(), 'GET') as ChatMessage;
  }
  return unwrap(result, 'POST') as ChatMessage;
}

/** Edits an own message (within 15 minutes; PT403 edit_window_closed after). */
export async function editMessage(id: number, body: string): Promise<ChatMessage> {
  return unwrap(await supabase.from('messages').update({ body }).eq('id', id).select(MESSAGE_COLUMNS).single(), 'PATCH') as ChatMessage;
}

/**
 * Deletes an own message (soft: the body is emptied and shown as deleted; within 15 minutes) and
 * then its attachment's object (a failed object removal leaves an unreferenced file, nothing more).
 */
export async function deleteMessage(message: Pick<ChatMessage, 'id' | 'attachment_path'>): Promise<ChatMessage> {
  const row = unwrap(
    await supabase.from('messages').update({ deleted_at: new Date().toISOString() }).eq('id', message.id).select(MESSAGE_COLUMNS).single(),
    'PATCH',
  ) as ChatMessage;
  if (message.attachment_path) await supabase.storage.from(ATTACHMENT_BUCKET).remove([message.attachment_path]);
  return row;
}

/** Marks the conversation read up to now (read receipt for the other side). */
export async function markConversationRead(conversationId: string): Promise<void> {
  unwrap(await supabase.rpc('mark_conversation_read', { p_conversation_id: conversationId }), 'POST');
}

/**
 * Opens (or reuses) the direct conversation with a contact.
 * @returns the conversation id
 * @throws ApiError PT403 not_a_contact, P0001 blocked, PT402 payment_required
 */
export async function startConversation(otherUserId: string): Promise<string> {
  return unwrap(await supabase.rpc('start_direct_conversation', { p_other_user_id: otherUserId }), 'POST');
}

/** Message id of a failed chat action. */
export function chatErrorMessageId(error: unknown): string {
  const message = error instanceof ApiError ? error.message : '';
  if (message === 'edit_window_closed') return 'chat.error.editWindow';
  if (message === 'not_a_contact') return 'chat.error.notContact';
  if (message === 'payment_required') return 'contacts.error.paymentRequired';
  if (message === 'blocked' || (error instanceof ApiError && error.code === '42501')) return 'chat.error.cannotWrite';
  return 'chat.error.generic';
}

