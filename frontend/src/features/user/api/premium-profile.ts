import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { supabase } from '@/lib/supabase';
import type { PremiumProfileValues } from './premium-profile-rules';

export * from './premium-profile-rules';

/** Query options of the user's own published, public projects (the choices for the featured project). */
export const ownPublishedProjectsQuery = (ownerId: string) =>
  queryOptions({
    queryKey: ['own-published-projects', ownerId],
    queryFn: async () =>
      unwrap(
        await supabase
          .from('projects')
          .select('id, title')
          .eq('owner_id', ownerId)
          .eq('status', 'published')
          .eq('is_private', false)
          .order('published_at', { ascending: false })
          .limit(100),
        'GET',
      ),
  });

/**
 * Saves the premium settings on the own profile row (RLS: own row; the database refuses them
 * without premium: P0001 premium_required, featured_project_invalid).
 * @throws ApiError with the database's code and message
 */
export async function savePremiumProfile(userId: string, values: PremiumProfileValues): Promise<void> {
  unwrap(await supabase.from('profiles').update(values).eq('id', userId), 'PATCH');
}
