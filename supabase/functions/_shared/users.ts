/**
 * Account lookups with the service role, shared by the account functions (issue 6).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** The profile columns the account flows need (spec §3). */
export interface AccountProfile {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
  preferred_language: 'de' | 'en';
  /** 1 = e-mail confirmed. */
  authenticated: number;
  user_role: 'old_user' | 'free' | 'basic' | 'premium' | 'enterprise' | 'admin';
}

const COLUMNS = 'id, email, firstname, lastname, preferred_language, authenticated, user_role';

/** The profile with this (lower-cased) address, or null. Errors: throws the PostgREST text. */
export async function findProfileByEmail(admin: SupabaseClient, email: string): Promise<AccountProfile | null> {
  const { data, error } = await admin.from('profiles').select(COLUMNS).eq('email', email.toLowerCase()).limit(1).maybeSingle();
  if (error) throw new Error(`profiles lookup: ${error.message}`);
  return (data as AccountProfile | null) ?? null;
}

/** The profile with this id, or null. Errors: throws the PostgREST text. */
export async function findProfileById(admin: SupabaseClient, id: string): Promise<AccountProfile | null> {
  const { data, error } = await admin.from('profiles').select(COLUMNS).eq('id', id).maybeSingle();
  if (error) throw new Error(`profiles lookup: ${error.message}`);
  return (data as AccountProfile | null) ?? null;
}

/** Whether the account is suspended (a row in account_suspensions). Errors: throws the PostgREST text. */
export async function isSuspended(admin: SupabaseClient, userId: string): Promise<boolean> {
  const { data, error } = await admin.from('account_suspensions').select('user_id').eq('user_id', userId).maybeSingle();
  if (error) throw new Error(`suspension lookup: ${error.message}`);
  return data !== null;
}
