import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { supabase } from './supabase';

/**
 * Query options of whether the signed-in user `userId` may enter the paid user area:
 * public.has_active_subscription() (a live paid subscription or admin), the database's rule and the
 * same one the payment-required guard asks (spec §6). The header and the user area's navigation
 * offer free members only what they can open with it (issue 32 §5).
 * @throws ApiError when the RPC fails
 */
export const paidAccessQuery = (userId: string) =>
  queryOptions({
    // under ['billing'], so a confirmed payment (billing's invalidation) refreshes the menus too
    queryKey: ['billing', 'paid-access', userId],
    queryFn: async (): Promise<boolean> => unwrap(await supabase.rpc('has_active_subscription'), 'POST') === true,
    staleTime: 30_000,
  });
