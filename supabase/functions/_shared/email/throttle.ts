/**
 * Per-user throttle for account mails (resend confirmation, password reset): at most one mail
 * of a kind per user within a window, so the public endpoints cannot be used to flood a mailbox.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** True when a mail of `emailType` was queued for `userId` within the last `seconds`. */
export async function queuedRecently(
  admin: SupabaseClient,
  userId: string,
  emailType: string,
  seconds: number,
  now: number,
): Promise<boolean> {
  const since = new Date(now - seconds * 1000).toISOString();
  const { data, error } = await admin
    .from('email_queue')
    .select('id')
    .eq('user_id', userId)
    .eq('email_type', emailType)
    .gte('created_at', since)
    .limit(1);
  if (error) throw new Error(`email_queue lookup: ${error.message}`);
  return (data ?? []).length > 0;
}
