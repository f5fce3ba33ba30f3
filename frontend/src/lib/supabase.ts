import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { queryClient } from './query-client';

import { SUPABASE_ANON_KEY, SUPABASE_URL } from './public-api';

export { SUPABASE_ANON_KEY, SUPABASE_URL };
if (!SUPABASE_ANON_KEY) throw new Error('VITE_SUPABASE_ANON_KEY is not set (see frontend/README.md, "Environment")');

/**
 * The one supabase-js client of the SPA (auth session in localStorage, refreshed near expiry).
 * Import this module lazily from public pages so the landing page does not load supabase-js.
 */
export const supabase: SupabaseClient<Database> = createClient<Database>(SUPABASE_URL, SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});

/** User id of the last auth event; undefined until the first event (INITIAL_SESSION). */
let lastUserId: string | null | undefined;

/*
 * Cached data belongs to the user who fetched it (own profile, favourites, search results without
 * the people they blocked): when the signed-in user changes (sign-out, auto-logout, another tab,
 * a different account), every query is reset, so active ones refetch and nobody sees the previous
 * user's data (spec §4).
 */
supabase.auth.onAuthStateChange((_event, session) => {
  const userId = session?.user.id ?? null;
  const changed = lastUserId !== undefined && userId !== lastUserId;
  lastUserId = userId;
  if (changed) setTimeout(() => void queryClient.resetQueries(), 0);
});
