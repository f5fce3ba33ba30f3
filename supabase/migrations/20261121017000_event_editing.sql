-- =============================================================================
-- Editing events after creation (issue 8, /user/events)
-- =============================================================================
-- The organiser (and an admin, policy events_update) may change an event's content. The rules,
-- enforced here for every statement that comes from the API (anon/authenticated); trusted code
-- (service role, pg_cron, our own triggers) is exempt except where noted:
--   1. finished and cancelled events are read-only: their content columns cannot change (their
--      status cannot either: both are final in event_status_transitions).
--   2. the slug never changes, so links that were shared keep working.
--   3. a changed start or end must lie in the future; the start of an ongoing event is fixed.
--   4. the capacity may not drop below the number of confirmed (going) attendees. This holds for
--      every writer, trusted ones included, because the seat logic relies on it.
--   5. with active RSVPs (going or waitlisted) a free event cannot become paid and a price cannot
--      rise: people signed up on the announced terms. Lowering or dropping the price is fine.
--   6. when the capacity is raised or removed, waitlisted attendees take the new seats in
--      waitlist order (created_at, user_id) -- the same order RSVP cancellations use.
--   7. an upcoming event whose start is moved more than 7 days ahead goes back to published
--      (upcoming means "starts within 7 days"; private.advance_event_statuses moves it forward
--      again). This is the only status change made by the database outside
--      event_status_transitions, which lists what users may do.
-- Rule 6 shares one implementation (private.promote_waitlisted) with the attendee trigger.

-- -----------------------------------------------------------------------------
-- Waitlist promotion, shared by the attendee trigger and capacity changes
-- -----------------------------------------------------------------------------
create or replace function private.promote_waitlisted(p_event_id bigint, p_capacity integer)
returns table (going integer, waitlisted integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_going integer;
  next_user uuid;
begin
  select count(*)::integer into v_going from public.event_attendees where event_id = p_event_id and status = 'going';
  while p_capacity is null or v_going < p_capacity loop
    select a.user_id into next_user from public.event_attendees a
    where a.event_id = p_event_id and a.status = 'waitlisted' order by a.created_at, a.user_id limit 1;
    exit when next_user is null;
    update public.event_attendees set status = 'going', updated_at = pg_catalog.now()
    where event_id = p_event_id and user_id = next_user;
    v_going := v_going + 1;
    next_user := null;
  end loop;
  going := v_going;
  select count(*)::integer into waitlisted from public.event_attendees where event_id = p_event_id and status = 'waitlisted';
  return next;
end;
$$;
comment on function private.promote_waitlisted(bigint, integer) is
  'Moves the oldest waitlisted RSVPs of an event (order created_at, user_id) to going while seats are free under p_capacity (null = unlimited); returns the resulting going and waitlisted counts. Caller must hold the event row lock.';
revoke execute on function private.promote_waitlisted(bigint, integer) from public, anon, authenticated;

-- Same behaviour as before (20261121000700_events.sql), now using the shared promotion.
create or replace function private.after_attendee_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event bigint := coalesce(new.event_id, old.event_id);
  ev public.events;
  counts record;
begin
  select * into ev from public.events where id = v_event for update;
  if not found then
    return null;
  end if;
  -- a seat freed up: promote the oldest waitlisted RSVPs
  select * into counts from private.promote_waitlisted(v_event, ev.capacity);
  update public.events e set going_count = counts.going, waitlist_count = counts.waitlisted
  where e.id = v_event;
  return null;
end;
$$;
comment on function private.after_attendee_change() is 'AFTER INSERT/UPDATE/DELETE on event_attendees: promotion (private.promote_waitlisted) and counters.';

-- -----------------------------------------------------------------------------
-- Edit rules (BEFORE UPDATE; fires right after events_guard, which checks status transitions)
-- -----------------------------------------------------------------------------
create or replace function private.guard_event_edit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  from_api boolean := private.is_api_statement();
  v_going integer;
  v_active integer;
  counts record;
begin
  if from_api and old.status in ('finished', 'cancelled') and (
       new.title, new.summary, new.description, new.category, new.is_paid, new.price_cents, new.currency,
       new.starts_at, new.ends_at, new.timezone, new.is_online, new.venue_name, new.street, new.zipcode,
       new.city, new.latitude, new.longitude, new.online_url, new.capacity, new.image
     ) is distinct from (
       old.title, old.summary, old.description, old.category, old.is_paid, old.price_cents, old.currency,
       old.starts_at, old.ends_at, old.timezone, old.is_online, old.venue_name, old.street, old.zipcode,
       old.city, old.latitude, old.longitude, old.online_url, old.capacity, old.image
     ) then
    raise exception using errcode = 'P0001', message = 'event_read_only',
      detail = pg_catalog.format('A %s event cannot be edited.', old.status);
  end if;

  if from_api and new.slug is distinct from old.slug then
    raise exception using errcode = '42501', message = 'protected_column',
      detail = 'The slug is permanent so shared links keep working.';
  end if;

  if from_api and new.starts_at is distinct from old.starts_at and old.status = 'ongoing' then
    raise exception using errcode = 'P0001', message = 'event_started',
      detail = 'The start of an ongoing event cannot change.';
  end if;
  if from_api and (
       (new.starts_at is distinct from old.starts_at and new.starts_at <= pg_catalog.now())
       or (new.ends_at is distinct from old.ends_at and new.ends_at <= pg_catalog.now())) then
    raise exception using errcode = 'P0001', message = 'event_time_past',
      detail = 'A changed start or end must lie in the future.';
  end if;
  if new.starts_at is distinct from old.starts_at and old.status = 'upcoming' and new.status = 'upcoming'
     and new.starts_at > pg_catalog.now() + interval '7 days' then
    new.status := 'published';
  end if;

  if new.capacity is distinct from old.capacity or (new.is_paid, new.price_cents) is distinct from (old.is_paid, old.price_cents) then
    -- the row lock of this UPDATE serialises with RSVPs (their trigger locks the event row first)
    select count(*) filter (where status = 'going')::integer, count(*) filter (where status <> 'cancelled')::integer
    into v_going, v_active
    from public.event_attendees where event_id = new.id;

    if new.capacity is not null and new.capacity < v_going then
      raise exception using errcode = 'P0001', message = 'capacity_below_attendees',
        detail = pg_catalog.format('%s people are attending; the capacity cannot be lower.', v_going),
        hint = v_going::text;
    end if;

    if from_api and v_active > 0 and new.is_paid
       and (not old.is_paid or new.price_cents > old.price_cents) then
      raise exception using errcode = 'P0001', message = 'event_price_locked',
        detail = 'With RSVPs the event cannot become paid and the price cannot rise.';
    end if;

    if new.capacity is null or (old.capacity is not null and new.capacity > old.capacity) then
      select * into counts from private.promote_waitlisted(new.id, new.capacity);
      new.going_count := counts.going;
      new.waitlist_count := counts.waitlisted;
    end if;
  end if;
  return new;
end;
$$;
comment on function private.guard_event_edit() is
  'BEFORE UPDATE on events: finished/cancelled read-only, permanent slug, times in the future, capacity >= going attendees, no price rise with RSVPs, promotion from the waitlist when seats are added, upcoming back to published when moved > 7 days ahead (migration 20261121017000).';

create trigger events_guard_edit before update on public.events
  for each row execute function private.guard_event_edit();

comment on column public.events.capacity is
  'Seats; null = unlimited. Further RSVPs go to the waitlist. Never below the going attendees; raising it promotes waitlisted RSVPs.';
comment on column public.events.slug is 'Permanent (set on insert from title and start date); shared links keep working after edits.';
