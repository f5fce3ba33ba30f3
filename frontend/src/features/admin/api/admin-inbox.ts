import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';

/** Triage state of a contact message or feedback (public.feedback_status); `done` is "handled". */
export type InboxStatus = Database['public']['Enums']['feedback_status'];
/** One message of the contact form (public.contact_messages). */
export type ContactMessageRow = Pick<
  Database['public']['Tables']['contact_messages']['Row'],
  'id' | 'name' | 'email' | 'topic' | 'subject' | 'message' | 'lang' | 'status' | 'created_at'
>;
/** One feedback entry (public.feedback). */
export type FeedbackRow = Pick<Database['public']['Tables']['feedback']['Row'], 'id' | 'category' | 'rating' | 'message' | 'page_url' | 'status' | 'created_at'>;

/** The two admin inboxes (issue 33 §9). */
export type InboxTable = 'contact_messages' | 'feedback';

/** Rows per page of the admin inboxes. */
export const INBOX_PAGE_SIZE = 20;

const COLUMNS = {
  contact_messages: 'id, name, email, topic, subject, message, lang, status, created_at',
  feedback: 'id, category, rating, message, page_url, status, created_at',
} as const;

/**
 * Query options of one page of an admin inbox, newest first (ties by id), with the total count.
 * Only admins read these tables (RLS of contact_messages and feedback; a member would see only
 * the own feedback), so the pages are behind the admin guard.
 * @param page 1-based page number
 * @throws ApiError from PostgREST
 */
export const inboxQuery = <T extends InboxTable>(table: T, page: number) =>
  queryOptions({
    queryKey: ['admin-inbox', table, page],
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ rows: T extends 'feedback' ? FeedbackRow[] : ContactMessageRow[]; total: number }> => {
      const from = (page - 1) * INBOX_PAGE_SIZE;
      const result = await supabase
        .from(table)
        .select(COLUMNS[table], { count: 'exact' })
        .order('created_at', { ascending: false })
        .order('id', { ascending: false })
        .range(from, from + INBOX_PAGE_SIZE - 1);
      const rows = unwrap(result, 'GET') ?? [];
      return { rows: rows as never, total: result.count ?? 0 };
    },
  });

/**
 * Sets the triage state of one row (admins only: the update policies of both tables); refreshes
 * the inbox afterwards.
 * @throws ApiError from PostgREST
 */
export function useSetInboxStatus(table: InboxTable) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: number; status: InboxStatus }) => {
      const result = await supabase.from(table).update({ status }).eq('id', id).select('id').single();
      unwrap(result, 'PATCH');
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['admin-inbox', table] }),
  });
}
