-- =============================================================================
-- Waitlist position of the caller for an event (issue 8, /events/{slug})
-- =============================================================================
-- RLS lets an attendee read only their own RSVP row, so the place in the queue cannot be counted
-- from the API. This function counts it with the same order the promotion trigger uses
-- (created_at, user_id; see private.after_attendee_change) and reveals nothing but a number.

create or replace function public.event_waitlist_position(p_event_id bigint)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select (
    select count(*)::integer + 1
    from public.event_attendees o
    where o.event_id = me.event_id
      and o.status = 'waitlisted'
      and (o.created_at, o.user_id) < (me.created_at, me.user_id)
  )
  from public.event_attendees me
  where me.event_id = p_event_id
    and me.user_id = auth.uid()
    and me.status = 'waitlisted'
$$;
comment on function public.event_waitlist_position(bigint) is
  'Position (1 = next) of the caller on the waitlist of p_event_id, in promotion order (created_at, user_id); null when the caller is not waitlisted or not signed in.';
revoke execute on function public.event_waitlist_position(bigint) from public, anon;
grant execute on function public.event_waitlist_position(bigint) to authenticated, service_role;
