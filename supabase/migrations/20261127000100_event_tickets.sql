-- =============================================================================
-- Events, finished (issue 16): paid tickets, attendee notifications, RSVP without deadlocks
-- =============================================================================
-- 1. One lock order. Everything that touches an event's attendance takes the EVENT ROW first and
--    the attendee rows after it: the RPCs below (rsvp_event, cancel_rsvp, reserve_ticket,
--    sync_ticket_checkout, release_expired_holds) start with `select … for update` on the event;
--    event updates and deletes lock it by their own statement before they reach attendees
--    (promotion, cascade). API roles can no longer write event_attendees directly, because an
--    UPDATE/DELETE through PostgREST locks the attendee row before any trigger could take the
--    event lock -- the order that deadlocked against an organiser deleting the event or raising
--    its capacity (40P01).
-- 2. Seats. going and held take a seat; capacity >= going + held always (trigger below). A held
--    seat belongs to an open checkout session (30 minutes) or to a waitlist offer on a paid event
--    (24 hours to pay); release_expired_holds (pg_cron, every minute) and checkout.session.expired
--    give it back, and the next waitlisted person moves up.
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

-- -----------------------------------------------------------------------------
-- Settings: the notification switch
-- -----------------------------------------------------------------------------
alter table public.user_settings add column email_event_updates boolean not null default true;
comment on column public.user_settings.email_event_updates is
  'E-mail when an event I attend or wait for changes its time, place or link, is cancelled, and a reminder 24 hours before (issue 16).';
grant select (email_event_updates) on public.user_settings to authenticated;
grant insert (email_event_updates) on public.user_settings to authenticated;
grant update (email_event_updates) on public.user_settings to authenticated;

create or replace function private.wants_email(p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select case p_kind when 'contact_requests' then s.email_contact_requests
                                      when 'messages' then s.email_messages
                                      when 'event_updates' then s.email_event_updates end
                   from public.user_settings s where s.user_id = p_user_id), true)
$$;
comment on function private.wants_email(uuid, text) is
  'E-mail switch of a user per kind (contact_requests, messages, event_updates), default true. Issues 13, 16.';

-- -----------------------------------------------------------------------------
-- Held seats
-- -----------------------------------------------------------------------------
alter table public.event_attendees add column hold_expires_at timestamptz;
comment on column public.event_attendees.hold_expires_at is
  'Set exactly while status = held: the seat is given back after this instant unless paid (issue 16).';
alter table public.event_attendees add constraint event_attendees_hold_check
  check ((status = 'held') = (hold_expires_at is not null));
create index event_attendees_hold_idx on public.event_attendees (hold_expires_at) where status = 'held';
grant select (hold_expires_at) on public.event_attendees to authenticated;

-- Writes only through the RPCs below (lock order, see 1.).
revoke insert, update, delete on public.event_attendees from authenticated;
drop policy if exists event_attendees_insert on public.event_attendees;
drop policy if exists event_attendees_update on public.event_attendees;
drop policy if exists event_attendees_delete on public.event_attendees;

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
revoke all on function private.seats_taken(bigint) from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Tickets
-- -----------------------------------------------------------------------------
create type public.ticket_status as enum ('pending', 'paid', 'expired', 'refund_pending', 'refunded');
comment on type public.ticket_status is
  'pending (checkout open, seat held) -> paid | expired; expired -> paid (late payment); paid -> refund_pending -> refunded. Never backwards.';

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
create trigger event_tickets_updated_at before update on public.event_tickets
  for each row execute function private.set_updated_at();

alter table public.event_tickets enable row level security;
revoke all on public.event_tickets from anon, authenticated;
-- Stripe ids and the refund queue columns stay with service_role (lesson: personal data by column).
grant select (id, event_id, user_id, ticket_number, status, amount_cents, currency, lang, hold_expires_at, refund_reason,
  paid_at, refund_requested_at, refunded_at, created_at, updated_at) on public.event_tickets to authenticated;
grant all on public.event_tickets to service_role;
create policy event_tickets_select on public.event_tickets for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));

/* A fresh ticket number, e.g. TW-3F9A0C27B1. */
create or replace function private.new_ticket_number()
returns text
language sql
volatile
set search_path = ''
as $$
  select 'TW-' || pg_catalog.upper(pg_catalog.substr(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 1, 10))
$$;

-- -----------------------------------------------------------------------------
-- Mail helpers
-- -----------------------------------------------------------------------------
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
revoke all on function private.format_eur(integer, text), private.format_event_time(timestamptz, text),
  private.event_place(public.events, text), private.event_mail_payload(public.events, text),
  private.enqueue_event_mail(uuid, text, public.events, jsonb), private.new_ticket_number() from public, anon, authenticated;

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
revoke all on function private.notify_attendees(public.events, text, text, public.attendee_status[]) from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Seat logic (replaces the versions of 20261121000700 and 20261121017000)
-- -----------------------------------------------------------------------------
/* Moves the oldest waitlisted RSVPs up while seats (going + held) are free under p_capacity
   (null = unlimited): to going on a free event; on a paid event to held for 24 hours with a
   seat-offer mail (pay within 24 hours). Returns going and waitlisted counts afterwards.
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
  next_user uuid;
  v_until timestamptz := pg_catalog.now() + interval '24 hours';
begin
  select * into ev from public.events where id = p_event_id;
  v_taken := private.seats_taken(p_event_id);
  while ev.status in ('published', 'upcoming', 'ongoing') and (p_capacity is null or v_taken < p_capacity) loop
    select a.user_id into next_user from public.event_attendees a
    where a.event_id = p_event_id and a.status = 'waitlisted' order by a.created_at, a.user_id limit 1;
    exit when next_user is null;
    if ev.is_paid then
      update public.event_attendees set status = 'held', hold_expires_at = v_until, updated_at = pg_catalog.now()
      where event_id = p_event_id and user_id = next_user;
      perform private.enqueue_event_mail(next_user, 'event_seat_offer', ev, pg_catalog.jsonb_build_object(
        'deadline', private.format_event_time(v_until, coalesce((select preferred_language from public.profiles where id = next_user), 'de')),
        'amount', private.format_eur(ev.price_cents, coalesce((select preferred_language from public.profiles where id = next_user), 'de'))));
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
  'Waitlist order (created_at, user_id) into free seats (going + held < capacity): going on free events, held 24 h with an offer mail on paid ones (issue 16). Caller holds the event row lock.';
revoke execute on function private.promote_waitlisted(bigint, integer) from public, anon, authenticated;

/* BEFORE INSERT/UPDATE on event_attendees. New or re-activated RSVPs asking for a seat (going or
   held) get one only while going + held < capacity, otherwise they are waitlisted; their queue
   time is the clock time after the event lock. hold_expires_at follows the status. */
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
    new.created_at := pg_catalog.clock_timestamp();
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
comment on function private.before_attendee_change() is 'BEFORE INSERT/UPDATE on event_attendees: seats (going + held <= capacity), waitlist time, hold expiry (issue 16).';

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

-- -----------------------------------------------------------------------------
-- RSVP RPCs (authenticated). Errors (HTTP status through PostgREST):
--   28000 not_authenticated (401); 42501 not allowed (403, suspended account);
--   PT404 event_not_found (404: missing, draft or hidden); P0001 event_not_open,
--   ticket_required, event_not_paid, refund_window_closed (400).
-- -----------------------------------------------------------------------------

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
revoke all on function private.lock_event_for_rsvp(bigint) from public, anon, authenticated;

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
   event's price; no free seat puts the caller on the waitlist. p_lang: de | en (checkout and
   mails). Output: jsonb { status: held | waitlisted | going, ticket_id, ticket_number,
   amount_cents, currency, hold_expires_at, checkout_session_id (an open session to reuse, else
   null) }. A caller who already holds a paid ticket gets status going and that ticket.
   Errors: see above; event_not_paid for a free event. Issue 16. */
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
  if tk.status = 'pending' and att.status = 'held' and tk.hold_expires_at > pg_catalog.now() + interval '1 minute' then
    -- checkout already open: reuse it
    return pg_catalog.jsonb_build_object('status', 'held', 'ticket_id', tk.id, 'ticket_number', tk.ticket_number,
      'amount_cents', tk.amount_cents, 'currency', tk.currency, 'hold_expires_at', tk.hold_expires_at,
      'checkout_session_id', tk.checkout_session_id);
  end if;
  if tk.status = 'pending' then
    -- an old checkout that is about to end: it is replaced (a late payment of it is refunded)
    update public.event_tickets set status = 'expired' where id = tk.id;
  end if;

  -- Stripe wants a checkout session to live 30 minutes at least (the extra minute covers the
  -- time until the session is created): a seat offer ending sooner is extended to that.
  v_until := greatest(pg_catalog.now() + interval '31 minutes',
                      case when att.status = 'held' then att.hold_expires_at end);
  if att.status = 'held' then
    update public.event_attendees set hold_expires_at = v_until where event_id = ev.id and user_id = auth.uid();
  else
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
  'authenticated: hold a seat of a paid event for 30 minutes with a pending ticket, or join the waitlist; event row lock first. Issue 16.';

revoke all on function public.rsvp_event(bigint), public.cancel_rsvp(bigint), public.reserve_ticket(bigint, text) from public, anon;
grant execute on function public.rsvp_event(bigint), public.cancel_rsvp(bigint), public.reserve_ticket(bigint, text) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Service-role RPCs: checkout state, refunds, holds
-- -----------------------------------------------------------------------------

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
   only (see the header), so a duplicate, late or out-of-order call changes nothing.
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

revoke all on function public.attach_ticket_checkout(bigint, text), public.sync_ticket_checkout(text, text, text, text, integer, text),
  public.ticket_by_payment_intent(text), public.claim_ticket_refunds(integer), public.fail_ticket_refund(bigint, text)
  from public, anon, authenticated;
grant execute on function public.attach_ticket_checkout(bigint, text), public.sync_ticket_checkout(text, text, text, text, integer, text),
  public.ticket_by_payment_intent(text), public.claim_ticket_refunds(integer), public.fail_ticket_refund(bigint, text)
  to service_role;
revoke all on function private.release_expired_holds(), private.send_event_reminders() from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Event changes: notifications, cancellation refunds
-- -----------------------------------------------------------------------------
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

-- -----------------------------------------------------------------------------
-- E-mails
-- -----------------------------------------------------------------------------
insert into public.email_types (key, description, priority) values
  ('ticket_confirmation', 'Ticket bought: event, ticket number, receipt and the .ics file (issue 16).', 1),
  ('ticket_refunded', 'A ticket was refunded in full (issue 16).', 1),
  ('event_seat_offer', 'A seat on the waitlist became free: 24 hours to pay (issue 16).', 1),
  ('event_changed', 'An event I attend changed its time, place or link (issue 16).', 3),
  ('event_cancelled', 'An event I attend was cancelled (issue 16).', 2),
  ('event_reminder', 'Reminder 24 hours before an event I attend (issue 16).', 4)
on conflict (key) do update set description = excluded.description, priority = excluded.priority;

insert into public.email_templates (key, lang, subject, body) values
('ticket_confirmation', 'de', 'Ihr Ticket für {{event_title}}',
$t$Hallo {{firstname}},

vielen Dank für Ihre Bestellung. Ihr Platz ist bestätigt.

• Veranstaltung: {{event_title}}
• Beginn: {{event_time}}
• Ort: {{event_place}}
• Ticketnummer: {{ticket_number}}

Beleg: Bezahlt am {{paid_on}} per Karte: {{amount}} (inkl. 19 % MwSt. {{vat}}).

Den Kalendereintrag finden Sie im Anhang (event.ics). Sie können bis 48 Stunden vor Beginn kostenlos stornieren und erhalten den vollen Betrag zurück.

{{link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('ticket_confirmation', 'en', 'Your ticket for {{event_title}}',
$t$Hi {{firstname}},

thank you for your order. Your seat is confirmed.

• Event: {{event_title}}
• Starts: {{event_time}} (Berlin time)
• Place: {{event_place}}
• Ticket number: {{ticket_number}}

Receipt: paid on {{paid_on}} by card: {{amount}} (incl. 19% VAT {{vat}}).

The calendar entry is attached (event.ics). You can cancel free of charge until 48 hours before the start and get the full amount back.

{{link}}

Best regards
The Teamwerk team$t$),
('ticket_refunded', 'de', 'Erstattung für {{event_title}}',
$t$Hallo {{firstname}},

Ihr Ticket {{ticket_number}} für {{event_title}} wurde storniert. Wir haben {{amount}} auf Ihre Karte zurückerstattet; je nach Bank ist der Betrag in 5 bis 10 Tagen sichtbar.

{{link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('ticket_refunded', 'en', 'Refund for {{event_title}}',
$t$Hi {{firstname}},

your ticket {{ticket_number}} for {{event_title}} was cancelled. We refunded {{amount}} to your card; depending on your bank it shows within 5 to 10 days.

{{link}}

Best regards
The Teamwerk team$t$),
('event_seat_offer', 'de', 'Ein Platz für {{event_title}} ist frei',
$t$Hallo {{firstname}},

gute Nachricht: Auf der Warteliste für {{event_title}} ({{event_time}}) sind Sie nachgerückt. Wir halten den Platz bis {{deadline}} für Sie frei. Das Ticket kostet {{amount}} (inkl. MwSt.).

{{link}}

Wenn Sie bis dahin nicht bezahlen, geht der Platz an die nächste Person auf der Warteliste.

Viele Grüße
Ihr Teamwerk-Team$t$),
('event_seat_offer', 'en', 'A seat for {{event_title}} is free',
$t$Hi {{firstname}},

good news: you moved up the waitlist of {{event_title}} ({{event_time}}). We keep the seat for you until {{deadline}} (Berlin time). The ticket costs {{amount}} (incl. VAT).

{{link}}

If you do not pay by then, the seat goes to the next person on the waitlist.

Best regards
The Teamwerk team$t$),
('event_changed', 'de', 'Geändert: {{event_title}}',
$t$Hallo {{firstname}},

die Veranstaltung {{event_title}} hat sich geändert. Aktuell gilt:

• Beginn: {{event_time}}
• Ort: {{event_place}}

{{link}}

Benachrichtigungen zu Veranstaltungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('event_changed', 'en', 'Changed: {{event_title}}',
$t$Hi {{firstname}},

the event {{event_title}} has changed. It now takes place:

• Starts: {{event_time}} (Berlin time)
• Place: {{event_place}}

{{link}}

Unsubscribe from event notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$),
('event_cancelled', 'de', 'Abgesagt: {{event_title}}',
$t$Hallo {{firstname}},

leider wurde die Veranstaltung {{event_title}} ({{event_time}}) abgesagt. Wenn Sie ein Ticket gekauft haben, erstatten wir den vollen Betrag automatisch; Sie erhalten dazu eine eigene E-Mail.

{{link}}

Benachrichtigungen zu Veranstaltungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('event_cancelled', 'en', 'Cancelled: {{event_title}}',
$t$Hi {{firstname}},

unfortunately the event {{event_title}} ({{event_time}}) was cancelled. If you bought a ticket, we refund the full amount automatically; you will get a separate email about it.

{{link}}

Unsubscribe from event notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$),
('event_reminder', 'de', 'Morgen: {{event_title}}',
$t$Hallo {{firstname}},

zur Erinnerung: {{event_title}} beginnt am {{event_time}}.

• Ort: {{event_place}}

{{link}}

Benachrichtigungen zu Veranstaltungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('event_reminder', 'en', 'Tomorrow: {{event_title}}',
$t$Hi {{firstname}},

a reminder: {{event_title}} starts on {{event_time}} (Berlin time).

• Place: {{event_place}}

{{link}}

Unsubscribe from event notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

-- -----------------------------------------------------------------------------
-- Schedules
-- -----------------------------------------------------------------------------
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('release-expired-holds', '* * * * *', 'select private.release_expired_holds()');
    perform cron.schedule('event-reminders', '*/10 * * * *', 'select private.send_event_reminders()');
    perform cron.schedule('process-ticket-refunds', '* * * * *', $job$
      select net.http_post(
        url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/process-ticket-refunds',
        headers := jsonb_build_object(
          'Content-Type', 'application/json',
          'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key'),
          'apikey', (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')),
        body := '{}'::jsonb,
        timeout_milliseconds := 30000) as request_id;
    $job$);
  end if;
end;
$$;

-- -----------------------------------------------------------------------------
-- DSGVO Art. 20: the data export carries the caller's tickets and settings too
-- -----------------------------------------------------------------------------
alter function private.export_my_data() rename to export_my_data_base;
revoke all on function private.export_my_data_base() from public, anon, authenticated;

create or replace function private.export_my_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  return private.export_my_data_base() || pg_catalog.jsonb_build_object(
    'event_tickets', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t) - 'refund_error' - 'refund_attempts' - 'refund_next_attempt_at' order by t.created_at), '[]')
                      from public.event_tickets t where t.user_id = me),
    'settings', (select pg_catalog.to_jsonb(s) from public.user_settings s where s.user_id = me));
end;
$$;
comment on function private.export_my_data() is 'Implementation of public.export_my_data: the base export (20261121001400) plus tickets and settings (issue 16).';
revoke all on function private.export_my_data() from public, anon;
grant execute on function private.export_my_data() to authenticated;
