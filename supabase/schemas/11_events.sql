-- =============================================================================
-- Events, allowed status transitions, attendees with capacity and waitlist, editing rules and
-- paid tickets (spec §4; issues 8 and 16)
-- =============================================================================
-- Events move along their statuses with time (private.advance_event_statuses, pg_cron every
-- 5 minutes); the allowed transitions are the reference rows of event_status_transitions (data
-- migration).
--
-- 1. One lock order. Everything that touches an event's attendance takes the EVENT ROW first and
--    the attendee rows after it: the RPCs below (rsvp_event, cancel_rsvp, reserve_ticket,
--    sync_ticket_checkout, release_expired_holds) start with `select … for update` on the event;
--    event updates and deletes lock it by their own statement before they reach attendees
--    (promotion, cascade). API roles cannot write event_attendees directly, because an
--    UPDATE/DELETE through PostgREST locks the attendee row before any trigger could take the
--    event lock -- the order that deadlocked against an organiser deleting the event or raising
--    its capacity (40P01).
-- 2. Seats. going and held take a seat; capacity >= going + held always (trigger below). A held
--    seat belongs to an open checkout session (30 minutes) or to a waitlist offer on a paid event
--    (24 hours to pay); release_expired_holds (pg_cron, every minute) and checkout.session.expired
--    give it back, and the next waitlisted person moves up.
--    Unpaid holds (issue 31 §3), so throwaway accounts cannot keep a small event's seats from
--    being sold: one hold per person and event (the attendee row); its expiry is fixed when the
--    checkout opens and never moves again -- reserve_ticket returns the running hold unchanged,
--    also in its last minute, and refuses a hold that ran out (PT429 hold_cooldown) until it is
--    released, so the seat goes to the waitlist. A person whose unpaid hold ended (ran out,
--    checkout expired, cancelled) gets no new hold of that event for 30 minutes
--    (private.ended_holds). At most half of a limited event's seats, rounded up, are held unpaid
--    at a time (private.unpaid_hold_cap); further buyers wait on the waitlist and move up as
--    holds are paid or end -- the "limited number of buyers in checkout, the rest in line" of the
--    queues large ticket shops put in front of a sale.
-- 3. Tickets. event_tickets is the ledger of one purchase: pending -> paid -> refund_pending ->
--    refunded, or pending -> expired (and expired -> paid for a payment that completed after its
--    hold was released: it gets the seat when one is free, otherwise it is refunded). States only
--    move forward, so duplicate, late and out-of-order webhook events cannot undo anything
--    (sync_ticket_checkout; the webhook re-reads the session from Stripe, as for subscriptions).
--    Refunds are a queue: refund_pending rows are claimed by process-ticket-refunds (cron every
--    minute, and right after a cancellation) and retried with backoff until Stripe confirms.
-- 4. Notifications (each once, private.event_notifications): time, place or link changed, event
--    cancelled, reminder 24 hours before the start; for going, held and waitlisted people who did
--    not switch them off (user_settings.email_event_updates). Ticket, refund and seat-offer mails
--    are transactional and always sent.
--
-- Editing after creation (issue 8, /user/events): the organiser (and an admin, policy
-- events_update) may change an event's content. The rules, enforced for every statement that
-- comes from the API (anon/authenticated); trusted code (service role, pg_cron, our own
-- triggers) is exempt except where noted:
--   1. finished and cancelled events are read-only: their content columns cannot change (their
--      status cannot either: both are final in event_status_transitions).
--   2. the slug never changes, so links that were shared keep working.
--   3. a changed start or end must lie in the future; the start of an ongoing event is fixed.
--   4. the capacity may not drop below the seats in use. This holds for every writer, trusted
--      ones included, because the seat logic relies on it.
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
-- Types
-- -----------------------------------------------------------------------------

create type public.event_status as enum ('draft', 'published', 'upcoming', 'ongoing', 'finished', 'cancelled');
comment on type public.event_status is
  'draft (only organiser) -> published (announced) -> upcoming (registration open, soon) -> ongoing -> finished; cancelled from any non-final state.';

create type public.attendee_status as enum ('going', 'held', 'waitlisted', 'cancelled');
comment on type public.attendee_status is
  'going = confirmed seat; held = seat kept for a pending payment (checkout open, or waitlist offer) until event_attendees.hold_expires_at; waitlisted; cancelled.';

create type public.ticket_status as enum ('pending', 'paid', 'expired', 'refund_pending', 'refunded');
comment on type public.ticket_status is
  'pending (checkout open, seat held) -> paid | expired; expired -> paid (late payment); paid -> refund_pending -> refunded. Never backwards.';

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.event_status_transitions (
  from_status public.event_status not null,
  to_status public.event_status not null,
  primary key (from_status, to_status),
  check (from_status <> to_status)
);
comment on table public.event_status_transitions is
  'The allowed event status transitions (spec §4 leaves them open; this table is the rule). Enforced by trigger.';
alter table public.event_status_transitions enable row level security;
revoke all on public.event_status_transitions from anon, authenticated;
grant select (from_status, to_status) on public.event_status_transitions to anon, authenticated;

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
  online_url text,
  capacity integer check (capacity > 0),
  going_count integer not null default 0 check (going_count >= 0),
  waitlist_count integer not null default 0 check (waitlist_count >= 0),
  image text,
  owner_listed boolean not null default false,
  owner_premium boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  organization_id uuid references public.organizations (id) on delete set null,
  constraint events_time_order check (ends_at > starts_at),
  constraint events_price check ((is_paid and price_cents is not null) or (not is_paid and price_cents is null)),
  constraint events_location check ((is_online and online_url is not null) or (not is_online and city is not null)),
  constraint events_online_url_https check (online_url is null or (private.is_http_url(online_url) and online_url ~* '^https://')),
  constraint events_image_ref check (image is null or private.is_image_ref(image))
);
comment on table public.events is 'Events at /events/{slug}; times are instants, shown in Europe/Berlin.';
comment on column public.events.status is 'Changes follow event_status_transitions (trigger).';
comment on column public.events.price_cents is 'Ticket price incl. VAT in cents; null for free events.';
comment on column public.events.timezone is 'IANA zone the organiser planned in (display and .ics export).';
comment on column public.events.online_url is 'Join link for online events (https URL with a host).';
comment on column public.events.capacity is
  'Seats; null = unlimited. Further RSVPs go to the waitlist. Never below the going attendees; raising it promotes waitlisted RSVPs.';
comment on column public.events.going_count is 'Maintained by the attendee trigger.';
comment on column public.events.waitlist_count is 'Maintained by the attendee trigger.';
comment on column public.events.owner_listed is 'Owner confirmed, visible and not suspended; maintained by trigger (search filter).';
comment on column public.events.owner_premium is 'Owner on premium/enterprise; maintained by trigger (search preference, spec §6).';
comment on column public.events.slug is 'Permanent (set on insert from title and start date); shared links keep working after edits.';
comment on column public.events.image is 'Event image: object path or http(s) URL.';
comment on column public.events.organization_id is 'Published under this organisation (issue 15); the organiser must be a member when setting it.';
create index events_organizer_idx on public.events (organizer_id, starts_at desc);
create index events_listed_idx on public.events (starts_at, id) where status in ('published', 'upcoming', 'ongoing');
create index events_city_idx on public.events (city, starts_at) where status in ('published', 'upcoming', 'ongoing');
create index events_category_idx on public.events (category, starts_at) where status in ('published', 'upcoming', 'ongoing');
create index events_status_idx on public.events (status, starts_at);
create index events_map_idx on public.events using gist (point(longitude, latitude))
  where status in ('published', 'upcoming', 'ongoing') and owner_listed and latitude is not null and longitude is not null;
create index events_map_category_idx on public.events using gist (category, point(longitude, latitude))
  where status in ('published', 'upcoming', 'ongoing') and owner_listed and latitude is not null and longitude is not null;
-- Issue 34: the map's cell counts of wide views read the events still to come index-only.
create index events_map_cells_idx on public.events (ends_at) include (starts_at, longitude, latitude, category, organizer_id)
  where status in ('published', 'upcoming', 'ongoing') and owner_listed and latitude is not null and longitude is not null;
create index events_organization_idx on public.events (organization_id) where organization_id is not null;
create index events_organization_api_idx on public.events (organization_id, id) where organization_id is not null;
alter table public.events enable row level security;
revoke all on public.events from anon, authenticated;
grant select (id, organizer_id, title, slug, summary, description, category, status, is_paid, price_cents,
              currency, starts_at, ends_at, timezone, is_online, venue_name, street, zipcode, city, latitude,
              longitude, capacity, going_count, waitlist_count, image, created_at, updated_at, organization_id)
  on public.events to anon, authenticated;
grant insert (organizer_id, title, slug, summary, description, category, status, is_paid, price_cents,
              currency, starts_at, ends_at, timezone, is_online, venue_name, street, zipcode, city, latitude,
              longitude, online_url, capacity, image, organization_id)
  on public.events to authenticated;
grant update (title, summary, description, category, status, is_paid, price_cents, currency, starts_at,
              ends_at, timezone, is_online, venue_name, street, zipcode, city, latitude, longitude,
              online_url, capacity, image, organization_id)
  on public.events to authenticated;
grant delete on public.events to authenticated;

create table public.event_attendees (
  event_id bigint not null references public.events (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  status public.attendee_status not null default 'going',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  hold_expires_at timestamptz,
  primary key (event_id, user_id),
  constraint event_attendees_hold_check check ((status = 'held') = (hold_expires_at is not null))
);
comment on table public.event_attendees is
  'RSVPs. The trigger decides going vs. waitlisted by capacity and promotes the oldest waitlisted seat when one frees up.';
comment on column public.event_attendees.created_at is 'RSVP time; waitlist order.';
comment on column public.event_attendees.hold_expires_at is
  'Set exactly while status = held: the seat is given back after this instant unless paid (issue 16).';
create index event_attendees_user_idx on public.event_attendees (user_id);
create index event_attendees_waitlist_idx on public.event_attendees (event_id, created_at) where status = 'waitlisted';
create index event_attendees_hold_idx on public.event_attendees (hold_expires_at) where status = 'held';
alter table public.event_attendees enable row level security;
revoke all on public.event_attendees from anon, authenticated;
grant select (event_id, user_id, status, created_at, updated_at, hold_expires_at)
  on public.event_attendees to authenticated;

-- Tickets. Stripe ids and the refund queue columns stay with service_role (personal data by column).
create table public.event_tickets (
  id bigint generated always as identity primary key,
  event_id bigint references public.events (id) on delete set null,
  user_id uuid references public.profiles (id) on delete set null,
  ticket_number text not null unique check (ticket_number ~ '^TW-[0-9A-F]{10}$'),
  status public.ticket_status not null default 'pending',
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
  lang text not null default 'en' check (lang in ('de', 'en')),
  hold_expires_at timestamptz not null,
  checkout_session_id text unique check (checkout_session_id ~ '^cs_'),
  payment_intent_id text unique check (payment_intent_id ~ '^pi_'),
  refund_id text check (refund_id ~ '^re_'),
  refund_reason text check (refund_reason in ('attendee_cancelled', 'event_cancelled', 'no_seat', 'stripe')),
  refund_attempts integer not null default 0 check (refund_attempts >= 0),
  refund_next_attempt_at timestamptz,
  refund_error text,
  paid_at timestamptz,
  refund_requested_at timestamptz,
  refunded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint event_tickets_paid check (status in ('pending', 'expired') or paid_at is not null),
  constraint event_tickets_refund check (status not in ('refund_pending', 'refunded') or (refund_reason is not null and refund_requested_at is not null))
);
comment on table public.event_tickets is
  'One ticket purchase for a paid event (issue 16): Stripe Checkout in payment mode; the webhook and verify-ticket write it through sync_ticket_checkout.';
comment on column public.event_tickets.event_id is 'Null once the event was deleted with its organiser''s account (the ticket stays: a payment record, refunded).';
comment on column public.event_tickets.amount_cents is 'Price paid incl. VAT in cents (the event price when the seat was reserved).';
comment on column public.event_tickets.lang is 'Checkout and mail language of the buyer.';
comment on column public.event_tickets.hold_expires_at is 'The checkout session expires (and the seat is released) at this instant.';
comment on column public.event_tickets.refund_next_attempt_at is 'Refund queue: not claimed before this time (backoff after failures).';
create unique index event_tickets_live_idx on public.event_tickets (event_id, user_id) where status in ('pending', 'paid', 'refund_pending');
create index event_tickets_user_idx on public.event_tickets (user_id, created_at desc);
create index event_tickets_refund_queue_idx on public.event_tickets (refund_next_attempt_at) where status = 'refund_pending';
alter table public.event_tickets enable row level security;
revoke all on public.event_tickets from anon, authenticated;
grant select (id, event_id, user_id, ticket_number, status, amount_cents, currency, lang, hold_expires_at,
              refund_reason, paid_at, refund_requested_at, refunded_at, created_at, updated_at)
  on public.event_tickets to authenticated;

-- Unpaid holds that ended, for the 30-minute wait before the same person's next hold (issue 31 §3).
create table private.ended_holds (
  event_id bigint not null references public.events (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  ended_at timestamptz not null,
  primary key (event_id, user_id)
);
comment on table private.ended_holds is
  'When a person''s last unpaid hold of an event ended (ran out, checkout expired, cancelled): reserve_ticket gives them no new hold of it for 30 minutes (issue 31 §3). Written by the attendee trigger.';
alter table private.ended_holds enable row level security;
revoke all on private.ended_holds from public, anon, authenticated;

-- "Each once": a notification is queued only when its row here is new.
create table private.event_notifications (
  event_id bigint not null references public.events (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('changed', 'cancelled', 'reminder')),
  fingerprint text not null default '',
  created_at timestamptz not null default now(),
  primary key (event_id, user_id, kind, fingerprint)
);
comment on table private.event_notifications is
  'Event notifications sent (issue 16): one per event, person, kind and (for changes) the new time/place/link.';
alter table private.event_notifications enable row level security;
revoke all on private.event_notifications from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
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

/* BEFORE INSERT/UPDATE on event_attendees. New or re-activated RSVPs asking for a seat (going or
   held) get one only while going + held < capacity, and a hold only while the unpaid holds are
   under private.unpaid_hold_cap (issue 31 §3); otherwise they are waitlisted; their queue time is
   the clock time after the event lock. hold_expires_at follows the status. A hold that ends
   unpaid is noted in private.ended_holds. */
create or replace function private.before_attendee_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events;
begin
  if tg_op = 'UPDATE' and (new.event_id <> old.event_id or new.user_id <> old.user_id) then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'event_id and user_id cannot change.';
  end if;
  select * into ev from public.events where id = new.event_id for update;
  if tg_op = 'INSERT' or (old.status = 'cancelled' and new.status <> 'cancelled') then
    if new.status in ('going', 'held') and ev.capacity is not null and private.seats_taken(new.event_id) >= ev.capacity then
      new.status := 'waitlisted';
    end if;
    if new.status = 'held' and private.unpaid_holds(new.event_id) >= private.unpaid_hold_cap(ev.capacity) then
      new.status := 'waitlisted';
    end if;
    new.created_at := pg_catalog.clock_timestamp();
  end if;
  if tg_op = 'UPDATE' and old.status = 'held' and new.status not in ('held', 'going') then
    insert into private.ended_holds (event_id, user_id, ended_at) values (new.event_id, new.user_id, pg_catalog.now())
    on conflict (event_id, user_id) do update set ended_at = excluded.ended_at;
  end if;
  if new.status = 'held' then
    new.hold_expires_at := coalesce(new.hold_expires_at, pg_catalog.now() + interval '30 minutes');
  else
    new.hold_expires_at := null;
  end if;
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;
comment on function private.before_attendee_change() is 'BEFORE INSERT/UPDATE on event_attendees: seats (going + held <= capacity), cap on unpaid holds, waitlist time, hold expiry, ended holds (issues 16, 31 §3).';
create trigger event_attendees_before before insert or update on public.event_attendees
  for each row execute function private.before_attendee_change();

-- AFTER INSERT/UPDATE/DELETE on event_attendees: the oldest waitlisted RSVPs move up through the
-- shared private.promote_waitlisted, and the counters follow.
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
create trigger event_attendees_after after insert or update of status or delete on public.event_attendees
  for each row when (pg_trigger_depth() < 1)
  execute function private.after_attendee_change();

-- Edit rules (BEFORE UPDATE; fires right after events_guard, which checks status transitions)
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

/* The capacity may not drop below the seats in use (going + held), for every writer. */
create or replace function private.guard_event_seats()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_taken integer;
begin
  if new.capacity is not null and new.capacity is distinct from old.capacity then
    v_taken := private.seats_taken(new.id);
    if new.capacity < v_taken then
      raise exception using errcode = 'P0001', message = 'capacity_below_attendees',
        detail = pg_catalog.format('%s seats are taken or held; the capacity cannot be lower.', v_taken),
        hint = v_taken::text;
    end if;
  end if;
  return new;
end;
$$;
create trigger events_guard_seats before update of capacity on public.events
  for each row execute function private.guard_event_seats();

/* An event with live tickets (pending, paid, refund_pending) cannot be deleted by a statement on
   events (the organiser, an admin): cancel it, which refunds them. When the organiser's account
   is deleted the events go by cascade (trigger depth > 1): their paid tickets are queued for a
   refund and pending ones expire; the tickets stay (event_id set null). */
create or replace function private.guard_event_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.event_tickets where event_id = old.id and status in ('pending', 'paid', 'refund_pending')) then
    return old;
  end if;
  if pg_catalog.pg_trigger_depth() = 1 then
    raise exception using errcode = 'P0001', message = 'event_has_tickets',
      detail = 'Tickets were sold for this event. Cancel it instead: every buyer is refunded.';
  end if;
  update public.event_tickets set status = 'refund_pending', refund_reason = 'event_cancelled',
    refund_requested_at = pg_catalog.now(), refund_next_attempt_at = pg_catalog.now()
  where event_id = old.id and status = 'paid';
  update public.event_tickets set status = 'expired' where event_id = old.id and status = 'pending';
  return old;
end;
$$;
create trigger events_guard_delete before delete on public.events
  for each row execute function private.guard_event_delete();

/* AFTER UPDATE on events (the event row is locked by the update itself):
   - time, place or link changed on a listed event: event_changed to going, held and waitlisted;
   - cancelled: every paid ticket goes to the refund queue, pending tickets expire, held seats
     are released, and event_cancelled goes to everyone with a live RSVP. */
create or replace function private.after_event_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    update public.event_tickets set status = 'refund_pending', refund_reason = 'event_cancelled',
      refund_requested_at = pg_catalog.now(), refund_next_attempt_at = pg_catalog.now()
    where event_id = new.id and status = 'paid';
    update public.event_tickets set status = 'expired' where event_id = new.id and status = 'pending';
    perform private.notify_attendees(new, 'cancelled', '', array['going', 'held', 'waitlisted']::public.attendee_status[]);
    update public.event_attendees set status = 'cancelled' where event_id = new.id and status = 'held';
    return null;
  end if;
  if new.status in ('published', 'upcoming', 'ongoing')
     and (new.starts_at, new.ends_at, new.is_online, new.venue_name, new.street, new.zipcode, new.city, new.online_url)
         is distinct from (old.starts_at, old.ends_at, old.is_online, old.venue_name, old.street, old.zipcode, old.city, old.online_url) then
    perform private.notify_attendees(new, 'changed',
      pg_catalog.md5(pg_catalog.concat_ws('|', new.starts_at, new.ends_at, new.is_online, new.venue_name, new.street, new.zipcode, new.city, new.online_url)),
      array['going', 'held', 'waitlisted']::public.attendee_status[]);
  end if;
  return null;
end;
$$;
comment on function private.after_event_change() is 'AFTER UPDATE on events: change and cancellation notifications, refunds on cancellation (issue 16).';
create trigger events_after_change after update on public.events
  for each row execute function private.after_event_change();
create trigger events_owner_flags before insert or update on public.events
  for each row execute function private.set_owner_flags('organizer_id');
create trigger events_updated_at before update on public.events
  for each row execute function private.set_updated_at();
create trigger events_paid_access before insert on public.events
  for each row execute function private.require_paid_access();
create trigger event_tickets_updated_at before update on public.event_tickets
  for each row execute function private.set_updated_at();
create trigger events_organization before insert or update of organization_id on public.events
  for each row execute function private.check_content_organization('organizer_id');

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

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

-- published -> upcoming  when the start is less than 7 days away
-- published/upcoming -> ongoing  when the start has passed
-- ongoing -> finished  when the end has passed
-- Every step is an allowed transition of event_status_transitions (the trigger still checks).
create or replace function private.advance_event_statuses()
returns table (to_upcoming integer, to_ongoing integer, to_finished integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  n_upcoming integer;
  n_ongoing integer;
  n_finished integer;
begin
  update public.events set status = 'ongoing'
  where status in ('published', 'upcoming') and starts_at <= pg_catalog.now();
  get diagnostics n_ongoing = row_count;
  update public.events set status = 'finished'
  where status = 'ongoing' and ends_at <= pg_catalog.now();
  get diagnostics n_finished = row_count;
  update public.events set status = 'upcoming'
  where status = 'published' and starts_at <= pg_catalog.now() + interval '7 days';
  get diagnostics n_upcoming = row_count;
  return query select n_upcoming, n_ongoing, n_finished;
end;
$$;
comment on function private.advance_event_statuses() is
  'Time-driven event transitions (published->upcoming 7 days ahead, ->ongoing at start, ->finished at end). Run by pg_cron.';

/* Moves the oldest waitlisted RSVPs up while seats (going + held) are free under p_capacity
   (null = unlimited): to going on a free event; on a paid event to held for 24 hours with a
   seat-offer mail (pay within 24 hours), while the unpaid holds stay under
   private.unpaid_hold_cap (issue 31 §3). Returns going and waitlisted counts afterwards.
   Caller must hold the event row lock. */
create or replace function private.promote_waitlisted(p_event_id bigint, p_capacity integer)
returns table (going integer, waitlisted integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events;
  v_taken integer;
  v_held integer;
  next_user uuid;
  v_until timestamptz := pg_catalog.now() + interval '24 hours';
begin
  select * into ev from public.events where id = p_event_id;
  v_taken := private.seats_taken(p_event_id);
  v_held := private.unpaid_holds(p_event_id);
  while ev.status in ('published', 'upcoming', 'ongoing') and (p_capacity is null or v_taken < p_capacity)
        and (not ev.is_paid or p_capacity is null or v_held < private.unpaid_hold_cap(p_capacity)) loop
    select a.user_id into next_user from public.event_attendees a
    where a.event_id = p_event_id and a.status = 'waitlisted' order by a.created_at, a.user_id limit 1;
    exit when next_user is null;
    if ev.is_paid then
      update public.event_attendees set status = 'held', hold_expires_at = v_until, updated_at = pg_catalog.now()
      where event_id = p_event_id and user_id = next_user;
      perform private.enqueue_event_mail(next_user, 'event_seat_offer', ev, pg_catalog.jsonb_build_object(
        'deadline', private.format_event_time(v_until, coalesce((select preferred_language from public.profiles where id = next_user), 'de')),
        'amount', private.format_eur(ev.price_cents, coalesce((select preferred_language from public.profiles where id = next_user), 'de'))));
      v_held := v_held + 1;
    else
      update public.event_attendees set status = 'going', updated_at = pg_catalog.now()
      where event_id = p_event_id and user_id = next_user;
    end if;
    v_taken := v_taken + 1;
    next_user := null;
  end loop;
  select count(*) filter (where a.status = 'going')::integer, count(*) filter (where a.status = 'waitlisted')::integer
  into going, waitlisted
  from public.event_attendees a where a.event_id = p_event_id;
  return next;
end;
$$;
comment on function private.promote_waitlisted(bigint, integer) is
  'Waitlist order (created_at, user_id) into free seats (going + held < capacity): going on free events, held 24 h with an offer mail on paid ones while unpaid holds are under the cap (issues 16, 31 §3). Caller holds the event row lock.';

create or replace function private.event_join_link(p_event_id bigint)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select e.online_url
  from public.events e
  where e.id = p_event_id
    and (
      e.organizer_id = auth.uid()
      or private.is_admin()
      or (private.event_is_visible(e.id) and (
            not e.is_paid
            or exists (select 1 from public.event_attendees a
                       where a.event_id = e.id and a.user_id = auth.uid() and a.status = 'going'))))
$$;
comment on function private.event_join_link(bigint) is 'Implementation of public.event_join_link.';

/* Seats in use of an event: going + held. Caller should hold the event row lock. */
create or replace function private.seats_taken(p_event_id bigint)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from public.event_attendees where event_id = p_event_id and status in ('going', 'held')
$$;
comment on function private.seats_taken(bigint) is 'Seats in use (going + held) of an event (issue 16).';

/* Unpaid holds of an event (status held: an open checkout or a seat offer). Caller should hold
   the event row lock. Issue 31 §3. */
create or replace function private.unpaid_holds(p_event_id bigint)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from public.event_attendees where event_id = p_event_id and status = 'held'
$$;
comment on function private.unpaid_holds(bigint) is 'Unpaid holds (status held) of an event (issue 31 §3).';

/* How many seats of an event may be held unpaid at a time (issue 31 §3): half the capacity,
   rounded up (1 seat -> 1, 2 -> 1, 5 -> 3, 100 -> 50); null (no limit) for an event without a
   capacity, whose seats cannot run out. So a few throwaway accounts never hold every seat of a
   small event; buyers beyond the cap wait on the waitlist and move up as holds are paid or end,
   as large ticket shops let a limited number of buyers into checkout and queue the rest.
   Input: the event's capacity (seats, null = unlimited). Output: number of holds, or null. */
create or replace function private.unpaid_hold_cap(p_capacity integer)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when p_capacity is null then null else greatest(1, (p_capacity + 1) / 2) end
$$;
comment on function private.unpaid_hold_cap(integer) is
  'Unpaid holds allowed per event at a time: ceil(capacity / 2), at least 1; null without a capacity (issue 31 §3).';

/* A fresh ticket number, e.g. TW-3F9A0C27B1. */
create or replace function private.new_ticket_number()
returns text
language sql
volatile
set search_path = ''
as $$
  select 'TW-' || pg_catalog.upper(pg_catalog.substr(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 1, 10))
$$;

/* Amount in cents as the language writes euros: de "49,00 €", en "€49.00". */
create or replace function private.format_eur(p_cents integer, p_lang text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_lang = 'de'
    then pg_catalog.replace(pg_catalog.to_char(p_cents / 100.0, 'FM999999990.00'), '.', ',') || ' €'
    else '€' || pg_catalog.to_char(p_cents / 100.0, 'FM999999990.00') end
$$;

/* Start of an event as the language writes it, in Berlin time: de "05.12.2026, 18:00 Uhr", en "5 Dec 2026, 18:00". */
create or replace function private.format_event_time(p_at timestamptz, p_lang text)
returns text
language sql
stable
set search_path = ''
as $$
  select case when p_lang = 'de'
    then pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'DD.MM.YYYY, HH24:MI') || ' Uhr'
    else pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'FMDD Mon YYYY, HH24:MI') end
$$;

/* Where an event takes place, for mails: "Online" or "venue, street, zip city". */
create or replace function private.event_place(e public.events, p_lang text)
returns text
language sql
stable
set search_path = ''
as $$
  select case when e.is_online then 'Online'
    else pg_catalog.array_to_string(array[e.venue_name, e.street, pg_catalog.concat_ws(' ', e.zipcode, e.city)], ', ') end
$$;

/* The payload every event mail shares: title, time, place, link to the page, and the calendar data. */
create or replace function private.event_mail_payload(e public.events, p_lang text)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'event_title', e.title,
    'event_time', private.format_event_time(e.starts_at, p_lang),
    'event_place', private.event_place(e, p_lang),
    'path', '/events/' || e.slug,
    'settings_path', '/user/settings')
$$;

/* Queues one event mail to a user in their language; null when the profile is gone or unconfirmed. */
create or replace function private.enqueue_event_mail(p_user_id uuid, p_type text, e public.events, p_extra jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  p public.profiles;
begin
  select * into p from public.profiles where id = p_user_id;
  if not found or p.authenticated <> 1 then
    return null;
  end if;
  return private.enqueue_email(p.id, p.email, p_type, p.preferred_language,
    pg_catalog.jsonb_build_object('firstname', p.firstname, 'lastname', p.lastname),
    private.event_mail_payload(e, p.preferred_language) || coalesce(p_extra, '{}'::jsonb));
end;
$$;

/* Queues a notification of p_kind for everybody with a live RSVP who wants them, once per
   fingerprint. Returns the number queued. Caller holds the event row (trigger or cron). */
create or replace function private.notify_attendees(e public.events, p_kind text, p_fingerprint text, p_statuses public.attendee_status[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
  v_type text := 'event_' || p_kind;
begin
  for r in
    select a.user_id, a.status, t.status as ticket_status
    from public.event_attendees a
    left join public.event_tickets t on t.event_id = a.event_id and t.user_id = a.user_id and t.status in ('paid', 'refund_pending')
    where a.event_id = e.id and a.status = any (p_statuses)
      and private.wants_email(a.user_id, 'event_updates')
  loop
    insert into private.event_notifications (event_id, user_id, kind, fingerprint)
    values (e.id, r.user_id, p_kind, coalesce(p_fingerprint, ''))
    on conflict do nothing;
    if found then
      perform private.enqueue_event_mail(r.user_id, v_type, e,
        pg_catalog.jsonb_build_object('refund', case when r.ticket_status is not null then 'yes' else 'no' end));
      n := n + 1;
    end if;
  end loop;
  return n;
end;
$$;

/* Locks and returns a visible event for an RSVP action of the caller (the first step of every
   attendance RPC: the event row lock). */
create or replace function private.lock_event_for_rsvp(p_event_id bigint)
returns public.events
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events;
begin
  if auth.uid() is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if not private.caller_can_write() then
    raise exception using errcode = '42501', message = 'account_suspended', detail = 'This account cannot act right now.';
  end if;
  select * into ev from public.events where id = p_event_id for update;
  if not found or not (ev.organizer_id = auth.uid() or private.event_is_visible(ev.id)) then
    raise exception using errcode = 'PT404', message = 'event_not_found', detail = 'This event does not exist or is not visible.';
  end if;
  return ev;
end;
$$;

/* Gives back seats whose hold ran out (pg_cron every minute): the pending ticket expires, the
   seat goes to the next waitlisted person. Checkout holds get 2 minutes of grace for Stripe's
   own checkout.session.expired, which normally comes first. Event row lock first, events in id
   order. Returns the number of seats released. Issue 16. */
create or replace function private.release_expired_holds()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event bigint;
  r record;
  n integer := 0;
begin
  for v_event in
    select distinct a.event_id from public.event_attendees a
    where a.status = 'held' and a.hold_expires_at < pg_catalog.now() - interval '2 minutes' order by 1
  loop
    perform 1 from public.events where id = v_event for update;
    for r in
      select a.user_id from public.event_attendees a
      where a.event_id = v_event and a.status = 'held' and a.hold_expires_at < pg_catalog.now() - interval '2 minutes'
      order by a.user_id for update
    loop
      update public.event_tickets set status = 'expired'
      where event_id = v_event and user_id = r.user_id and status = 'pending';
      update public.event_attendees set status = 'cancelled' where event_id = v_event and user_id = r.user_id;
      n := n + 1;
    end loop;
  end loop;
  return n;
end;
$$;
comment on function private.release_expired_holds() is 'pg_cron every minute: release seats whose hold expired (issue 16).';

/* Reminder mails 24 hours before the start (pg_cron every 10 minutes), once per person. */
create or replace function private.send_event_reminders()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  e public.events;
  n integer := 0;
begin
  for e in
    select * from public.events
    where status in ('published', 'upcoming') and starts_at > pg_catalog.now() and starts_at <= pg_catalog.now() + interval '24 hours'
    order by id
  loop
    n := n + private.notify_attendees(e, 'reminder', '', array['going']::public.attendee_status[]);
  end loop;
  return n;
end;
$$;
comment on function private.send_event_reminders() is 'pg_cron every 10 minutes: a reminder to going attendees 24 hours before the start, once (issue 16).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

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
create policy event_tickets_select on public.event_tickets for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

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

/* Join link of an online event, or null: free events for everyone who may see the event; paid
   events only for the organiser, admins and attendees with a seat (status going). */
create or replace function public.event_join_link(p_event_id bigint)
returns text
language sql
stable
set search_path = ''
as $$
  select private.event_join_link(p_event_id)
$$;
comment on function public.event_join_link(bigint) is
  'Online link of an event: free events for all who see it; paid events for organiser, admins and going attendees (issue 12).';

-- RSVP RPCs (authenticated). Errors (HTTP status through PostgREST):
--   28000 not_authenticated (401); 42501 not allowed (403, suspended account);
--   PT404 event_not_found (404: missing, draft or hidden); P0001 event_not_open,
--   ticket_required, event_not_paid, refund_window_closed (400).
/* RSVP to a free event. Output: the caller's status afterwards ('going' or 'waitlisted').
   Idempotent: an existing live RSVP is returned unchanged. Errors: see above; ticket_required
   for a paid event (buy a ticket: reserve_ticket / create-ticket-checkout). Issue 16. */
create or replace function public.rsvp_event(p_event_id bigint)
returns public.attendee_status
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events := private.lock_event_for_rsvp(p_event_id);
  cur public.attendee_status;
begin
  if ev.status not in ('published', 'upcoming', 'ongoing') then
    raise exception using errcode = 'P0001', message = 'event_not_open', detail = 'RSVP is possible for published, upcoming or ongoing events.';
  end if;
  if ev.is_paid then
    raise exception using errcode = 'P0001', message = 'ticket_required', detail = 'This event needs a ticket.';
  end if;
  select status into cur from public.event_attendees where event_id = ev.id and user_id = auth.uid();
  if cur in ('going', 'waitlisted', 'held') then
    return cur;
  end if;
  insert into public.event_attendees (event_id, user_id, status) values (ev.id, auth.uid(), 'going')
  on conflict (event_id, user_id) do update set status = 'going'
  returning status into cur;
  return cur;
end;
$$;
comment on function public.rsvp_event(bigint) is
  'authenticated: RSVP to a free event (event row lock first); returns going or waitlisted. Issue 16.';

/* Cancels the caller's RSVP. A paid ticket is refunded in full when the event starts in more
   than 48 hours (refund_pending; process-ticket-refunds pays it back), otherwise
   refund_window_closed. A held seat is released (its open checkout is expired by the caller's
   function; a payment that still completes is refunded as no_seat). Output: jsonb
   { status: 'cancelled', refund: 'pending' | 'none', ticket_id }. Idempotent. Issue 16. */
create or replace function public.cancel_rsvp(p_event_id bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events := private.lock_event_for_rsvp(p_event_id);
  att public.event_attendees;
  tk public.event_tickets;
begin
  select * into att from public.event_attendees where event_id = ev.id and user_id = auth.uid() for update;
  if not found or att.status = 'cancelled' then
    return pg_catalog.jsonb_build_object('status', 'cancelled', 'refund', 'none', 'ticket_id', null);
  end if;
  select * into tk from public.event_tickets
  where event_id = ev.id and user_id = auth.uid() and status in ('pending', 'paid') for update;
  if found and tk.status = 'paid' then
    if ev.status <> 'cancelled' and ev.starts_at - pg_catalog.now() < interval '48 hours' then
      raise exception using errcode = 'P0001', message = 'refund_window_closed',
        detail = 'Tickets can be cancelled until 48 hours before the start.';
    end if;
    update public.event_tickets set status = 'refund_pending', refund_reason = 'attendee_cancelled',
      refund_requested_at = pg_catalog.now(), refund_next_attempt_at = pg_catalog.now()
    where id = tk.id;
  elsif found then
    update public.event_tickets set status = 'expired' where id = tk.id;
  end if;
  update public.event_attendees set status = 'cancelled' where event_id = ev.id and user_id = auth.uid();
  return pg_catalog.jsonb_build_object('status', 'cancelled',
    'refund', case when tk.status = 'paid' then 'pending' else 'none' end, 'ticket_id', tk.id);
end;
$$;
comment on function public.cancel_rsvp(bigint) is
  'authenticated: cancel my RSVP or ticket (full refund until 48 h before the start); event row lock first. Issue 16.';

/* Reserves a seat of a paid event for the caller before checkout: the event row lock, then a
   held seat for 30 minutes (or the caller's current seat offer) and a pending ticket at the
   event's price; no free seat, or the cap on unpaid holds reached, puts the caller on the
   waitlist. p_lang: de | en (checkout and mails). Output: jsonb { status: held | waitlisted |
   going, ticket_id, ticket_number, amount_cents, currency, hold_expires_at, checkout_session_id
   (an open session to reuse, else null) }. A caller who already holds a paid ticket gets status
   going and that ticket.
   Unpaid holds (issue 31 §3): a running hold is returned as it is, with its first expiry (also in
   its last minute: no renewal without paying); a seat offer from the waitlist is stretched once,
   when its checkout opens, to the 30 minutes Stripe needs. A hold that ran out, and for
   30 minutes after an unpaid hold of this event ended, the caller gets PT429 hold_cooldown
   (HTTP 429; detail names the instant from which a new hold is possible) and nothing changes, so
   the seat goes to the next waitlisted person.
   Errors: see above; event_not_paid for a free event; refund_in_progress. Issue 16. */
create or replace function public.reserve_ticket(p_event_id bigint, p_lang text default 'en')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  ev public.events := private.lock_event_for_rsvp(p_event_id);
  att public.event_attendees;
  tk public.event_tickets;
  v_until timestamptz;
  v_ended timestamptz;
  v_lang text := case when p_lang = 'de' then 'de' else 'en' end;
begin
  if not ev.is_paid then
    raise exception using errcode = 'P0001', message = 'event_not_paid', detail = 'This event is free: RSVP instead.';
  end if;
  if ev.status not in ('published', 'upcoming', 'ongoing') or ev.ends_at <= pg_catalog.now() then
    raise exception using errcode = 'P0001', message = 'event_not_open', detail = 'Tickets are sold for published, upcoming or ongoing events.';
  end if;
  select * into att from public.event_attendees where event_id = ev.id and user_id = auth.uid() for update;
  select * into tk from public.event_tickets
  where event_id = ev.id and user_id = auth.uid() and status in ('pending', 'paid', 'refund_pending') for update;

  if tk.status = 'paid' or (att.status = 'going') then
    return pg_catalog.jsonb_build_object('status', 'going', 'ticket_id', tk.id, 'ticket_number', tk.ticket_number,
      'amount_cents', tk.amount_cents, 'currency', tk.currency, 'hold_expires_at', null, 'checkout_session_id', null);
  end if;
  if tk.status = 'refund_pending' then
    raise exception using errcode = 'P0001', message = 'refund_in_progress', detail = 'Your last ticket is being refunded; try again in a minute.';
  end if;
  if att.status = 'waitlisted' then
    return pg_catalog.jsonb_build_object('status', 'waitlisted', 'ticket_id', null, 'ticket_number', null,
      'amount_cents', ev.price_cents, 'currency', ev.currency, 'hold_expires_at', null, 'checkout_session_id', null);
  end if;

  if att.status = 'held' then
    if att.hold_expires_at <= pg_catalog.now() then
      -- ran out: release_expired_holds or Stripe's checkout.session.expired gives the seat back
      raise exception using errcode = 'PT429', message = 'hold_cooldown',
        detail = 'Your seat reservation ran out and goes back on sale. You can reserve again 30 minutes after that.';
    end if;
    if tk.status = 'pending' then
      -- the running hold, unchanged: reuse its checkout
      return pg_catalog.jsonb_build_object('status', 'held', 'ticket_id', tk.id, 'ticket_number', tk.ticket_number,
        'amount_cents', tk.amount_cents, 'currency', tk.currency, 'hold_expires_at', att.hold_expires_at,
        'checkout_session_id', tk.checkout_session_id);
    end if;
    -- a seat offer without a checkout yet: Stripe wants a checkout session to live 30 minutes at
    -- least (the extra minute covers the time until the session is created), so an offer ending
    -- sooner is stretched to that, once: from now on it has a pending ticket
    v_until := greatest(pg_catalog.now() + interval '31 minutes', att.hold_expires_at);
    update public.event_attendees set hold_expires_at = v_until where event_id = ev.id and user_id = auth.uid();
  else
    select e.ended_at into v_ended from private.ended_holds e where e.event_id = ev.id and e.user_id = auth.uid();
    if v_ended > pg_catalog.now() - interval '30 minutes' then
      raise exception using errcode = 'PT429', message = 'hold_cooldown',
        detail = 'Your seat reservation ended unpaid. You can reserve again from '
          || pg_catalog.to_char((v_ended + interval '30 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.';
    end if;
    if tk.status = 'pending' then
      -- a pending ticket without its hold (not expected): it can no longer be paid into a seat
      update public.event_tickets set status = 'expired' where id = tk.id;
    end if;
    v_until := pg_catalog.now() + interval '31 minutes';
    insert into public.event_attendees (event_id, user_id, status, hold_expires_at)
    values (ev.id, auth.uid(), 'held', v_until)
    on conflict (event_id, user_id) do update set status = 'held', hold_expires_at = v_until;
    select * into att from public.event_attendees where event_id = ev.id and user_id = auth.uid();
    if att.status = 'waitlisted' then
      return pg_catalog.jsonb_build_object('status', 'waitlisted', 'ticket_id', null, 'ticket_number', null,
        'amount_cents', ev.price_cents, 'currency', ev.currency, 'hold_expires_at', null, 'checkout_session_id', null);
    end if;
  end if;
  insert into public.event_tickets (event_id, user_id, ticket_number, amount_cents, currency, lang, hold_expires_at)
  values (ev.id, auth.uid(), private.new_ticket_number(), ev.price_cents, ev.currency, v_lang, v_until)
  returning * into tk;
  return pg_catalog.jsonb_build_object('status', 'held', 'ticket_id', tk.id, 'ticket_number', tk.ticket_number,
    'amount_cents', tk.amount_cents, 'currency', tk.currency, 'hold_expires_at', tk.hold_expires_at, 'checkout_session_id', null);
end;
$$;
comment on function public.reserve_ticket(bigint, text) is
  'authenticated: hold a seat of a paid event for 30 minutes with a pending ticket, or join the waitlist; a running hold is returned unchanged, never renewed; 30 minutes between unpaid holds (PT429 hold_cooldown); event row lock first. Issues 16, 31 §3.';

/* Stores the checkout session opened for a pending ticket. Output: true when stored (false when
   the ticket is no longer pending or already has another session). Issue 16. */
create or replace function public.attach_ticket_checkout(p_ticket_id bigint, p_session_id text)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with u as (
    update public.event_tickets set checkout_session_id = p_session_id
    where id = p_ticket_id and status = 'pending' and (checkout_session_id is null or checkout_session_id = p_session_id)
    returning 1)
  select exists (select 1 from u)
$$;

/* Writes the state of a ticket's checkout session as read from Stripe (the webhook and
   verify-ticket re-read the session; an event payload is only a hint). States move forward
   only (see 3. in this file's header), so a duplicate, late or out-of-order call changes nothing.
   Input: p_session_id (cs_…); p_session_status open | complete | expired; p_payment_status
   paid | unpaid | no_payment_required; p_payment_intent (pi_… or null); p_amount_refunded in
   cents (the charge's amount_refunded, 0 when unknown); p_refund_id (latest refund, or null).
   Output: the ticket row afterwards plus `action`: paid | expired | refund_needed | refunded |
   unchanged; null when no ticket has this session. Lock order: event row, then attendee, then
   ticket. Issue 16. */
create or replace function public.sync_ticket_checkout(
  p_session_id text, p_session_status text, p_payment_status text, p_payment_intent text,
  p_amount_refunded integer default 0, p_refund_id text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_event_id bigint;
  ev public.events;
  tk public.event_tickets;
  att public.event_attendees;
  v_action text := 'unchanged';
  v_lang text;
begin
  select event_id into v_event_id from public.event_tickets where checkout_session_id = p_session_id;
  if not found then
    return null;
  end if;
  select * into ev from public.events where id = v_event_id for update;  -- none when the event was deleted
  select * into tk from public.event_tickets where checkout_session_id = p_session_id for update;
  select * into att from public.event_attendees where event_id = v_event_id and user_id = tk.user_id for update;
  -- mails are written in the recipient's language (amounts too)
  v_lang := coalesce((select preferred_language from public.profiles where id = tk.user_id), tk.lang);

  if p_payment_intent is not null and tk.payment_intent_id is null then
    update public.event_tickets set payment_intent_id = p_payment_intent where id = tk.id returning * into tk;
  end if;

  if p_amount_refunded >= tk.amount_cents and tk.status in ('paid', 'refund_pending') then
    -- refunded (by us, or from Stripe's dashboard)
    update public.event_tickets set status = 'refunded', refunded_at = pg_catalog.now(),
      refund_id = coalesce(p_refund_id, refund_id), refund_reason = coalesce(refund_reason, 'stripe'),
      refund_requested_at = coalesce(refund_requested_at, pg_catalog.now()), refund_error = null
    where id = tk.id returning * into tk;
    if att.status in ('going', 'held') and not exists (
         select 1 from public.event_tickets o where o.event_id = v_event_id and o.user_id = tk.user_id and o.id <> tk.id and o.status in ('pending', 'paid')) then
      update public.event_attendees set status = 'cancelled' where event_id = v_event_id and user_id = tk.user_id;
    end if;
    perform private.enqueue_event_mail(tk.user_id, 'ticket_refunded', ev, pg_catalog.jsonb_build_object(
      'ticket_number', tk.ticket_number, 'amount', private.format_eur(tk.amount_cents, v_lang), 'path', '/user/events'));
    v_action := 'refunded';
  elsif p_session_status = 'complete' and p_payment_status = 'paid' and tk.status in ('pending', 'expired') then
    if ev.status in ('published', 'upcoming', 'ongoing')
       and (att.status = 'held' or ev.capacity is null or private.seats_taken(v_event_id) < ev.capacity)
       and not exists (select 1 from public.event_tickets o where o.event_id = v_event_id and o.user_id = tk.user_id
                       and o.id <> tk.id and o.status in ('paid', 'refund_pending')) then
      update public.event_tickets set status = 'paid', paid_at = pg_catalog.now() where id = tk.id returning * into tk;
      insert into public.event_attendees (event_id, user_id, status) values (v_event_id, tk.user_id, 'going')
      on conflict (event_id, user_id) do update set status = 'going';
      perform private.enqueue_event_mail(tk.user_id, 'ticket_confirmation', ev, pg_catalog.jsonb_build_object(
        'ticket_number', tk.ticket_number,
        'amount', private.format_eur(tk.amount_cents, v_lang),
        'vat', private.format_eur((tk.amount_cents - pg_catalog.round(tk.amount_cents / 1.19))::integer, v_lang),
        'paid_on', private.format_event_time(pg_catalog.now(), v_lang),
        'ics', pg_catalog.jsonb_build_object('id', ev.id, 'slug', ev.slug, 'title', ev.title, 'summary', ev.summary,
          'starts_at', ev.starts_at, 'ends_at', ev.ends_at, 'status', ev.status, 'is_online', ev.is_online,
          'online_url', ev.online_url, 'venue_name', ev.venue_name, 'street', ev.street, 'zipcode', ev.zipcode, 'city', ev.city,
          'stamp', pg_catalog.now())));
      v_action := 'paid';
    else
      -- paid, but the seat is gone (hold released, event cancelled, or a second payment): refund
      update public.event_tickets set status = 'refund_pending', paid_at = pg_catalog.now(), refund_reason = 'no_seat',
        refund_requested_at = pg_catalog.now(), refund_next_attempt_at = pg_catalog.now()
      where id = tk.id returning * into tk;
      v_action := 'refund_needed';
    end if;
  elsif p_session_status = 'expired' and tk.status = 'pending' then
    update public.event_tickets set status = 'expired' where id = tk.id returning * into tk;
    if att.status = 'held' then
      update public.event_attendees set status = 'cancelled' where event_id = v_event_id and user_id = tk.user_id;
    end if;
    v_action := 'expired';
  end if;
  return pg_catalog.to_jsonb(tk) || pg_catalog.jsonb_build_object('action', v_action, 'event_slug', ev.slug);
end;
$$;
comment on function public.sync_ticket_checkout(text, text, text, text, integer, text) is
  'service_role: apply a ticket checkout session state read from Stripe; forward-only, idempotent (issue 16).';

/* The ticket of a payment intent (charge.refunded names only the payment intent). */
create or replace function public.ticket_by_payment_intent(p_payment_intent text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select checkout_session_id from public.event_tickets where payment_intent_id = p_payment_intent
$$;

/* Refund queue: claims up to p_limit due refund_pending tickets (lease 120 s) and returns
   id, payment_intent_id, amount_cents, refund_reason, attempts. Issue 16. */
create or replace function public.claim_ticket_refunds(p_limit integer default 20)
returns table (id bigint, payment_intent_id text, amount_cents integer, refund_reason text, refund_attempts integer)
language sql
security definer
set search_path = ''
as $$
  update public.event_tickets t
  set refund_attempts = t.refund_attempts + 1, refund_next_attempt_at = pg_catalog.now() + interval '120 seconds'
  where t.id in (select q.id from public.event_tickets q
                 where q.status = 'refund_pending' and q.refund_next_attempt_at <= pg_catalog.now()
                 order by q.refund_next_attempt_at, q.id limit greatest(1, least(p_limit, 100)) for update skip locked)
  returning t.id, t.payment_intent_id, t.amount_cents, t.refund_reason, t.refund_attempts
$$;

/* A refund failed (Stripe down or refused): retry after 2^attempts minutes (at most 6 hours). */
create or replace function public.fail_ticket_refund(p_ticket_id bigint, p_error text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.event_tickets
  set refund_error = pg_catalog.left(p_error, 1000),
      refund_next_attempt_at = pg_catalog.now() + least(interval '6 hours', interval '1 minute' * power(2, refund_attempts))
  where id = p_ticket_id and status = 'refund_pending'
$$;

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.organizes_event(bigint),
  private.event_is_visible(bigint),
  private.event_join_link(bigint) to anon, authenticated, service_role;
grant execute on function public.event_waitlist_position(bigint),
  public.rsvp_event(bigint),
  public.cancel_rsvp(bigint),
  public.reserve_ticket(bigint, text) to authenticated;
grant execute on function public.event_join_link(bigint) to anon, authenticated;
