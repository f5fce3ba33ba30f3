import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { unwrap } from '@/lib/api-error';
import { getSessionUser } from '@/lib/session';
import { type Locale } from '@site/locale';

/** Topics of public.contact_topic a visitor may pick (cancellation has its own form). */
export const CONTACT_TOPICS = ['general', 'support', 'sales', 'enterprise', 'press'] as const;

/** Contact form fields; error messages are ids of en.json/de.json (spec §2 /contact). */
export const contactMessageSchema = z.object({
  topic: z.enum(CONTACT_TOPICS, 'contact.error.topic'),
  name: z.string().trim().min(2, 'contact.error.name').max(200, 'contact.error.name'),
  email: z.email('contact.error.email').max(254, 'contact.error.email'),
  subject: z.string().trim().min(3, 'contact.error.subject').max(200, 'contact.error.subject'),
  message: z.string().trim().min(10, 'contact.error.message').max(5000, 'contact.error.message'),
  privacyAccepted: z.literal(true, 'contact.error.privacy'),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

/**
 * Stores a contact request in `contact_messages` (anon insert allowed by RLS; a trigger queues
 * the contact_confirmation receipt, which carries none of the sender's text). A signed-in sender's
 * message carries the account (user_id): written from the account's own address, the sender gets
 * a copy of the message instead (contact_copy, issue 33 §9). No row is read back: the sender may
 * insert but not select.
 * @throws ApiError with the PostgREST status (POST, never retried); 429 (code PT429) past the
 *   database's limits: 5 messages per address and per account a day, 20 per connection an hour
 *   (issue 12 §8)
 */
export async function createContactMessage(input: ContactMessageInput, locale: Locale): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  const user = await getSessionUser();
  const result = await supabase.from('contact_messages').insert({
    user_id: user?.id ?? null,
    topic: input.topic,
    name: input.name.trim(),
    email: input.email.trim(),
    subject: input.subject.trim(),
    message: input.message.trim(),
    lang: locale,
  });
  unwrap(result, 'POST');
}

/** Mutation hook around createContactMessage. */
export function useCreateContactMessage(locale: Locale) {
  return useMutation({ mutationFn: (input: ContactMessageInput) => createContactMessage(input, locale) });
}
