import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import { nudgeRefunds } from './event-attendance';
import type { EventStatus } from './get-events';

/*
 * Status changes of an event (spec §4 event statuses; the transitions table and its trigger decide).
 */

/** Allowed status transitions (table event_status_transitions, the rule the trigger enforces). */
export async function getTransitions(): Promise<{ from_status: EventStatus; to_status: EventStatus }[]> {
  const { supabase } = await import('@/lib/supabase');
  return unwrap(await supabase.from('event_status_transitions').select('from_status, to_status').retry(false), 'GET') ?? [];
}

/** Hook for the transition table (static; cached for the session). */
export function useTransitions() {
  return useQuery({ queryKey: ['events', 'transitions'], queryFn: getTransitions, staleTime: Infinity });
}

/**
 * Changes an event's status (organiser). The trigger refuses transitions outside the table.
 * @throws ApiError (P0001 invalid_event_transition)
 */
export async function changeEventStatus(eventId: number, status: EventStatus): Promise<void> {
  const { supabase } = await import('@/lib/supabase');
  unwrap(await supabase.from('events').update({ status }).eq('id', eventId).select('id').single(), 'PATCH');
  // a cancelled paid event refunds every ticket (database queue); start the refunds now
  if (status === 'cancelled') await nudgeRefunds();
}

/** Mutation hook for status changes. */
export function useChangeEventStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, status }: { eventId: number; status: EventStatus }) => changeEventStatus(eventId, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['events'] }),
  });
}
