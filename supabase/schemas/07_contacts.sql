-- =============================================================================
-- Contacts: requests, accepted contacts, presence and fair requests (spec §2 /user/contacts,
-- §6; issues 13 and 19)
-- =============================================================================
-- * Contact requests go through send_contact_request (no direct INSERT): a note of at most 500
--   characters, no request to hidden/suspended/blocked people, a declined requester may not ask
--   again for 30 days (PT409 declined_recently), at most 25 requests a day and 100 pending ones
--   per requester (PT429 contact_request_limit). The addressee gets a Broadcast on `user:<id>` at
--   once and an e-mail through the queue (when confirmed and not switched off). Answers: only
--   pending -> accepted | declined, only by the addressee. A declined row stays as the 30-day
--   memory; the requester cannot delete it. A block removes the pending request between the two
--   (the contacts policy already hides the rest both ways).
-- * Presence: presence:user:<id>:<epoch> is readable only by accepted contacts when BOTH show
--   their online status (reciprocity) and writable only by the user while they show it (the topic
--   rules are in 23_realtime.sql). "Last seen" is kept by touch_presence() (private.last_seen) and
--   handed only to contacts under the same rule.
--   The epoch (issue 31 §10): hosted Realtime checks a private channel's RLS when it is joined
--   (and again only on a token refresh) and keeps that answer for the channel's life, so someone
--   removed or blocked who stays joined would go on receiving the presence diffs of the topic
--   until their token expires. Removing a contact and a block therefore move the presence of
--   both people to a new topic (private.presence_epochs counts up): their tabs and their
--   remaining contacts hear `presence_moved` on their own `user:<id>` topic, look the new topic up
--   (public.presence_topic answers only those allowed to see the presence) and join it; nobody
--   tracks on the old topic any more, so whoever is left there hears nothing further. Only the
--   current topic passes the realtime.messages policies.
-- * Fair requests (issue 19 "Fair requests (anti-ghosting)"; spec §6: contacts need a plan):
--   - private.contact_request_log keeps one row per contact request ever sent (the contacts row of
--     a pair is reused and may be deleted, so it cannot count sends or remember answers). Triggers
--     on public.contacts write it: a new pending request adds a row; accept, decline and expiry
--     close it with that outcome; a deleted pending request closes it as 'withdrawn' (by the
--     requester, an admin or an account deletion), 'dismissed' (deleted by the addressee without
--     an answer) or 'blocked' (removed by a block, which then counts for nobody).
--   - Weekly allowance by the sender's effective plan (the best paid subscription, as
--     has_paid_access reads it): Basic 10, Premium 30, Enterprise 100 requests per week; free users
--     have none (PT402 payment_required), admins no limit. The week is the ISO week in
--     Europe/Berlin: Monday 00:00 to Monday 00:00 Berlin time; the allowance renews every Monday at
--     00:00 Berlin time. Every sent request counts, also one withdrawn later. Asking back (which
--     accepts the other's request) sends nothing and does not count. Refusal: SQLSTATE PT429
--     (HTTP 429), message `weekly_contact_request_limit`, detail an English sentence, hint a JSON
--     object {"plan","limit","used","renews_at" (ISO UTC instant),"renews_on" (Berlin date)}.
--     public.my_contact_request_allowance() tells the UI how many are left.
--   - Expiry: a request unanswered for 14 days becomes status 'expired' (cron hourly,
--     private.expire_contact_requests); the requester may send again later (a new request that
--     counts again). Reminder: after 7 days unanswered the addressee gets one e-mail
--     (contact_request_reminder, in their language; it follows the contact-request mail switch and
--     its one-click unsubscribe), exactly once per request (contact_request_log.reminded_at).
--   - Response stats over the last 90 days of requests received that are decided (answered,
--     expired or dismissed; open, withdrawn and blocked ones do not count): response rate
--     (accepted or declined / decided) and median response time in hours of the answered ones.
--     public.profile_response_stats(profile) shows them to whoever may see the profile, only with
--     at least 5 decided requests; no requester identity is exposed. private.responsiveness(profile)
--     (0..1) is the tie-break for matching.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.contact_status as enum ('pending', 'accepted', 'declined', 'expired');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.contacts (
  id bigint generated always as identity primary key,
  requester_id uuid not null references public.profiles (id) on delete cascade,
  addressee_id uuid not null references public.profiles (id) on delete cascade,
  status public.contact_status not null default 'pending',
  message text check (char_length(message) <= 500),
  created_at timestamptz not null default now(),
  responded_at timestamptz,
  constraint contacts_not_self check (requester_id <> addressee_id)
);
comment on table public.contacts is
  'Contact requests (pending) and contacts (accepted). One row per pair in either direction. Presence is realtime, not stored.';
comment on column public.contacts.message is 'Optional note sent with the request (up to 500 characters).';
comment on column public.contacts.responded_at is 'When the addressee accepted or declined.';
create unique index contacts_pair_idx on public.contacts (least(requester_id, addressee_id), greatest(requester_id, addressee_id));
create index contacts_requester_idx on public.contacts (requester_id, status);
create index contacts_addressee_idx on public.contacts (addressee_id, status);
alter table public.contacts enable row level security;
revoke all on public.contacts from anon, authenticated;
grant select (id, requester_id, addressee_id, status, message, created_at, responded_at)
  on public.contacts to authenticated;
grant update (status) on public.contacts to authenticated;
grant delete on public.contacts to authenticated;

-- Presence: last seen. No API role reads it: only the security-definer functions below (RLS on,
-- no policy, as defence in depth).
create table private.last_seen (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  last_seen_at timestamptz not null
);
comment on table private.last_seen is 'When a user last had a tab open (touch_presence, about every minute). Read only through my_contacts / my_inbox under the reciprocity rule.';
alter table private.last_seen enable row level security;
revoke all on private.last_seen from public, anon, authenticated;

-- Presence topic epochs (issue 31 §10): a user's presence topic is presence:user:<id>:<epoch>.
create table private.presence_epochs (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  epoch bigint not null default 0 check (epoch >= 0)
);
comment on table private.presence_epochs is
  'Current presence topic epoch per user (no row = 0); counted up when a contact of theirs is removed or a block involves them, so the old topic dies (issue 31 §10).';
alter table private.presence_epochs enable row level security;
revoke all on private.presence_epochs from public, anon, authenticated;

-- The log of sent requests (fair requests)
create table private.contact_request_log (
  id bigint generated always as identity primary key,
  contact_id bigint references public.contacts (id) on delete set null,
  requester_id uuid not null references public.profiles (id) on delete cascade,
  addressee_id uuid not null references public.profiles (id) on delete cascade,
  sent_at timestamptz not null,
  outcome text check (outcome in ('accepted', 'declined', 'expired', 'withdrawn', 'dismissed', 'blocked')),
  closed_at timestamptz,
  reminded_at timestamptz,
  constraint contact_request_log_closed check ((outcome is null) = (closed_at is null))
);
comment on table private.contact_request_log is
  'One row per contact request sent (issue 19): weekly allowance, reminder once, response stats. outcome null = still open.';
comment on column private.contact_request_log.closed_at is 'When it was answered (accepted/declined), expired, withdrawn, dismissed or removed by a block.';
comment on column private.contact_request_log.reminded_at is 'When the 7-day reminder was handled (set once; the mail itself depends on the addressee''s switch).';
create index contact_request_log_requester_idx on private.contact_request_log (requester_id, sent_at);
create index contact_request_log_addressee_idx on private.contact_request_log (addressee_id, sent_at);
create unique index contact_request_log_open_idx on private.contact_request_log (contact_id) where outcome is null;
create index contact_request_log_reminder_idx on private.contact_request_log (sent_at) where outcome is null and reminded_at is null;
alter table private.contact_request_log enable row level security;
revoke all on private.contact_request_log from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

-- API users answer with accepted or declined only; 'expired' is the scheduler's.
create or replace function private.guard_contact()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if private.is_blocked(new.requester_id, new.addressee_id) then
      raise exception using errcode = 'P0001', message = 'blocked', detail = 'No contact between blocked users.';
    end if;
    return new;
  end if;
  if private.is_privileged() then
    return new;
  end if;
  if new.requester_id <> old.requester_id or new.addressee_id <> old.addressee_id or new.created_at <> old.created_at
     or new.message is distinct from old.message then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Only the status of a contact changes.';
  end if;
  if new.status <> old.status then
    if auth.uid() <> old.addressee_id and not private.is_admin() then
      raise exception using errcode = '42501', message = 'not_addressee', detail = 'Only the addressee answers a request.';
    end if;
    if old.status::text <> 'pending' or new.status::text not in ('accepted', 'declined') then
      raise exception using errcode = 'PT409', message = 'not_pending', detail = 'Only a pending request can be accepted or declined.';
    end if;
    new.responded_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_contact() is
  'BEFORE INSERT/UPDATE on contacts: no blocked pairs; only the addressee answers (accepted/declined) a pending request (issues 13, 19).';
create trigger contacts_guard before insert or update on public.contacts
  for each row execute function private.guard_contact();

/* After an answer: tell the requester (Broadcast) when accepted. */
create or replace function private.after_contact_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status = 'accepted' and old.status = 'pending' then
    perform private.broadcast('user:' || new.requester_id::text, 'contact_accepted',
      pg_catalog.jsonb_build_object('contact_id', new.id, 'user_id', new.addressee_id));
  end if;
  return null;
end;
$$;
comment on function private.after_contact_update() is 'AFTER UPDATE on contacts: Broadcast contact_accepted to the requester (issue 13).';
create trigger contacts_after_update after update of status on public.contacts
  for each row execute function private.after_contact_update();

/* A block removes the pending request between the two. */
create or replace function private.after_block_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.contacts
  where status = 'pending'
    and ((requester_id = new.blocker_id and addressee_id = new.blocked_id)
      or (requester_id = new.blocked_id and addressee_id = new.blocker_id));
  return null;
end;
$$;
comment on function private.after_block_insert() is 'AFTER INSERT on user_blocks: delete the pending contact request of the pair (issue 13).';
create trigger user_blocks_remove_pending after insert on public.user_blocks
  for each row execute function private.after_block_insert();

/* AFTER DELETE on contacts: removing an accepted contact moves both people's presence to a new
   topic (issue 31 §10). */
create or replace function private.after_contact_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.status = 'accepted' then
    perform private.move_presence(array[old.requester_id, old.addressee_id]);
  end if;
  return null;
end;
$$;
comment on function private.after_contact_delete() is 'AFTER DELETE on contacts: a removed contact moves both presence topics (issue 31 §10).';
create trigger contacts_move_presence after delete on public.contacts
  for each row execute function private.after_contact_delete();

/* AFTER INSERT on user_blocks: a block moves the presence of both people to a new topic, whether
   or not they were contacts (issue 31 §10). */
create or replace function private.after_block_move_presence()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.move_presence(array[new.blocker_id, new.blocked_id]);
  return null;
end;
$$;
comment on function private.after_block_move_presence() is 'AFTER INSERT on user_blocks: both presence topics move (issue 31 §10).';
create trigger user_blocks_move_presence after insert on public.user_blocks
  for each row execute function private.after_block_move_presence();

/* AFTER INSERT OR UPDATE OF status on contacts: a new pending request (insert, or a declined or
   expired pair asked again) opens a log row; an answer or the expiry closes it. */
create or replace function private.log_contact_request()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status::text = 'pending' and (tg_op = 'INSERT' or old.status::text <> 'pending') then
    insert into private.contact_request_log (contact_id, requester_id, addressee_id, sent_at)
    values (new.id, new.requester_id, new.addressee_id, new.created_at);
  elsif tg_op = 'UPDATE' and old.status::text = 'pending' and new.status::text <> 'pending' then
    update private.contact_request_log
    set outcome = new.status::text, closed_at = coalesce(new.responded_at, pg_catalog.now())
    where contact_id = new.id and outcome is null;
  end if;
  return null;
end;
$$;
comment on function private.log_contact_request() is
  'AFTER INSERT/UPDATE on contacts: opens a contact_request_log row per request sent, closes it on answer or expiry (issue 19).';
create trigger contacts_log_request after insert or update of status on public.contacts
  for each row execute function private.log_contact_request();

/* BEFORE DELETE on contacts: a pending request that disappears is closed in the log as
   'blocked' (a block removed it), 'dismissed' (the addressee deleted it unanswered) or
   'withdrawn' (anyone else: the requester, an admin, an account deletion). */
create or replace function private.log_contact_request_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- when a profile is deleted its log rows go with it (cascade): nothing to close
  if old.status::text = 'pending'
     and exists (select 1 from public.profiles where id = old.requester_id)
     and exists (select 1 from public.profiles where id = old.addressee_id) then
    update private.contact_request_log
    set outcome = case when private.is_blocked(old.requester_id, old.addressee_id) then 'blocked'
                       when auth.uid() = old.addressee_id then 'dismissed'
                       else 'withdrawn' end,
        closed_at = pg_catalog.now()
    where contact_id = old.id and outcome is null;
  end if;
  return old;
end;
$$;
comment on function private.log_contact_request_delete() is
  'BEFORE DELETE on contacts: closes the open log row of a pending request as blocked, dismissed or withdrawn (issue 19).';
create trigger contacts_log_request_delete before delete on public.contacts
  for each row execute function private.log_contact_request_delete();
create trigger contacts_paid_access before insert on public.contacts
  for each row execute function private.require_paid_access();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- Presence
/* Accepted contact of the caller, without a block either way. */
create or replace function private.is_accepted_contact(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select auth.uid() is not null and p_user_id is not null and exists (
    select 1 from public.contacts c
    where c.status = 'accepted'
      and ((c.requester_id = auth.uid() and c.addressee_id = p_user_id) or (c.addressee_id = auth.uid() and c.requester_id = p_user_id)))
    and not private.is_blocked(auth.uid(), p_user_id)
$$;
comment on function private.is_accepted_contact(uuid) is 'True when p_user_id is an accepted contact of auth.uid() and neither blocked the other.';

/* Does p_user_id show their online status? (default true) */
create or replace function private.shows_online_status(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.show_online_status from public.user_settings s where s.user_id = p_user_id), true)
$$;
comment on function private.shows_online_status(uuid) is 'user_settings.show_online_status with its default (true). Issue 13.';

/* Last seen of p_user_id as the caller may know it: only for an accepted contact when both show
   their online status, else null. */
create or replace function private.visible_last_seen(p_user_id uuid)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select case when private.is_accepted_contact(p_user_id)
                   and private.shows_online_status(auth.uid()) and private.shows_online_status(p_user_id)
              then (select l.last_seen_at from private.last_seen l where l.user_id = p_user_id) end
$$;
comment on function private.visible_last_seen(uuid) is 'Last seen of a contact under the reciprocity rule, else null (issue 13).';

/* May the caller see p_user_id's presence? (accepted contact, no block, both show status) */
create or replace function private.can_see_presence(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id = auth.uid()
      or (private.is_accepted_contact(p_user_id)
          and private.shows_online_status(auth.uid()) and private.shows_online_status(p_user_id))
$$;
comment on function private.can_see_presence(uuid) is 'Presence visibility: self, or accepted contacts when both show their status (issue 13).';

/* The current presence topic of p_user_id: 'presence:user:<id>:<epoch>' (issue 31 §10). No check
   of who asks: callers decide (public.presence_topic, the realtime.messages policies). */
create or replace function private.presence_topic(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select 'presence:user:' || p_user_id::text || ':'
    || coalesce((select e.epoch from private.presence_epochs e where e.user_id = p_user_id), 0)::text
$$;
comment on function private.presence_topic(uuid) is 'Current presence topic presence:user:<id>:<epoch> of a user (issue 31 §10).';

/* Moves the presence of each of p_user_ids (existing profiles) to a new topic and tells, by
   Broadcast `presence_moved` {user_id} on their own user:<id> topic, the person (their tabs
   re-join) and their accepted contacts without a block (they look the new topic up). Whoever
   stays joined to the old topic receives nothing further: nobody tracks there any more.
   Issue 31 §10. */
create or replace function private.move_presence(p_user_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  u uuid;
  c uuid;
begin
  for u in select p.id from public.profiles p where p.id = any (p_user_ids) order by p.id loop
    insert into private.presence_epochs (user_id, epoch) values (u, 1)
    on conflict (user_id) do update set epoch = private.presence_epochs.epoch + 1;
    perform private.broadcast('user:' || u::text, 'presence_moved', pg_catalog.jsonb_build_object('user_id', u));
    for c in
      select case when k.requester_id = u then k.addressee_id else k.requester_id end
      from public.contacts k
      where k.status = 'accepted' and (k.requester_id = u or k.addressee_id = u)
    loop
      if not private.is_blocked(u, c) then
        perform private.broadcast('user:' || c::text, 'presence_moved', pg_catalog.jsonb_build_object('user_id', u));
      end if;
    end loop;
  end loop;
end;
$$;
comment on function private.move_presence(uuid[]) is
  'New presence topic epoch for each user; presence_moved to them and their unblocked contacts (issue 31 §10).';

/* Notifies the addressee of a new request: Broadcast on user:<id> now, e-mail through the queue
   (confirmed addressee who did not switch contact-request mails off). */
create or replace function private.notify_contact_request(p_contact public.contacts)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  req public.profiles;
  adr public.profiles;
  v_name text;
begin
  select * into req from public.profiles where id = p_contact.requester_id;
  select * into adr from public.profiles where id = p_contact.addressee_id;
  v_name := private.display_name(req);
  perform private.broadcast('user:' || p_contact.addressee_id::text, 'contact_request',
    pg_catalog.jsonb_build_object('contact_id', p_contact.id, 'requester_id', p_contact.requester_id, 'display_name', v_name));
  if adr.authenticated = 1 and private.wants_email(adr.id, 'contact_requests') then
    perform private.enqueue_email(adr.id, adr.email, 'contact_request', adr.preferred_language,
      pg_catalog.jsonb_build_object('firstname', adr.firstname, 'lastname', adr.lastname),
      pg_catalog.jsonb_build_object('requester_name', v_name, 'note', coalesce(p_contact.message, ''),
        'path', '/user/contacts?tab=received', 'settings_path', '/user/settings'));
  end if;
end;
$$;
comment on function private.notify_contact_request(public.contacts) is 'In-app Broadcast and queued e-mail for a new contact request (issue 13).';

-- Weekly allowance
/* Start of the allowance week containing p_at: Monday 00:00 Europe/Berlin (ISO week). */
create or replace function private.contact_week_start(p_at timestamptz)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select pg_catalog.date_trunc('week', p_at at time zone 'Europe/Berlin') at time zone 'Europe/Berlin'
$$;
comment on function private.contact_week_start(timestamptz) is
  'Monday 00:00 Europe/Berlin of the ISO week containing p_at: start of the contact-request week (issue 19).';

/* The plan that sets p_user_id's allowance: the best paid subscription (same rule as
   has_paid_access), 'admin' for admins, null without paid access. */
create or replace function private.contact_request_plan(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  -- the plan rule lives in private.match_plan (matching migration); here admins keep their own name and free is null
  select case
    when exists (select 1 from public.profiles p where p.id = p_user_id and p.user_role = 'admin') then 'admin'
    else nullif(private.match_plan(p_user_id), 'free') end
$$;
comment on function private.contact_request_plan(uuid) is
  'Effective plan for the contact-request allowance: best paid subscription, admin, or null (issue 19, spec §6).';

/* Contact requests per week by plan (issue 19): basic 10, premium 30, enterprise 100; admin
   null (no limit); no plan 0. */
create or replace function private.weekly_contact_request_limit(p_plan text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case p_plan when 'basic' then 10 when 'premium' then 30 when 'enterprise' then 100 when 'admin' then null else 0 end
$$;
comment on function private.weekly_contact_request_limit(text) is
  'Weekly contact requests per plan (issue 19): basic 10, premium 30, enterprise 100, admin unlimited (null), none 0.';

/* Requests p_user_id sent since p_since (withdrawn ones included). */
create or replace function private.contact_requests_sent_since(p_user_id uuid, p_since timestamptz)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*)::integer from private.contact_request_log l
  where l.requester_id = p_user_id and l.sent_at >= p_since
$$;
comment on function private.contact_requests_sent_since(uuid, timestamptz) is 'Contact requests sent since a time (issue 19).';

-- Expiry and reminder (pg_cron)
/* Expires pending requests unanswered for 14 days (cron hourly): status 'expired' (the log row
   closes through its trigger), a Broadcast `contact_expired` to the requester. Returns the
   number expired. Issue 19. */
create or replace function private.expire_contact_requests()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
begin
  for r in
    update public.contacts set status = 'expired'
    where id in (select c.id from public.contacts c
                 where c.status = 'pending' and c.created_at <= pg_catalog.now() - interval '14 days'
                 order by c.id for update skip locked)
    returning id, requester_id, addressee_id
  loop
    perform private.broadcast('user:' || r.requester_id::text, 'contact_expired',
      pg_catalog.jsonb_build_object('contact_id', r.id, 'user_id', r.addressee_id));
    n := n + 1;
  end loop;
  return n;
end;
$$;
comment on function private.expire_contact_requests() is 'Cron (hourly): pending contact requests older than 14 days become expired (issue 19).';

/* Date in a mail's language: de "30.11.2026", en "30 November 2026". */
create or replace function private.format_mail_date(p_at timestamptz, p_lang text)
returns text
language sql
stable
set search_path = ''
as $$
  select case when p_lang = 'en'
    then pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'FMDD FMMonth YYYY')
    else pg_catalog.to_char(p_at at time zone 'Europe/Berlin', 'DD.MM.YYYY') end
$$;
comment on function private.format_mail_date(timestamptz, text) is 'A Berlin date for mails: de DD.MM.YYYY, en D Month YYYY (issue 19).';

/* Reminder to the addressee of each request unanswered for 7 days (cron hourly), exactly once per
   request: the log row's reminded_at is set in the same statement that picks it. The mail goes to
   confirmed addressees who did not switch contact-request mails off, when neither side is
   suspended or blocked. Returns the number of mails queued. Issue 19. */
create or replace function private.send_contact_request_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
begin
  for r in
    with due as (
      update private.contact_request_log l set reminded_at = pg_catalog.now()
      where l.id in (select x.id from private.contact_request_log x
                     join public.contacts c on c.id = x.contact_id and c.status = 'pending'
                     where x.outcome is null and x.reminded_at is null
                       and x.sent_at <= pg_catalog.now() - interval '7 days'
                     order by x.id for update of x skip locked)
      returning l.contact_id, l.requester_id, l.addressee_id, l.sent_at
    )
    select d.*, c.message, a.email, a.preferred_language, a.firstname, a.lastname, a.authenticated,
           (select private.display_name(q) from public.profiles q where q.id = d.requester_id) as requester_name
    from due d
    join public.contacts c on c.id = d.contact_id
    join public.profiles a on a.id = d.addressee_id
  loop
    if r.authenticated = 1 and private.wants_email(r.addressee_id, 'contact_requests')
       and not private.is_suspended(r.addressee_id) and not private.is_suspended(r.requester_id)
       and not private.is_blocked(r.requester_id, r.addressee_id) then
      perform private.enqueue_email(r.addressee_id, r.email, 'contact_request_reminder', r.preferred_language,
        pg_catalog.jsonb_build_object('firstname', r.firstname, 'lastname', r.lastname),
        pg_catalog.jsonb_build_object('requester_name', r.requester_name, 'note', coalesce(r.message, ''),
          'expires_on', private.format_mail_date(r.sent_at + interval '14 days', r.preferred_language),
          'path', '/user/contacts?tab=received', 'settings_path', '/user/settings'));
      n := n + 1;
    end if;
  end loop;
  return n;
end;
$$;
comment on function private.send_contact_request_reminders() is
  'Cron (hourly): one reminder mail per contact request unanswered for 7 days (issue 19).';

-- Response stats
/* Response stats of p_profile_id over the requests received in the last 90 days that are decided
   (accepted, declined, expired or dismissed): requests (decided), answered (accepted or
   declined), response_rate = answered / requests (0..1, null without requests),
   median_response_hours of the answered ones (null without answers). No threshold here. */
create or replace function private.response_stats(p_profile_id uuid)
returns table (requests integer, answered integer, response_rate numeric, median_response_hours numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*)::integer,
         pg_catalog.count(*) filter (where l.outcome in ('accepted', 'declined'))::integer,
         (pg_catalog.count(*) filter (where l.outcome in ('accepted', 'declined')))::numeric / nullif(pg_catalog.count(*), 0),
         (pg_catalog.percentile_cont(0.5) within group (order by extract(epoch from l.closed_at - l.sent_at) / 3600.0)
            filter (where l.outcome in ('accepted', 'declined')))::numeric
  from private.contact_request_log l
  where l.addressee_id = p_profile_id
    and l.sent_at > pg_catalog.now() - interval '90 days'
    and l.outcome in ('accepted', 'declined', 'expired', 'dismissed')
$$;
comment on function private.response_stats(uuid) is
  'Response stats over 90 days of decided contact requests received (issue 19); no minimum applied.';

/* Tie-break for matching (issue 19): how reliably p_profile_id answers, 0..1. An answer within
   72 hours counts 1, a later one 0.5, expired or dismissed 0, over the decided requests of the
   last 90 days, smoothed towards 0.5 with the weight of 5 requests:
   (points + 2.5) / (decided + 5). Without history: 0.5. */
create or replace function private.responsiveness(p_profile_id uuid)
returns numeric
language sql
stable
security definer
set search_path = ''
as $$
  select (coalesce(pg_catalog.sum(case when l.outcome in ('accepted', 'declined') and l.closed_at - l.sent_at <= interval '72 hours' then 1.0
                                       when l.outcome in ('accepted', 'declined') then 0.5 else 0.0 end), 0) + 2.5)
         / (pg_catalog.count(*) + 5)
  from private.contact_request_log l
  where l.addressee_id = p_profile_id
    and l.sent_at > pg_catalog.now() - interval '90 days'
    and l.outcome in ('accepted', 'declined', 'expired', 'dismissed')
$$;
comment on function private.responsiveness(uuid) is
  'Matching tie-break 0..1 (issue 19): smoothed share of contact requests answered (within 72 h = 1, later = 0.5) over 90 days; 0.5 without history.';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy contacts_select on public.contacts for select to authenticated
using (
  ((requester_id = (select auth.uid()) or addressee_id = (select auth.uid()))
   and not private.is_blocked(requester_id, addressee_id))
  or (select private.is_admin())
);
create policy contacts_update on public.contacts for update to authenticated
using ((requester_id = (select auth.uid()) or addressee_id = (select auth.uid())) and (select private.caller_can_write()))
with check (requester_id = (select auth.uid()) or addressee_id = (select auth.uid()));
create policy contacts_delete on public.contacts for delete to authenticated
using (
  ((requester_id = (select auth.uid()) and status <> 'declined') or addressee_id = (select auth.uid()))
  or (select private.is_admin())
);

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* Records that the caller is online now (the SPA calls it about once a minute while a tab is
   open). Nothing is stored while the caller hides their online status or has no paid access
   (contacts are a paid feature, spec §6). Returns nothing.
   Errors: 28000 not_authenticated. */
create or replace function public.touch_presence()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  -- presence belongs to contacts, a paid feature (spec §6); nothing is stored while hidden
  if not private.shows_online_status(auth.uid()) or not private.has_paid_access(auth.uid()) then
    return;
  end if;
  insert into private.last_seen (user_id, last_seen_at) values (auth.uid(), pg_catalog.now())
  on conflict (user_id) do update set last_seen_at = excluded.last_seen_at
    where private.last_seen.last_seen_at < excluded.last_seen_at - interval '20 seconds';
end;
$$;
comment on function public.touch_presence() is 'Stores "last seen" = now for the caller unless they hide their online status (issue 13).';

/* The presence topic of p_user_id to join (Realtime, private channel): the caller's own, or an
   accepted contact's while both show their online status; null for anyone else (issue 31 §10:
   the topic changes when a contact is removed or a block is set; the SPA asks again on
   `presence_moved`). Input: a user id. Output: 'presence:user:<id>:<epoch>' or null.
   Errors: 28000 not_authenticated. */
create or replace function public.presence_topic(p_user_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if p_user_id is null or not private.can_see_presence(p_user_id) then
    return null;
  end if;
  return private.presence_topic(p_user_id);
end;
$$;
comment on function public.presence_topic(uuid) is
  'authenticated: current presence topic of self or a contact who may be watched, else null (issue 31 §10).';

/* Sends a contact request from the caller to p_addressee_id with an optional note.
   Returns the pair's status afterwards: 'pending', or 'accepted' when the addressee had already
   asked the caller (their request is accepted; this sends nothing and uses no allowance).
   Errors (HTTP status through PostgREST):
     28000 not_authenticated (403); PT402 payment_required (spec §6);
     22023 invalid_user_id | cannot_contact_self (400);
     PT404 user_not_found (404: unknown, suspended or not visible to the caller);
     P0001 blocked (400: a block either way);
     22001 note_too_long (400: more than 500 characters);
     PT409 already_contacts | request_pending (the caller's request is open) |
       declined_recently (declined less than 30 days ago; detail names the date it ends);
     PT429 weekly_contact_request_limit (issue 19: the plan's weekly allowance is used up; detail
       "You have used your N contact requests for this week. Your allowance renews on YYYY-MM-DD.",
       hint JSON {"plan","limit","used","renews_at","renews_on"});
     PT429 contact_request_limit (25 requests in 24 hours or 100 pending). Issues 13, 19. */
create or replace function public.send_contact_request(p_addressee_id uuid, p_message text default null)
returns public.contact_status
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_note text := nullif(pg_catalog.btrim(coalesce(p_message, '')), '');
  c public.contacts;
  v_until timestamptz;
  v_plan text;
  v_limit integer;
  v_used integer;
  v_start timestamptz;
  v_renews timestamptz;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if not private.caller_can_write() or not private.has_paid_access(me) then
    raise exception using errcode = 'PT402', message = 'payment_required', detail = 'Contacts need an active paid subscription (spec §6).';
  end if;
  if p_addressee_id is null then
    raise exception using errcode = '22023', message = 'invalid_user_id', detail = 'p_addressee_id is required.';
  end if;
  if p_addressee_id = me then
    raise exception using errcode = '22023', message = 'cannot_contact_self', detail = 'A contact request needs another person.';
  end if;
  if private.is_blocked(me, p_addressee_id) then
    raise exception using errcode = 'P0001', message = 'blocked', detail = 'No contact between blocked users.';
  end if;
  if not exists (select 1 from public.profiles where id = p_addressee_id)
     or private.is_suspended(p_addressee_id)
     or not private.can_see_profile(p_addressee_id) then
    raise exception using errcode = 'PT404', message = 'user_not_found', detail = 'No such person.';
  end if;
  if char_length(coalesce(v_note, '')) > 500 then
    raise exception using errcode = '22001', message = 'note_too_long', detail = 'The note may have at most 500 characters.';
  end if;

  -- the caller's requests one at a time (allowance), then one request at a time per pair
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('contact-requests:' || me::text, 0));
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    'contact:' || least(me, p_addressee_id)::text || greatest(me, p_addressee_id)::text, 0));
  select * into c from public.contacts
  where least(requester_id, addressee_id) = least(me, p_addressee_id)
    and greatest(requester_id, addressee_id) = greatest(me, p_addressee_id)
  for update;

  if found then
    if c.status::text = 'accepted' then
      raise exception using errcode = 'PT409', message = 'already_contacts', detail = 'You are already contacts.';
    end if;
    if c.status::text = 'pending' and c.requester_id = me then
      raise exception using errcode = 'PT409', message = 'request_pending', detail = 'Your request is waiting for an answer.';
    end if;
    if c.status::text = 'pending' then
      -- they asked first: asking back accepts
      update public.contacts set status = 'accepted', responded_at = pg_catalog.now() where id = c.id returning * into c;
      perform private.broadcast('user:' || c.requester_id::text, 'contact_accepted',
        pg_catalog.jsonb_build_object('contact_id', c.id, 'user_id', me));
      return c.status;
    end if;
    -- declined (or expired: no wait)
    if c.status::text = 'declined' and c.requester_id = me and c.responded_at > pg_catalog.now() - interval '30 days' then
      v_until := c.responded_at + interval '30 days';
      raise exception using errcode = 'PT409', message = 'declined_recently',
        detail = 'This person declined your request. You can ask again from ' || pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD') || '.',
        hint = pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    end if;
  end if;

  -- weekly allowance by plan (issue 19)
  v_plan := private.contact_request_plan(me);
  v_limit := private.weekly_contact_request_limit(v_plan);
  if v_limit is not null then
    v_start := private.contact_week_start(pg_catalog.now());
    v_used := private.contact_requests_sent_since(me, v_start);
    if v_used >= v_limit then
      v_renews := v_start + interval '7 days';
      raise exception using errcode = 'PT429', message = 'weekly_contact_request_limit',
        detail = 'You have used your ' || v_limit || ' contact requests for this week. Your allowance renews on '
          || pg_catalog.to_char(v_renews at time zone 'Europe/Berlin', 'YYYY-MM-DD') || '.',
        hint = pg_catalog.jsonb_build_object('plan', v_plan, 'limit', v_limit, 'used', v_used,
          'renews_at', pg_catalog.to_char(v_renews at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'renews_on', pg_catalog.to_char(v_renews at time zone 'Europe/Berlin', 'YYYY-MM-DD'))::text;
    end if;
  end if;

  if (select pg_catalog.count(*) from public.contacts where requester_id = me and created_at > pg_catalog.now() - interval '24 hours') >= 25
     or (select pg_catalog.count(*) from public.contacts where requester_id = me and status = 'pending') >= 100 then
    raise exception using errcode = 'PT429', message = 'contact_request_limit',
      detail = 'At most 25 contact requests a day and 100 open requests.';
  end if;

  if found then
    update public.contacts
    set requester_id = me, addressee_id = p_addressee_id, status = 'pending', message = v_note,
        created_at = pg_catalog.now(), responded_at = null
    where id = c.id returning * into c;
  else
    insert into public.contacts (requester_id, addressee_id, status, message)
    values (me, p_addressee_id, 'pending', v_note) returning * into c;
  end if;
  perform private.notify_contact_request(c);
  return c.status;
end;
$$;
comment on function public.send_contact_request(uuid, text) is
  'Contact request with an optional note (≤ 500); 30-day rule after a decline; weekly allowance by plan (issue 19); 25/day and 100 pending (issue 13).';

/* The caller's contacts page (spec §2 /user/contacts).
   p_tab: 'contacts' (accepted), 'received' (pending, to me), 'sent' (pending, from me).
   p_search: case-insensitive part of the display name; p_limit 1..100 (20), p_offset >= 0.
   Rows: the contact row, the other person's public card (display name, slug, avatar path,
   headline, city), since = when accepted (contacts) or sent (requests), last_seen_at under the
   reciprocity rule, total = all matching rows. Blocked pairs never appear.
   Errors: 28000 not_authenticated, 22023 invalid_tab | invalid_paging. */
create or replace function public.my_contacts(p_tab text default 'contacts', p_search text default null,
                                              p_limit integer default 20, p_offset integer default 0)
returns table (
  contact_id bigint, user_id uuid, display_name text, slug text, profile_img text, headline text, city text,
  status public.contact_status, message text, since timestamptz, last_seen_at timestamptz, total bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  me uuid := auth.uid();
  v_term text := nullif(pg_catalog.btrim(coalesce(p_search, '')), '');
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if p_tab is null or p_tab not in ('contacts', 'received', 'sent') then
    raise exception using errcode = '22023', message = 'invalid_tab', detail = 'p_tab is contacts, received or sent.';
  end if;
  if coalesce(p_limit, 20) not between 1 and 100 or coalesce(p_offset, 0) < 0 then
    raise exception using errcode = '22023', message = 'invalid_paging', detail = 'p_limit 1..100, p_offset >= 0.';
  end if;
  return query
    with picked as (
      select c.id, case when c.requester_id = me then c.addressee_id else c.requester_id end as other,
             c.status, c.message, case when c.status = 'accepted' then coalesce(c.responded_at, c.created_at) else c.created_at end as since
      from public.contacts c
      where case p_tab
              when 'contacts' then c.status = 'accepted' and (c.requester_id = me or c.addressee_id = me)
              when 'received' then c.status = 'pending' and c.addressee_id = me
              else c.status = 'pending' and c.requester_id = me
            end
    )
    select r.id, p.id, private.display_name(p), p.slug, p.profile_img, p.headline, p.city, r.status, r.message, r.since,
           case when r.status = 'accepted' then private.visible_last_seen(p.id) end,
           pg_catalog.count(*) over ()
    from picked r
    join public.profiles p on p.id = r.other
    where not (p.id = any (private.hidden_user_ids()))
      and (v_term is null or pg_catalog.strpos(pg_catalog.lower(private.display_name(p)), pg_catalog.lower(v_term)) > 0)
    order by r.since desc, r.id desc
    limit coalesce(p_limit, 20) offset coalesce(p_offset, 0);
end;
$$;
comment on function public.my_contacts(text, text, integer, integer) is
  'Contacts page rows: accepted contacts or pending requests received/sent, with the other person''s public card (issue 13).';

/* Counts for the contacts page tabs and the navigation badge: pending requests received. */
create or replace function public.contact_request_count()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*)::integer from public.contacts c
  where c.addressee_id = auth.uid() and c.status = 'pending'
    and not (c.requester_id = any (private.hidden_user_ids()))
$$;
comment on function public.contact_request_count() is 'Pending contact requests the caller received (issue 13).';

/* The caller's contact-request allowance this week (issue 19):
   plan ('basic' | 'premium' | 'enterprise' | 'admin' | null without a plan),
   weekly_limit (null = no limit, 0 without a plan), used (requests sent this week),
   remaining (null = no limit), renews_at (next Monday 00:00 Europe/Berlin as an instant),
   renews_on (that Monday's date in Berlin).
   Errors: 28000 not_authenticated. */
create or replace function public.my_contact_request_allowance()
returns table (plan text, weekly_limit integer, used integer, remaining integer, renews_at timestamptz, renews_on date)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  v_start timestamptz := private.contact_week_start(pg_catalog.now());
  v_plan text;
  v_limit integer;
  v_used integer;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_plan := private.contact_request_plan(me);
  v_limit := private.weekly_contact_request_limit(v_plan);
  v_used := private.contact_requests_sent_since(me, v_start);
  return query select v_plan, v_limit, v_used, case when v_limit is null then null else greatest(v_limit - v_used, 0) end,
    v_start + interval '7 days', ((v_start + interval '7 days') at time zone 'Europe/Berlin')::date;
end;
$$;
comment on function public.my_contact_request_allowance() is
  'The caller''s weekly contact-request allowance: plan, limit, used, remaining, renewal (Monday 00:00 Europe/Berlin). Issue 19.';

/* A profile's response stats for its page (issue 19): one row with requests (decided requests
   received in the last 90 days), response_rate (0..1, two decimals) and median_response_hours
   (one decimal; null when none was answered), only when requests >= 5 and the caller may see
   the profile; otherwise no row. Only aggregates: nothing about who asked. */
create or replace function public.profile_response_stats(p_profile_id uuid)
returns table (requests integer, response_rate numeric, median_response_hours numeric)
language sql
stable
security definer
set search_path = ''
as $$
  select s.requests, pg_catalog.round(s.response_rate, 2), pg_catalog.round(s.median_response_hours, 1)
  from private.response_stats(p_profile_id) s
  where s.requests >= 5
    and private.can_see_profile(p_profile_id)
    and not private.is_suspended(p_profile_id)
$$;
comment on function public.profile_response_stats(uuid) is
  'Response rate and median response time (hours) over 90 days, shown from 5 decided requests on (issue 19).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.is_accepted_contact(uuid) to anon, authenticated, service_role;
grant execute on function private.shows_online_status(uuid),
  private.visible_last_seen(uuid),
  private.can_see_presence(uuid),
  private.contact_week_start(timestamp with time zone),
  private.contact_request_plan(uuid),
  private.weekly_contact_request_limit(text),
  private.contact_requests_sent_since(uuid, timestamp with time zone) to authenticated, service_role;
grant execute on function private.presence_topic(uuid) to anon, authenticated, service_role;
grant execute on function public.touch_presence(),
  public.presence_topic(uuid),
  public.send_contact_request(uuid, text),
  public.my_contacts(text, text, integer, integer),
  public.contact_request_count(),
  public.my_contact_request_allowance() to authenticated;
grant execute on function private.response_stats(uuid),
  private.responsiveness(uuid) to service_role;
grant execute on function public.profile_response_stats(uuid) to anon, authenticated;
