import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import { type MatchProfileInput, type MatchProfileRow, PROFILE_COLUMNS } from './match-profile';

/*
 * Writes of matching profiles (issue 19): save the primary or a saved profile, delete a saved one
 * (supabase/schemas/18_matching.sql; RLS and the trigger decide).
 */

/**
 * Saves one of the caller's matching profiles: update when `id` is given, else insert the primary
 * profile (`primary`) or an Enterprise saved one (the database sets user_id = auth.uid(); RLS and
 * the trigger check the rest).
 * @throws ApiError (22023 unknown_skill, PT402 payment_required | enterprise_required, P0001 saved_profile_limit, 23514 check violations)
 */
export async function saveMatchProfile(id: string | null, values: MatchProfileInput, primary = true): Promise<MatchProfileRow> {
  const query = id
    ? supabase.from('match_profiles').update(values).eq('id', id).select(PROFILE_COLUMNS).single()
    : supabase
        .from('match_profiles')
        .insert({ ...values, is_primary: primary })
        .select(PROFILE_COLUMNS)
        .single();
  return unwrap(await query, id ? 'PATCH' : 'POST') as MatchProfileRow;
}

/** Deletes one of the caller's saved match profiles (RLS: owner only). */
export async function deleteMatchProfile(id: string): Promise<void> {
  unwrap(await supabase.from('match_profiles').delete().eq('id', id).eq('is_primary', false), 'DELETE');
}
