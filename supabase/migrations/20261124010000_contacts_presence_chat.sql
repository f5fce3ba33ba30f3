-- =============================================================================
-- Contacts, presence and chat: the conversation loop (issue 13; spec §1, §2, §6)
-- =============================================================================
-- * user_settings: "Show my online status" and the e-mail switches per kind (contact requests,
--   messages); a missing row means the defaults (all on).
-- * Contact requests go through send_contact_request (no direct INSERT any more): a note of at
--   most 500 characters, no request to hidden/suspended/blocked people, a declined requester may
--   not ask again for 30 days (PT409 declined_recently), at most 25 requests a day and 100
--   pending ones per requester (PT429 contact_request_limit). The addressee gets a Broadcast on
--   `user:<id>` at once and an e-mail through the queue (when confirmed and not switched off).
--   Answers: only pending -> accepted | declined, only by the addressee. A declined row stays as
--   the 30-day memory; the requester cannot delete it.
-- * A block removes the pending request between the two (the contacts policy already hides the
--   rest both ways).
-- * Presence: presence:user:<id> is readable only by accepted contacts when BOTH show their online
--   status (reciprocity) and writable only by the user while they show it. "Last seen" is kept by
--   touch_presence() (private.last_seen) and handed only to contacts under the same rule.
-- * Chat: only accepted contacts start a direct conversation (conversations and members are no
--   longer inserted directly); messages can be edited or deleted (soft: body emptied, deleted_at)
--   by the sender within 15 minutes; every insert and update is broadcast from the database to
--   the private topic conversation:<id> (members only, RLS on realtime.messages), and each
--   member's `user:<id>` gets an `inbox` ping so inbox and unread badges follow in every tab.
-- * Read receipts: mark_conversation_read() moves last_read_at and broadcasts `read`.
-- * Unread mail: every 5 minutes, members with messages unread for 15 minutes get one e-mail per
--   conversation and day (private.chat_mail_log), unless switched off.

-- -----------------------------------------------------------------------------
-- Settings
-- -----------------------------------------------------------------------------
create table public.user_settings (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  show_online_status boolean not null default true,
  email_contact_requests boolean not null default true,
  email_messages boolean not null default true,
  updated_at timestamptz not null default now()
);
comment on table public.user_settings is
  'Per-user privacy and notification switches (issue 13). No row = defaults (all true). Only the owner reads and writes.';
comment on column public.user_settings.show_online_status is
  'Show my online status: when false the user appears offline to everyone and sees no one''s presence or last seen (reciprocity).';
comment on column public.user_settings.email_contact_requests is 'E-mail when someone sends me a contact request.';
comment on column public.user_settings.email_messages is 'E-mail when chat messages stay unread for 15 minutes (at most one per conversation and day).';
create trigger user_settings_updated_at before update on public.user_settings
  for each row execute function private.set_updated_at();

alter table public.user_settings enable row level security;
revoke all on public.user_settings from anon, authenticated;
grant select (user_id, show_online_status, email_contact_requests, email_messages, updated_at) on public.user_settings to authenticated;
grant insert (user_id, show_online_status, email_contact_requests, email_messages) on public.user_settings to authenticated;
grant update (show_online_status, email_contact_requests, email_messages) on public.user_settings to authenticated;
grant all on public.user_settings to service_role;
create policy user_settings_select on public.user_settings for select to authenticated
using (user_id = (select auth.uid()));
create policy user_settings_insert on public.user_settings for insert to authenticated
with check (user_id = (select auth.uid()));
create policy user_settings_update on public.user_settings for update to authenticated
using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

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

/* Does p_user_id want e-mails of kind p_kind ('contact_requests' | 'messages')? */
create or replace function private.wants_email(p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select case p_kind when 'contact_requests' then s.email_contact_requests
                                      when 'messages' then s.email_messages end
                   from public.user_settings s where s.user_id = p_user_id), true)
$$;
comment on function private.wants_email(uuid, text) is 'E-mail switch of a user per kind, default true. Issue 13.';

-- -----------------------------------------------------------------------------
-- Presence: last seen
-- -----------------------------------------------------------------------------
create table private.last_seen (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  last_seen_at timestamptz not null
);
comment on table private.last_seen is 'When a user last had a tab open (touch_presence, about every minute). Read only through my_contacts / my_inbox under the reciprocity rule.';
-- no API role reads it: only the security-definer functions below (RLS on, no policy, as defence in depth)
alter table private.last_seen enable row level security;
revoke all on private.last_seen from public, anon, authenticated;

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
revoke all on function public.touch_presence() from public, anon;
grant execute on function public.touch_presence() to authenticated, service_role;

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

/* Realtime read authorisation (select on realtime.messages). */
create or replace function private.can_use_topic(p_topic text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  conv uuid;
  target uuid;
begin
  if auth.uid() is null or p_topic is null then
    return false;
  end if;
  if p_topic = 'user:' || auth.uid()::text then
    return true;
  end if;
  target := private.topic_user(p_topic, 'presence:user:');
  if target is not null then
    return private.can_see_presence(target);
  end if;
  conv := private.topic_user(p_topic, 'conversation:');
  if conv is not null then
    return private.is_conversation_member(conv, auth.uid()) and not private.conversation_has_block(conv);
  end if;
  return false;
end;
$$;
comment on function private.can_use_topic(text) is
  'Realtime read: user:<own id>; presence:user:<id> (self, accepted contacts when both show their status); conversation:<id> (members, no block). Issues 12, 13.';

/* Realtime write authorisation (insert on realtime.messages). */
create or replace function private.can_write_topic(p_topic text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  conv uuid;
begin
  if auth.uid() is null or p_topic is null then
    return false;
  end if;
  if p_topic = 'user:' || auth.uid()::text then
    return true;
  end if;
  if p_topic = 'presence:user:' || auth.uid()::text then
    return private.shows_online_status(auth.uid());
  end if;
  conv := private.topic_user(p_topic, 'conversation:');
  if conv is not null then
    return private.is_conversation_member(conv, auth.uid()) and not private.conversation_has_block(conv);
  end if;
  return false;
end;
$$;
comment on function private.can_write_topic(text) is
  'Realtime write: user:<own id>; presence:user:<own id> while showing the online status; conversation:<id> (members, no block). Issues 12, 13.';

grant execute on function private.shows_online_status(uuid), private.wants_email(uuid, text), private.visible_last_seen(uuid),
  private.can_see_presence(uuid), private.can_use_topic(text), private.can_write_topic(text) to authenticated, service_role;

/* Broadcast from Database to a private topic, when the Realtime schema exists. */
create or replace function private.broadcast(p_topic text, p_event text, p_payload jsonb)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if pg_catalog.to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
    execute 'select realtime.send($1, $2, $3, true)' using p_payload, p_event, p_topic;
  end if;
end;
$$;
comment on function private.broadcast(text, text, jsonb) is 'realtime.send to a private topic (no-op without Realtime). Issue 13.';
revoke all on function private.broadcast(text, text, jsonb) from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Contacts
-- -----------------------------------------------------------------------------
alter table public.contacts drop constraint if exists contacts_message_check;
update public.contacts set message = pg_catalog.left(message, 500) where char_length(message) > 500;
alter table public.contacts add constraint contacts_message_check check (char_length(message) <= 500);
comment on column public.contacts.message is 'Optional note sent with the request (up to 500 characters).';

-- Requests go through send_contact_request only.
revoke insert on public.contacts from authenticated;
drop policy contacts_insert on public.contacts;

/* Only the addressee answers, and only a pending request; nothing else changes. */
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
    if old.status <> 'pending' or new.status = 'pending' then
      raise exception using errcode = 'PT409', message = 'not_pending', detail = 'Only a pending request can be accepted or declined.';
    end if;
    new.responded_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_contact() is
  'BEFORE INSERT/UPDATE on contacts: no blocked pairs; only the addressee answers a pending request (issue 13).';

-- The requester cannot erase a decline (it is the 30-day memory); everything else may be removed
-- by either side (withdraw a request, remove a contact, clear a decline one made oneself).
drop policy contacts_delete on public.contacts;
create policy contacts_delete on public.contacts for delete to authenticated
using (
  ((requester_id = (select auth.uid()) and status <> 'declined') or addressee_id = (select auth.uid()))
  or (select private.is_admin())
);

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
revoke all on function private.notify_contact_request(public.contacts) from public, anon, authenticated;

/* Sends a contact request from the caller to p_addressee_id with an optional note.
   Returns the pair's status afterwards: 'pending', or 'accepted' when the addressee had already
   asked the caller (their request is accepted).
   Errors (HTTP status through PostgREST):
     28000 not_authenticated (403); PT402 payment_required (spec §6);
     22023 invalid_user_id | cannot_contact_self (400);
     PT404 user_not_found (404: unknown, suspended or not visible to the caller);
     P0001 blocked (400: a block either way);
     22001 note_too_long (400: more than 500 characters);
     PT409 already_contacts | request_pending (the caller's request is open) |
       declined_recently (declined less than 30 days ago; detail names the date it ends);
     PT429 contact_request_limit (25 requests in 24 hours or 100 pending). Issue 13. */
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

  -- one request at a time per pair
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    'contact:' || least(me, p_addressee_id)::text || greatest(me, p_addressee_id)::text, 0));
  select * into c from public.contacts
  where least(requester_id, addressee_id) = least(me, p_addressee_id)
    and greatest(requester_id, addressee_id) = greatest(me, p_addressee_id)
  for update;

  if found then
    if c.status = 'accepted' then
      raise exception using errcode = 'PT409', message = 'already_contacts', detail = 'You are already contacts.';
    end if;
    if c.status = 'pending' and c.requester_id = me then
      raise exception using errcode = 'PT409', message = 'request_pending', detail = 'Your request is waiting for an answer.';
    end if;
    if c.status = 'pending' then
      -- they asked first: asking back accepts
      update public.contacts set status = 'accepted', responded_at = pg_catalog.now() where id = c.id returning * into c;
      perform private.broadcast('user:' || c.requester_id::text, 'contact_accepted',
        pg_catalog.jsonb_build_object('contact_id', c.id, 'user_id', me));
      return c.status;
    end if;
    -- declined
    if c.requester_id = me and c.responded_at > pg_catalog.now() - interval '30 days' then
      v_until := c.responded_at + interval '30 days';
      raise exception using errcode = 'PT409', message = 'declined_recently',
        detail = 'This person declined your request. You can ask again from ' || pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD') || '.',
        hint = pg_catalog.to_char(v_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
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
  'Contact request with an optional note (≤ 500); 30-day rule after a decline; 25/day and 100 pending per requester (issue 13).';
revoke all on function public.send_contact_request(uuid, text) from public, anon;
grant execute on function public.send_contact_request(uuid, text) to authenticated, service_role;

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
revoke all on function public.my_contacts(text, text, integer, integer) from public, anon;
grant execute on function public.my_contacts(text, text, integer, integer) to authenticated, service_role;

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
revoke all on function public.contact_request_count() from public, anon;
grant execute on function public.contact_request_count() to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Chat: only contacts start a conversation
-- -----------------------------------------------------------------------------
revoke insert on public.conversations, public.conversation_members from authenticated;
drop policy conversations_insert on public.conversations;
drop policy conversation_members_insert on public.conversation_members;
-- last_read_at moves through mark_conversation_read (it also broadcasts the read receipt)
revoke update on public.conversation_members from authenticated;
drop policy conversation_members_update on public.conversation_members;

/* Opens (or reuses) the direct conversation between the caller and p_other_user_id, who must be
   an accepted contact (issue 13: strangers cannot start one). Errors (HTTP through PostgREST):
   28000 not_authenticated (403); 22023 invalid_user_id | cannot_message_self (400); PT402
   payment_required; P0001 blocked (400); PT404 user_not_found (unknown, suspended, hidden; 404);
   PT403 not_a_contact (403). */
create or replace function private.start_direct_conversation(p_other_user_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  conv uuid;
begin
  if me is null or not private.caller_can_write() then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if p_other_user_id is null then
    raise exception using errcode = '22023', message = 'invalid_user_id', detail = 'p_other_user_id is required.';
  end if;
  if p_other_user_id = me then
    raise exception using errcode = '22023', message = 'cannot_message_self', detail = 'A direct conversation needs another person.';
  end if;
  if not private.has_paid_access(me) then
    raise exception using errcode = 'PT402', message = 'payment_required',
      detail = 'An active paid subscription is required for this (spec §6).';
  end if;
  if private.is_blocked(me, p_other_user_id) then
    raise exception using errcode = 'P0001', message = 'blocked';
  end if;
  if not exists (select 1 from public.profiles where id = p_other_user_id)
     or private.is_suspended(p_other_user_id)
     or not private.can_see_profile(p_other_user_id) then
    raise exception using errcode = 'PT404', message = 'user_not_found', detail = 'No such person.';
  end if;
  if not private.is_accepted_contact(p_other_user_id) then
    raise exception using errcode = 'PT403', message = 'not_a_contact', detail = 'Only contacts can start a conversation.';
  end if;
  -- serialise concurrent starts for the same pair
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(
    least(me, p_other_user_id)::text || greatest(me, p_other_user_id)::text, 0));
  select c.id into conv
  from public.conversations c
  join public.conversation_members a on a.conversation_id = c.id and a.user_id = me
  join public.conversation_members b on b.conversation_id = c.id and b.user_id = p_other_user_id
  where c.kind = 'direct'
  limit 1;
  if conv is null then
    insert into public.conversations (kind, created_by) values ('direct', me) returning id into conv;
    insert into public.conversation_members (conversation_id, user_id, role, last_read_at)
    values (conv, me, 'owner', pg_catalog.now()), (conv, p_other_user_id, 'member', null);
  end if;
  return conv;
end;
$$;
comment on function private.start_direct_conversation(uuid) is 'Implementation of public.start_direct_conversation (contacts only, issue 13).';
comment on function public.start_direct_conversation(uuid) is
  'Opens or reuses the direct chat with an accepted contact; errors 28000 not_authenticated, 22023 cannot_message_self/invalid_user_id, PT402 payment_required, P0001 blocked, PT404 user_not_found, PT403 not_a_contact.';

-- -----------------------------------------------------------------------------
-- Messages: edit and delete within 15 minutes, one optional attachment (its bucket, storage
-- policies and checks: 20261124010100_chat_attachments), broadcast from the database
-- -----------------------------------------------------------------------------
alter table public.messages add column deleted_at timestamptz;
comment on column public.messages.deleted_at is 'Set when the sender deletes the message (body emptied); shown as "deleted".';
alter table public.messages drop constraint if exists messages_body_check;
alter table public.messages
  add column attachment_path text check (char_length(attachment_path) <= 400),
  add column attachment_name text check (char_length(attachment_name) between 1 and 200),
  add column attachment_type text check (attachment_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf')),
  add column attachment_size integer check (attachment_size between 1 and 10485760);
comment on column public.messages.attachment_path is 'Object name in the private bucket chat-attachments (<conversation>/<sender>/<file>), or null.';
comment on column public.messages.attachment_name is 'File name shown to the members.';
comment on column public.messages.attachment_type is 'Content type of the stored object (set by the database from storage).';
comment on column public.messages.attachment_size is 'Size of the stored object in bytes (set by the database from storage).';

alter table public.messages add constraint messages_body_check check (
  (deleted_at is not null and body = '' and attachment_path is null)
  or (deleted_at is null and char_length(body) <= 5000
      and (char_length(pg_catalog.btrim(body)) >= 1 or (attachment_path is not null and body = '')))
);
alter table public.messages add constraint messages_attachment_complete check (
  (attachment_path is null and attachment_name is null and attachment_type is null and attachment_size is null)
  or (attachment_path is not null and attachment_name is not null and attachment_type is not null and attachment_size is not null)
);

grant select (attachment_path, attachment_name, attachment_type, attachment_size) on public.messages to authenticated;
grant insert (attachment_path, attachment_name) on public.messages to authenticated;

create index messages_created_idx on public.messages (created_at);
create index messages_conversation_id_idx on public.messages (conversation_id, id);

grant select (deleted_at) on public.messages to authenticated;
grant update (deleted_at) on public.messages to authenticated;
revoke delete on public.messages from authenticated;
drop policy messages_delete on public.messages;

/* BEFORE UPDATE on messages (API callers): also keeps the attachment; a delete drops it. */
create or replace function private.guard_message()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if private.is_privileged() then
    return new;
  end if;
  if new.conversation_id <> old.conversation_id or new.sender_id is distinct from old.sender_id
     or new.created_at <> old.created_at or new.edited_at is distinct from old.edited_at
     or new.attachment_path is distinct from old.attachment_path or new.attachment_name is distinct from old.attachment_name
     or new.attachment_type is distinct from old.attachment_type or new.attachment_size is distinct from old.attachment_size then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Only the body of a message can be edited.';
  end if;
  if old.deleted_at is not null then
    raise exception using errcode = 'PT409', message = 'message_deleted', detail = 'A deleted message cannot change.';
  end if;
  if old.created_at < pg_catalog.now() - interval '15 minutes' then
    raise exception using errcode = 'PT403', message = 'edit_window_closed', detail = 'Messages can be edited or deleted for 15 minutes.';
  end if;
  if new.deleted_at is not null then
    new.deleted_at := pg_catalog.now();
    new.body := '';
    new.attachment_path := null;
    new.attachment_name := null;
    new.attachment_type := null;
    new.attachment_size := null;
    return new;
  end if;
  if new.body <> old.body then
    new.edited_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_message() is
  'BEFORE UPDATE on messages: own body edits and soft deletes (dropping the attachment) within 15 minutes (issue 13).';

/* The message as broadcast to conversation:<id> (same shape as a row of public.messages). */
create or replace function private.message_json(m public.messages)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object('id', m.id, 'conversation_id', m.conversation_id, 'sender_id', m.sender_id,
    'body', m.body, 'created_at', m.created_at, 'edited_at', m.edited_at, 'deleted_at', m.deleted_at,
    'attachment_path', m.attachment_path, 'attachment_name', m.attachment_name,
    'attachment_type', m.attachment_type, 'attachment_size', m.attachment_size)
$$;

/* AFTER INSERT OR UPDATE on messages: last_message_at, Broadcast `message` to conversation:<id>,
   `inbox` to every member's user:<id>. */
create or replace function private.after_message_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  member uuid;
begin
  if tg_op = 'INSERT' then
    update public.conversations set last_message_at = new.created_at where id = new.conversation_id;
  end if;
  perform private.broadcast('conversation:' || new.conversation_id::text,
    case when tg_op = 'INSERT' then 'message_created' else 'message_updated' end, private.message_json(new));
  for member in select user_id from public.conversation_members where conversation_id = new.conversation_id loop
    perform private.broadcast('user:' || member::text, 'inbox',
      pg_catalog.jsonb_build_object('conversation_id', new.conversation_id, 'message_id', new.id));
  end loop;
  return null;
end;
$$;
comment on function private.after_message_insert() is
  'AFTER INSERT/UPDATE on messages: last_message_at, Broadcast from Database to conversation:<id> and members'' user:<id> (issue 13).';
drop trigger messages_after_insert on public.messages;
create trigger messages_after_insert after insert on public.messages
  for each row execute function private.after_message_insert();
create trigger messages_after_update after update of body, deleted_at on public.messages
  for each row execute function private.after_message_insert();

/* Marks the caller's conversation read up to now: last_read_at, Broadcast `read` (receipt) to the
   conversation and `inbox` to the caller's other tabs. Returns the new last_read_at.
   Errors: 28000 not_authenticated, PT404 conversation_not_found (not a member; 404). */
create or replace function public.mark_conversation_read(p_conversation_id uuid)
returns timestamptz
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_at timestamptz;
begin
  if auth.uid() is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  update public.conversation_members
  set last_read_at = greatest(coalesce(last_read_at, '-infinity'::timestamptz), pg_catalog.now())
  where conversation_id = p_conversation_id and user_id = auth.uid()
  returning last_read_at into v_at;
  if not found then
    raise exception using errcode = 'PT404', message = 'conversation_not_found';
  end if;
  if not private.conversation_has_block(p_conversation_id) then
    perform private.broadcast('conversation:' || p_conversation_id::text, 'read',
      pg_catalog.jsonb_build_object('user_id', auth.uid(), 'last_read_at', v_at));
  end if;
  perform private.broadcast('user:' || auth.uid()::text, 'inbox', pg_catalog.jsonb_build_object('conversation_id', p_conversation_id));
  return v_at;
end;
$$;
comment on function public.mark_conversation_read(uuid) is 'Read receipt: last_read_at = now and broadcasts (issue 13).';
revoke all on function public.mark_conversation_read(uuid) from public, anon;
grant execute on function public.mark_conversation_read(uuid) to authenticated, service_role;

/* The caller's inbox, most recent activity first. p_limit 1..100 (30), p_offset >= 0.
   A conversation with a blocked person (either way) or a suspended one does not appear.
   Rows: conversation, the other member's public card and last seen (reciprocity rule), the last
   message (excerpt of at most 140 characters, empty when deleted), unread = messages of others
   after my last_read_at, the other member's last_read_at (read receipts), total.
   Errors: 28000 not_authenticated, 22023 invalid_paging. */
create or replace function public.my_inbox(p_limit integer default 30, p_offset integer default 0)
returns table (
  conversation_id uuid, other_user_id uuid, display_name text, slug text, profile_img text,
  last_seen_at timestamptz, last_message_id bigint, last_sender_id uuid, last_body text, last_deleted boolean,
  last_message_at timestamptz, unread integer, other_last_read_at timestamptz, total bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  if coalesce(p_limit, 30) not between 1 and 100 or coalesce(p_offset, 0) < 0 then
    raise exception using errcode = '22023', message = 'invalid_paging', detail = 'p_limit 1..100, p_offset >= 0.';
  end if;
  return query
    select c.id, o.user_id, private.display_name(p), p.slug, p.profile_img, private.visible_last_seen(o.user_id),
           lm.id, lm.sender_id, pg_catalog.left(lm.body, 140), lm.deleted_at is not null,
           coalesce(c.last_message_at, c.created_at),
           (select pg_catalog.count(*)::integer from public.messages m
            where m.conversation_id = c.id and m.sender_id is distinct from me and m.deleted_at is null
              and m.created_at > coalesce(mine.last_read_at, '-infinity'::timestamptz)),
           o.last_read_at,
           pg_catalog.count(*) over ()
    from public.conversation_members mine
    join public.conversations c on c.id = mine.conversation_id
    left join lateral (select x.user_id, x.last_read_at from public.conversation_members x
                       where x.conversation_id = c.id and x.user_id <> me order by x.joined_at limit 1) o on true
    left join public.profiles p on p.id = o.user_id
    left join lateral (select m.id, m.sender_id, m.body, m.deleted_at from public.messages m
                       where m.conversation_id = c.id order by m.created_at desc, m.id desc limit 1) lm on true
    where mine.user_id = me
      and (o.user_id is null or not (o.user_id = any (private.hidden_user_ids())))
    order by coalesce(c.last_message_at, c.created_at) desc, c.id
    limit coalesce(p_limit, 30) offset coalesce(p_offset, 0);
end;
$$;
comment on function public.my_inbox(integer, integer) is 'Chat inbox rows with last message and unread count (issue 13).';
revoke all on function public.my_inbox(integer, integer) from public, anon;
grant execute on function public.my_inbox(integer, integer) to authenticated, service_role;

/* Unread messages over all of the caller's visible conversations (header badge, tab title). */
create or replace function public.unread_message_total()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.sum((
           select pg_catalog.count(*) from public.messages m
           where m.conversation_id = mine.conversation_id and m.sender_id is distinct from auth.uid() and m.deleted_at is null
             and m.created_at > coalesce(mine.last_read_at, '-infinity'::timestamptz)
             and not coalesce(m.sender_id = any (private.hidden_user_ids()), false))), 0)::integer
  from public.conversation_members mine
  where mine.user_id = auth.uid()
    and not exists (select 1 from public.conversation_members o
                    where o.conversation_id = mine.conversation_id and o.user_id <> auth.uid()
                      and o.user_id = any (private.hidden_user_ids()))
$$;
comment on function public.unread_message_total() is 'Unread chat messages of the caller (issue 13).';
revoke all on function public.unread_message_total() from public, anon;
grant execute on function public.unread_message_total() to authenticated, service_role;

/* One conversation for its page: the other member's card, last seen (reciprocity), their
   last_read_at (receipts), my last_read_at, whether I can write (no block, not suspended).
   Errors: 28000 not_authenticated, PT404 conversation_not_found (not a member, or hidden by a block; 404). */
create or replace function public.conversation_info(p_conversation_id uuid)
returns table (
  conversation_id uuid, other_user_id uuid, display_name text, slug text, profile_img text,
  last_seen_at timestamptz, other_last_read_at timestamptz, my_last_read_at timestamptz, can_write boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  return query
    select c.id, o.user_id, private.display_name(p), p.slug, p.profile_img, private.visible_last_seen(o.user_id),
           o.last_read_at, mine.last_read_at,
           private.caller_can_write() and private.has_paid_access(me) and not private.conversation_has_block(c.id)
             and (o.user_id is null or not private.is_suspended(o.user_id))
    from public.conversation_members mine
    join public.conversations c on c.id = mine.conversation_id
    left join lateral (select x.user_id, x.last_read_at from public.conversation_members x
                       where x.conversation_id = c.id and x.user_id <> me order by x.joined_at limit 1) o on true
    left join public.profiles p on p.id = o.user_id
    where mine.user_id = me and c.id = p_conversation_id
      and (o.user_id is null or not (o.user_id = any (private.hidden_user_ids())));
  if not found then
    raise exception using errcode = 'PT404', message = 'conversation_not_found';
  end if;
end;
$$;
comment on function public.conversation_info(uuid) is 'Conversation header data for a member (issue 13).';
revoke all on function public.conversation_info(uuid) from public, anon;
grant execute on function public.conversation_info(uuid) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- E-mails: contact request, unread messages
-- -----------------------------------------------------------------------------
insert into public.email_types (key, description) values
  ('contact_request', 'Someone sent a contact request (issue 13).'),
  ('chat_unread', 'Chat messages unread for 15 minutes; at most one per conversation and day (issue 13).')
on conflict (key) do nothing;

insert into public.email_templates (key, lang, subject, body) values
('contact_request', 'de', '{{requester_name}} möchte sich mit Ihnen vernetzen',
$t$Hallo {{firstname}},

{{requester_name}} hat Ihnen auf Teamwerk eine Kontaktanfrage geschickt:

{{note}}

Sie können die Anfrage annehmen oder ablehnen:

{{link}}

Diese Benachrichtigungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('contact_request', 'en', '{{requester_name}} wants to connect with you',
$t$Hi {{firstname}},

{{requester_name}} sent you a contact request on Teamwerk:

{{note}}

You can accept or decline the request:

{{link}}

Unsubscribe from these notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$),
('chat_unread', 'de', 'Neue Nachricht von {{sender_name}}',
$t$Hallo {{firstname}},

{{sender_name}} hat Ihnen auf Teamwerk geschrieben. Ungelesene Nachrichten in diesem Chat: {{count}}.

{{link}}

Diese Benachrichtigungen mit einem Klick abbestellen: {{unsubscribe_link}}

Viele Grüße
Ihr Teamwerk-Team$t$),
('chat_unread', 'en', 'New message from {{sender_name}}',
$t$Hi {{firstname}},

{{sender_name}} wrote to you on Teamwerk. Unread messages in this chat: {{count}}.

{{link}}

Unsubscribe from these notifications with one click: {{unsubscribe_link}}

Best regards
The Teamwerk team$t$)
on conflict (key, lang) do update set subject = excluded.subject, body = excluded.body;

create table private.chat_mail_log (
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  sent_on date not null,
  primary key (conversation_id, user_id, sent_on)
);
comment on table private.chat_mail_log is 'Unread-message mails sent, one per conversation, recipient and day (issue 13).';
alter table private.chat_mail_log enable row level security;
revoke all on private.chat_mail_log from public, anon, authenticated;

/* Queues the unread-message mails (cron every 5 minutes): for each member with messages from
   others unread for at least 15 minutes (sent in the last 2 days, not deleted, not from a blocked
   or suspended sender), confirmed and not switched off, at most one mail per conversation and
   day (Europe/Berlin). Returns the number of mails queued. */
create or replace function private.queue_unread_message_mails()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  n integer := 0;
  v_day date := (pg_catalog.now() at time zone 'Europe/Berlin')::date;
begin
  for r in
    select cm.conversation_id, p.id as user_id, p.email, p.preferred_language, p.firstname, p.lastname,
           pg_catalog.count(*) as unread,
           (pg_catalog.array_agg(m.sender_id order by m.created_at desc))[1] as last_sender
    from public.messages m
    join public.conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id is distinct from m.sender_id
    join public.profiles p on p.id = cm.user_id
    where m.created_at > pg_catalog.now() - interval '2 days'
      and m.deleted_at is null
      and m.created_at > coalesce(cm.last_read_at, '-infinity'::timestamptz)
      and p.authenticated = 1
      and not private.is_suspended(p.id)
      and not private.is_suspended(m.sender_id)
      and not private.is_blocked(m.sender_id, p.id)
      and private.wants_email(p.id, 'messages')
      and not exists (select 1 from private.chat_mail_log l
                      where l.conversation_id = cm.conversation_id and l.user_id = p.id and l.sent_on = v_day)
    group by cm.conversation_id, p.id
    having pg_catalog.min(m.created_at) <= pg_catalog.now() - interval '15 minutes'
  loop
    insert into private.chat_mail_log (conversation_id, user_id, sent_on) values (r.conversation_id, r.user_id, v_day)
    on conflict do nothing;
    if found then
      perform private.enqueue_email(r.user_id, r.email, 'chat_unread', r.preferred_language,
        pg_catalog.jsonb_build_object('firstname', r.firstname, 'lastname', r.lastname),
        pg_catalog.jsonb_build_object(
          'sender_name', (select private.display_name(s) from public.profiles s where s.id = r.last_sender),
          'count', r.unread,
          'path', '/user/chat/' || r.conversation_id::text,
          'settings_path', '/user/settings'));
      n := n + 1;
    end if;
  end loop;
  return n;
end;
$$;
comment on function private.queue_unread_message_mails() is
  'Cron (every 5 minutes): one unread-message mail per conversation, recipient and day after 15 minutes unread (issue 13).';
revoke all on function private.queue_unread_message_mails() from public, anon, authenticated;

do $$
begin
  if exists (select 1 from pg_catalog.pg_namespace where nspname = 'cron') then
    perform cron.schedule('queue-unread-message-mails', '*/5 * * * *', 'select private.queue_unread_message_mails()');
  end if;
end;
$$;
