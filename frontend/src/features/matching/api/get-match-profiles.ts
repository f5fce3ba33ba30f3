import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import { MATCHING_KEY, type MatchProfileRow, PROFILE_COLUMNS, type Skill } from './match-profile';

/*
 * Reads of matching profiles (issue 19): the skill vocabulary, the caller's primary profile and the
 * Enterprise saved profiles (supabase/schemas/18_matching.sql; RLS: owner only).
 */

/** Query options of the skill vocabulary (public reference data, cached for the session). */
export const skillsQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'skills'],
    queryFn: async (): Promise<Skill[]> => unwrap(await supabase.from('skills').select('id, key, role, label_en, label_de').order('id'), 'GET') as Skill[],
    staleTime: Infinity,
  });

/** Query options of the caller's primary matching profile (null when none yet; RLS: owner only). */
export const ownMatchProfileQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'own-profile'],
    queryFn: async (): Promise<MatchProfileRow | null> =>
      unwrap(await supabase.from('match_profiles').select(PROFILE_COLUMNS).eq('is_primary', true).maybeSingle(), 'GET') as MatchProfileRow | null,
  });

/** Query options of the caller's saved match profiles (Enterprise custom matching), oldest first. */
export const savedMatchProfilesQuery = () =>
  queryOptions({
    queryKey: [...MATCHING_KEY, 'saved-profiles'],
    queryFn: async (): Promise<MatchProfileRow[]> =>
      unwrap(await supabase.from('match_profiles').select(PROFILE_COLUMNS).eq('is_primary', false).order('created_at'), 'GET') as MatchProfileRow[],
  });
