import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap } from '@/lib/api-error';
import type { Database } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import { ContactRequestError } from './weekly-limit';

/**
 * Contacts (issue 13, spec §2 /user/contacts): requests with a note, answers, removal. The
 * database owns every rule (send_contact_request: 30-day rule after a decline, daily limits,
 * blocks, payment required); this module only calls it and names its errors.
 */

/** A row of `my_contacts`: the contact row plus the other person's public card. */
export type ContactRow = Database['public']['Functions']['my_contacts']['Returns'][number];

/** The three tabs of /user/contacts. */
export const CONTACT_TABS = ['contacts', 'received', 'sent'] as const;
export type ContactTab = (typeof CONTACT_TABS)[number];

/** Rows per page on /user/contacts. */
export const CONTACTS_PAGE_SIZE = 20;
/** Longest note of a request (characters; the database checks the same). */
export const CONTACT_NOTE_MAX = 500;

/** Query key prefix of everything contact-related (invalidated on Broadcasts and after actions). */
export const CONTACTS_KEY = ['contacts'] as const;

/**
 * Query options of one page of a tab: `{ rows, total }`, newest first.
 * @param search part of the display name ('' = all); page 1-based
 * @throws ApiError (22023 for an unknown tab or paging)
 */
export const myContactsQuery = (tab: ContactTab, search: string, page: number) =>
  queryOptions({
    queryKey: [...CONTACTS_KEY, 'list', tab, search, page],
    queryFn: async (): Promise<{ rows: ContactRow[]; total: number }> => {
      const rows = unwrap(
        await supabase.rpc('my_contacts', {
          p_tab: tab,
          p_search: search || undefined,
          p_limit: CONTACTS_PAGE_SIZE,
          p_offset: (page - 1) * CONTACTS_PAGE_SIZE,
        }),
        'POST',
      );
      return { rows, total: Number(rows[0]?.total ?? 0) };
    },
    placeholderData: (previous) => previous,
  });

/** Query options of the number of pending requests the caller received (tab and navigation badge). */
export const contactRequestCountQuery = () =>
  queryOptions({
    queryKey: [...CONTACTS_KEY, 'request-count'],
    queryFn: async (): Promise<number> => unwrap(await supabase.rpc('contact_request_count'), 'POST'),
    staleTime: 30_000,
  });

/** How the caller stands with one person (Connect button). */
export type Relation =
  | { kind: 'none' }
  | { kind: 'sent'; contactId: number }
  | { kind: 'received'; contactId: number; message: string | null }
  | { kind: 'contact'; contactId: number }
  /** the other person declined the caller; the database says until when it refuses a new request */
  | { kind: 'declined'; contactId: number };

/**
 * Query options of the caller's relation to `otherId` (RLS: only rows of the caller's own pairs,
 * none with a blocked person).
 */
export const relationQuery = (me: string, otherId: string) =>
  queryOptions({
    queryKey: [...CONTACTS_KEY, 'relation', otherId],
    queryFn: async (): Promise<Relation> => {
      const rows = unwrap(
        await supabase
          .from('contacts')
          .select('id, requester_id, addressee_id, status, message')
          .or(`and(requester_id.eq.${me},addressee_id.eq.${otherId}),and(requester_id.eq.${otherId},addressee_id.eq.${me})`)
          .limit(1),
        'GET',
      );
      const row = rows[0];
      if (!row) return { kind: 'none' };
      if (row.status === 'accepted') return { kind: 'contact', contactId: row.id };
      // an expired request (issue 19: 14 days unanswered) may be sent again
      if (row.status === 'expired') return { kind: 'none' };
      if (row.status === 'declined') return row.requester_id === me ? { kind: 'declined', contactId: row.id } : { kind: 'none' };
      return row.requester_id === me ? { kind: 'sent', contactId: row.id } : { kind: 'received', contactId: row.id, message: row.message };
    },
  });

/**
 * Sends a request (or accepts theirs when they asked first).
 * @returns 'pending' | 'accepted'
 * @throws ApiError with code PT409 (already_contacts, request_pending, declined_recently), PT429
 *   (weekly_contact_request_limit: see weeklyLimitOf; contact_request_limit), PT402 (payment_required), P0001 (blocked), P0002 (user_not_found), 22001
 */
export async function sendContactRequest(addresseeId: string, note: string): Promise<string> {
  const result = await supabase.rpc('send_contact_request', { p_addressee_id: addresseeId, p_message: note.trim() || undefined });
  if (result.error) throw new ContactRequestError(result.error.message, result.status, result.error.code, result.error.hint || undefined);
  return result.data;
}

/** Accepts or declines a received request (only the addressee may; the database checks). */
export async function answerContactRequest(contactId: number, accept: boolean): Promise<void> {
  unwrap(await supabase.from('contacts').update({ status: accept ? 'accepted' : 'declined' }).eq('id', contactId), 'PATCH');
}

/** Withdraws a sent request or removes a contact (the row goes; a decline the caller received cannot be erased by them). */
export async function deleteContact(contactId: number): Promise<void> {
  unwrap(await supabase.from('contacts').delete().eq('id', contactId), 'DELETE');
}

/** Message id of a failed contact action, from the database's error (issue 13 error names). */
export function contactErrorMessageId(error: unknown): string {
  const message = error instanceof ApiError ? error.message : '';
  const known: Record<string, string> = {
    already_contacts: 'contacts.error.alreadyContacts',
    request_pending: 'contacts.error.requestPending',
    declined_recently: 'contacts.error.declinedRecently',
    weekly_contact_request_limit: 'contacts.error.weeklyLimit',
    contact_request_limit: 'contacts.error.limit',
    payment_required: 'contacts.error.paymentRequired',
    blocked: 'contacts.error.blocked',
    user_not_found: 'contacts.error.notFound',
    note_too_long: 'contacts.error.noteTooLong',
    not_pending: 'contacts.error.notPending',
  };
  return known[message] ?? 'contacts.error.generic';
}

/** The caller's weekly allowance of contact requests (issue 19; `my_contact_request_allowance`). */
export interface ContactAllowance {
  /** 'basic' | 'premium' | 'enterprise' | 'admin', null without a plan */
  plan: string | null;
  /** requests per week; null = no limit (admin), 0 without a plan */
  weeklyLimit: number | null;
  used: number;
  /** null = no limit */
  remaining: number | null;
  /** next Monday 00:00 Europe/Berlin (ISO instant) */
  renewsAt: string;
}

/** Query options of the caller's weekly allowance (under CONTACTS_KEY, so it refreshes after every contact action). */
export const contactAllowanceQuery = () =>
  queryOptions({
    queryKey: [...CONTACTS_KEY, 'allowance'],
    queryFn: async (): Promise<ContactAllowance> => {
      const row = unwrap(await supabase.rpc('my_contact_request_allowance'), 'POST')[0];
      if (!row) throw new ApiError('allowance_missing', 500, 'POST');
      return { plan: row.plan, weeklyLimit: row.weekly_limit, used: row.used, remaining: row.remaining, renewsAt: row.renews_at };
    },
  });
