/**
 * Queues a transactional mail in `email_queue` with the service role (spec §7). The row is sent
 * by process-email-queue in `lang` (the recipient's language, default de).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** One mail to queue. `payload` carries mail-specific placeholders such as `link`. */
export interface EnqueueInput {
  userId: string | null;
  email: string;
  emailType: 'confirm_email' | 'password_reset' | 'welcome_email' | string;
  lang: 'de' | 'en';
  userMetadata?: Record<string, unknown>;
  payload?: Record<string, unknown>;
}

/** Inserts the row and returns its id. Errors: throws with the PostgREST error text. */
export async function enqueueEmail(admin: SupabaseClient, input: EnqueueInput): Promise<number> {
  const { data, error } = await admin
    .from('email_queue')
    .insert({
      user_id: input.userId,
      email: input.email,
      email_type: input.emailType,
      lang: input.lang,
      user_metadata: input.userMetadata ?? {},
      payload: input.payload ?? {},
    })
    .select('id')
    .single();
  if (error) throw new Error(`enqueue ${input.emailType}: ${error.message}`);
  return (data as { id: number }).id;
}
