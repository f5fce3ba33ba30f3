import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import { currentUserId } from '@/lib/own-profile';

/**
 * Privacy and notification switches of the signed-in user (issue 13, table user_settings; no row
 * = every switch on).
 */
export interface UserSettings {
  /** "Show my online status": off = offline to everyone and no one else's status (reciprocity). */
  show_online_status: boolean;
  /** E-mail for contact requests. */
  email_contact_requests: boolean;
  /** E-mail for messages unread for 15 minutes (at most one per conversation and day). */
  email_messages: boolean;
  /** E-mail when an event I attend or wait for changes, is cancelled, and a reminder the day before (issue 16). */
  email_event_updates: boolean;
  /** Weekly "new matches" e-mail (issue 19; sent to Premium and Enterprise members). */
  email_match_digest: boolean;
}

export const DEFAULT_USER_SETTINGS: UserSettings = { show_online_status: true, email_contact_requests: true, email_messages: true, email_event_updates: true, email_match_digest: true };

/** Query key of the caller's settings. */
export const USER_SETTINGS_KEY = ['user-settings'] as const;

/** Query options of the caller's settings (defaults when no row exists). */
export const userSettingsQuery = () =>
  queryOptions({
    queryKey: USER_SETTINGS_KEY,
    queryFn: async (): Promise<UserSettings> => {
      const row = unwrap(
        await supabase.from('user_settings').select('show_online_status, email_contact_requests, email_messages, email_event_updates, email_match_digest').maybeSingle(),
        'GET',
      );
      return row ?? DEFAULT_USER_SETTINGS;
    },
    staleTime: 60_000,
  });

/**
 * Saves changed switches: updates the caller's row, or creates it with the changes (RLS: own row
 * only). A row created meanwhile by another tab is updated instead.
 */
export async function saveUserSettings(changes: Partial<UserSettings>): Promise<UserSettings> {
  const userId = await currentUserId();
  const columns = 'show_online_status, email_contact_requests, email_messages, email_event_updates, email_match_digest';
  const update = async () => unwrap(await supabase.from('user_settings').update(changes).eq('user_id', userId).select(columns), 'PATCH');
  const updated = await update();
  if (updated[0]) return updated[0];
  const inserted = await supabase.from('user_settings').insert({ user_id: userId, ...changes }).select(columns).single();
  if (inserted.error?.code === '23505') {
    const again = await update();
    if (again[0]) return again[0];
  }
  return unwrap(inserted, 'POST');
}
