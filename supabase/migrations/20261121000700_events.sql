-- =============================================================================
-- Events, allowed status transitions, attendees with capacity and waitlist (spec §4; issue 8)
-- =============================================================================

create type public.event_status as enum ('draft', 'published', 'upcoming', 'ongoing', 'finished', 'cancelled');
comment on type public.event_status is
  'draft (only organiser) -> published (announced) -> upcoming (registration open, soon) -> ongoing -> finished; cancelled from any non-final state.';
create type public.attendee_status as enum ('going', 'waitlisted', 'cancelled');

create table public.event_status_transitions (
  from_status public.event_status not null,
  to_status public.event_status not null,
  primary key (from_status, to_status),
  check (from_status <> to_status)
);
comment on table public.event_status_transitions is
  'The allowed event status transitions (spec §4 leaves them open; this table is the rule). Enforced by trigger.';

-- The rule:
--   draft     -> published | cancelled
--   published -> draft (unpublish) | upcoming | ongoing | cancelled
--   upcoming  -> ongoing | cancelled
--   ongoing   -> finished | cancelled
--   finished, cancelled: final
insert into public.event_status_transitions (from_status, to_status) values
  ('draft', 'published'), ('draft', 'cancelled'),
  ('published', 'draft'), ('published', 'upcoming'), ('published', 'ongoing'), ('published', 'cancelled'),
  ('upcoming', 'ongoing'), ('upcoming', 'cancelled'),
  ('ongoing', 'finished'), ('ongoing', 'cancelled');

create table public.events (
  id bigint generated always as identity primary key,
  organizer_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 3 and 140),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 120),
  summary text not null default '' check (char_length(summary) <= 500),
  description text not null default '' check (char_length(description) <= 20000),
  category public.project_category not null default 'other',
  status public.event_status not null default 'draft',
  is_paid boolean not null default false,
  price_cents integer check (price_cents > 0),
  currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  timezone text not null default 'Europe/Berlin',
  is_online boolean not null default false,
  venue_name text check (char_length(venue_name) <= 200),
  street text check (char_length(street) <= 200),
  zipcode text check (char_length(zipcode) <= 20),
  city text check (char_length(city) <= 100),
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  online_url text check (online_url ~ '^https://'),
  capacity integer check (capacity > 0),
  going_count integer not null default 0 check (going_count >= 0),
  waitlist_count integer not null default 0 check (waitlist_count >= 0),
  image text,
  owner_listed boolean not null default false,
  owner_premium boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint events_time_order check (ends_at > starts_at),
  constraint events_price check ((is_paid and price_cents is not null) or (not is_paid and price_cents is null)),
  constraint events_location check ((is_online and online_url is not null) or (not is_online and city is not null))
);
comment on table public.events is 'Events at /events/{slug}; times are instants, shown in Europe/Berlin.';
comment on column public.events.status is 'Changes follow event_status_transitions (trigger).';
comment on column public.events.price_cents is 'Ticket price incl. VAT in cents; null for free events.';
comment on column public.events.timezone is 'IANA zone the organiser planned in (display and .ics export).';
comment on column public.events.online_url is 'Join link for online events (https only).';
comment on column public.events.capacity is 'Seats; null = unlimited. Further RSVPs go to the waitlist.';
comment on column public.events.going_count is 'Maintained by the attendee trigger.';
comment on column public.events.waitlist_count is 'Maintained by the attendee trigger.';

comment on column public.events.owner_listed is 'Owner confirmed, visible and not suspended; maintained by trigger (search filter).';
comment on column public.events.owner_premium is 'Owner on premium/enterprise; maintained by trigger (search preference, spec §6).';
create trigger events_owner_flags before insert or update on public.events
  for each row execute function private.set_owner_flags('organizer_id');

create index events_organizer_idx on public.events (organizer_id, starts_at desc);
create index events_listed_idx on public.events (starts_at, id) where status in ('published', 'upcoming', 'ongoing');
create index events_city_idx on public.events (city, starts_at) where status in ('published', 'upcoming', 'ongoing');
create index events_category_idx on public.events (category, starts_at) where status in ('published', 'upcoming', 'ongoing');
create index events_status_idx on public.events (status, starts_at);

create table public.event_attendees (
  event_id bigint not null references public.events (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  status public.attendee_status not null default 'going',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (event_id, user_id)
);
comment on table public.event_attendees is
  'RSVPs. The trigger decides going vs. waitlisted by capacity and promotes the oldest waitlisted seat when one frees up.';
comment on column public.event_attendees.created_at is 'RSVP time; waitlist order.';
create index event_attendees_user_idx on public.event_attendees (user_id);
create index event_attendees_waitlist_idx on public.event_attendees (event_id, created_at) where status = 'waitlisted';

-- -----------------------------------------------------------------------------
-- Triggers
-- -----------------------------------------------------------------------------
create or replace function private.guard_event()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.slug is null or new.slug = '' then
    new.slug := private.slugify(new.title) || '-' || pg_catalog.to_char(new.starts_at at time zone 'Europe/Berlin', 'YYYY-MM-DD')
      || '-' || pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 4);
  end if;
  if tg_op = 'INSERT' then
    if new.status not in ('draft', 'published') and not private.is_privileged() then
      raise exception using errcode = 'P0001', message = 'invalid_event_status',
        detail = 'A new event starts as draft or published.';
    end if;
    return new;
  end if;
  if new.organizer_id is distinct from old.organizer_id and not private.is_privileged() then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'organizer_id cannot change.';
  end if;
  if new.status is distinct from old.status and not exists (
    select 1 from public.event_status_transitions where from_status = old.status and to_status = new.status) then
    raise exception using errcode = 'P0001', message = 'invalid_event_transition',
      detail = pg_catalog.format('%s -> %s is not allowed.', old.status, new.status);
  end if;
  if (new.going_count, new.waitlist_count) is distinct from (old.going_count, old.waitlist_count)
     and pg_catalog.pg_trigger_depth() < 2 and not private.is_privileged() then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Attendee counts are maintained by the database.';
  end if;
  return new;
end;
$$;
comment on function private.guard_event() is
  'BEFORE INSERT/UPDATE on events: slug, initial status, allowed transitions (event_status_transitions), protected counters.';

create trigger events_guard before insert or update on public.events
  for each row execute function private.guard_event();
create trigger events_updated_at before update on public.events
  for each row execute function private.set_updated_at();

-- RSVP rule: only for published/upcoming/ongoing events; a new RSVP (or re-RSVP) is going while
-- seats are free, else waitlisted. Serialised per event by locking the event row.
create or replace function private.before_attendee_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events;
  taken integer;
begin
  if tg_op = 'UPDATE' and (new.event_id <> old.event_id or new.user_id <> old.user_id) then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'event_id and user_id cannot change.';
  end if;
  select * into ev from public.events where id = new.event_id for update;
  if tg_op = 'INSERT' or (old.status = 'cancelled' and new.status <> 'cancelled') then
    if ev.status not in ('published', 'upcoming', 'ongoing') and private.is_api_statement() then
      raise exception using errcode = 'P0001', message = 'event_not_open', detail = 'RSVP is possible for published, upcoming or ongoing events.';
    end if;
    select count(*) into taken from public.event_attendees where event_id = new.event_id and status = 'going';
    new.status := case when ev.capacity is null or taken < ev.capacity then 'going' else 'waitlisted' end;
    -- clock time after the event lock: the waitlist follows the order in which seats were decided
    new.created_at := pg_catalog.clock_timestamp();
  elsif new.status = 'going' and old.status = 'waitlisted' and private.is_api_statement() then
    raise exception using errcode = '42501', message = 'waitlist_promotion', detail = 'Seats are assigned by the database.';
  end if;
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;
comment on function private.before_attendee_change() is 'BEFORE INSERT/UPDATE on event_attendees: capacity and waitlist.';

create or replace function private.after_attendee_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event bigint := coalesce(new.event_id, old.event_id);
  ev public.events;
  going integer;
  next_user uuid;
begin
  select * into ev from public.events where id = v_event for update;
  if not found then
    return null;
  end if;
  select count(*) into going from public.event_attendees where event_id = v_event and status = 'going';
  -- a seat freed up: promote the oldest waitlisted RSVPs
  while ev.capacity is null or going < ev.capacity loop
    select user_id into next_user from public.event_attendees
    where event_id = v_event and status = 'waitlisted' order by created_at, user_id limit 1;
    exit when next_user is null;
    update public.event_attendees set status = 'going', updated_at = pg_catalog.now()
    where event_id = v_event and user_id = next_user;
    going := going + 1;
    next_user := null;
  end loop;
  update public.events e set
    going_count = going,
    waitlist_count = (select count(*) from public.event_attendees a where a.event_id = v_event and a.status = 'waitlisted')
  where e.id = v_event;
  return null;
end;
$$;
comment on function private.after_attendee_change() is 'AFTER INSERT/UPDATE/DELETE on event_attendees: promotion and counters.';

create trigger event_attendees_before before insert or update on public.event_attendees
  for each row execute function private.before_attendee_change();
create trigger event_attendees_after after insert or update of status or delete on public.event_attendees
  for each row when (pg_trigger_depth() < 1)
  execute function private.after_attendee_change();

create or replace function private.organizes_event(p_event_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.events where id = p_event_id and organizer_id = auth.uid())
$$;
comment on function private.organizes_event(bigint) is 'True when auth.uid() organises the event.';

create or replace function private.event_is_visible(p_event_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.events
    where id = p_event_id and status <> 'draft' and not (organizer_id = any (private.hidden_user_ids())))
$$;
comment on function private.event_is_visible(bigint) is 'True when the event is listed for the caller (not draft, organiser not hidden).';

grant execute on function private.organizes_event(bigint), private.event_is_visible(bigint) to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.event_status_transitions enable row level security;
alter table public.events enable row level security;
alter table public.event_attendees enable row level security;

revoke all on public.event_status_transitions, public.events, public.event_attendees from anon, authenticated;
grant select on public.event_status_transitions, public.events to anon;
grant select on public.event_status_transitions to authenticated;
grant select, insert, update, delete on public.events to authenticated;
grant select, insert, update, delete on public.event_attendees to authenticated;
grant all on public.event_status_transitions, public.events, public.event_attendees to service_role;

create policy event_status_transitions_select on public.event_status_transitions for select to anon, authenticated
using (from_status is not null);

create policy events_select on public.events for select to anon, authenticated
using (
  organizer_id = (select auth.uid())
  or (select private.is_admin())
  or (status <> 'draft' and not (organizer_id = any ((select private.hidden_user_ids())::uuid[])))
);
create policy events_insert on public.events for insert to authenticated
with check (organizer_id = (select auth.uid()) and (select private.caller_can_write()));
create policy events_update on public.events for update to authenticated
using ((select private.caller_can_write()) and (organizer_id = (select auth.uid()) or (select private.is_admin())))
with check (organizer_id = (select auth.uid()) or (select private.is_admin()));
create policy events_delete on public.events for delete to authenticated
using ((select private.caller_can_write()) and (organizer_id = (select auth.uid()) or (select private.is_admin())));

create policy event_attendees_select on public.event_attendees for select to authenticated
using (user_id = (select auth.uid()) or private.organizes_event(event_id) or (select private.is_admin()));
create policy event_attendees_insert on public.event_attendees for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()) and private.event_is_visible(event_id));
create policy event_attendees_update on public.event_attendees for update to authenticated
using (user_id = (select auth.uid()) and (select private.caller_can_write()))
with check (user_id = (select auth.uid()));
create policy event_attendees_delete on public.event_attendees for delete to authenticated
using (user_id = (select auth.uid()) or private.organizes_event(event_id) or (select private.is_admin()));
