import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { queryClient } from './query-client';

import { SUPABASE_ANON_KEY, SUPABASE_URL } from './public-api';

export { SUPABASE_ANON_KEY, SUPABASE_URL };
/** The query client comes with supabase-js: lib/session resets it when the signed-in user changes. */
export { queryClient };
if (!SUPABASE_ANON_KEY) throw new Error('VITE_SUPABASE_ANON_KEY is not set (see frontend/README.md, "Environment")');

/**
 * The one supabase-js client of the SPA (auth session in localStorage, refreshed near expiry).
 * Import this module lazily from public pages so the landing page does not load supabase-js.
 */
export const supabase: SupabaseClient<Database> = createClient<Database>(SUPABASE_URL, SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});
