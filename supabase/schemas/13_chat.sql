-- =============================================================================
-- Chat: conversations, members, messages, attachments and unread mails (spec §1 chat;
-- issues 4 and 13)
-- =============================================================================
-- Only accepted contacts start a direct conversation (start_direct_conversation; conversations
-- and members are not inserted directly); messages can be edited or deleted (soft: body emptied,
-- deleted_at) by the sender within 15 minutes; every insert and update is broadcast from the
-- database to the private topic conversation:<id> (members only, RLS on realtime.messages in
-- 23_realtime.sql), and each member's `user:<id>` gets an `inbox` ping so inbox and unread
-- badges follow in every tab. Read receipts: mark_conversation_read() moves last_read_at and
-- broadcasts `read`. Unread mail: every 5 minutes, members with messages unread for 15 minutes
-- get one e-mail per conversation and day (private.chat_mail_log), unless switched off.
-- Attachments (images and PDFs up to 10 MB) live in the private bucket chat-attachments; its
-- storage policies (22_storage.sql) ask private.can_read_chat_attachment and
-- private.can_write_chat_attachment.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.conversation_kind as enum ('direct', 'group');

create type public.member_role as enum ('owner', 'member');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  kind public.conversation_kind not null default 'direct',
  title text check (char_length(title) <= 140),
  created_by uuid references public.profiles (id) on delete set null,
  last_message_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.conversations is
  'A chat between members. Realtime topic for broadcasts and presence: ''conversation:<id>'' (private channel).';
comment on column public.conversations.title is 'Only for group conversations.';
comment on column public.conversations.last_message_at is 'Maintained by the message trigger; sorts the inbox.';
create index conversations_created_by_idx on public.conversations (created_by);
create index conversations_last_message_idx on public.conversations (last_message_at desc nulls last);
alter table public.conversations enable row level security;
revoke all on public.conversations from anon, authenticated;
grant select (id, kind, title, created_by, last_message_at, created_at, updated_at)
  on public.conversations to authenticated;
grant update (title) on public.conversations to authenticated;
grant delete on public.conversations to authenticated;

create table public.conversation_members (
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role public.member_role not null default 'member',
  joined_at timestamptz not null default now(),
  last_read_at timestamptz,
  primary key (conversation_id, user_id)
);
comment on table public.conversation_members is 'Who takes part in a conversation.';
comment on column public.conversation_members.last_read_at is 'Messages after this time count as unread.';
create index conversation_members_user_idx on public.conversation_members (user_id);
alter table public.conversation_members enable row level security;
revoke all on public.conversation_members from anon, authenticated;
grant select (conversation_id, user_id, role, joined_at, last_read_at)
  on public.conversation_members to authenticated;
grant delete on public.conversation_members to authenticated;

create table public.messages (
  id bigint generated always as identity primary key,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  sender_id uuid references public.profiles (id) on delete set null,
  body text not null,
  created_at timestamptz not null default now(),
  edited_at timestamptz,
  deleted_at timestamptz,
  attachment_path text check (char_length(attachment_path) <= 400),
  attachment_name text check (char_length(attachment_name) between 1 and 200),
  attachment_type text check (attachment_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf')),
  attachment_size integer check (attachment_size between 1 and 10485760),
  client_id uuid,
  constraint messages_body_check check (
    (deleted_at is not null and body = '' and attachment_path is null)
    or (deleted_at is null and char_length(body) <= 5000
        and (char_length(pg_catalog.btrim(body)) >= 1 or (attachment_path is not null and body = '')))
  ),
  constraint messages_attachment_complete check (
    (attachment_path is null and attachment_name is null and attachment_type is null and attachment_size is null)
    or (attachment_path is not null and attachment_name is not null and attachment_type is not null and attachment_size is not null)
  )
);
comment on table public.messages is 'Chat messages; broadcast to conversation:<id> (Broadcast from Database), never published for postgres_changes.';
comment on column public.messages.edited_at is 'Set when the sender edits the body.';
comment on column public.messages.deleted_at is 'Set when the sender deletes the message (body emptied); shown as "deleted".';
comment on column public.messages.attachment_path is 'Object name in the private bucket chat-attachments (<conversation>/<sender>/<file>), or null.';
comment on column public.messages.attachment_name is 'File name shown to the members.';
comment on column public.messages.attachment_type is 'Content type of the stored object (set by the database from storage).';
comment on column public.messages.attachment_size is 'Size of the stored object in bytes (set by the database from storage).';
comment on column public.messages.client_id is
  'Set by the sending client once per message; unique per sender, so a retried send cannot store the message twice (issue 17).';
create index messages_conversation_idx on public.messages (conversation_id, created_at desc, id desc);
create index messages_sender_idx on public.messages (sender_id, created_at);
create index messages_created_idx on public.messages (created_at);
create index messages_conversation_id_idx on public.messages (conversation_id, id);
create unique index messages_sender_client_id_key on public.messages (sender_id, client_id) where client_id is not null;
alter table public.messages enable row level security;
revoke all on public.messages from anon, authenticated;
grant select (id, conversation_id, sender_id, body, created_at, edited_at, deleted_at, attachment_path,
              attachment_name, attachment_type, attachment_size, client_id)
  on public.messages to authenticated;
grant insert (conversation_id, sender_id, body, attachment_path, attachment_name, client_id)
  on public.messages to authenticated;
grant update (body, deleted_at) on public.messages to authenticated;
-- Not in the publication supabase_realtime (23_realtime.sql): hosted Realtime sends every DELETE of
-- a published table to all its subscribers, and the SPA reads messages through Broadcast only.

create table private.chat_mail_log (
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  sent_on date not null,
  primary key (conversation_id, user_id, sent_on)
);
comment on table private.chat_mail_log is 'Unread-message mails sent, one per conversation, recipient and day (issue 13).';
alter table private.chat_mail_log enable row level security;
revoke all on private.chat_mail_log from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

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
create trigger messages_after_insert after insert on public.messages
  for each row execute function private.after_message_insert();
create trigger messages_after_update after update of body, deleted_at on public.messages
  for each row execute function private.after_message_insert();

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
create trigger messages_guard before update on public.messages
  for each row execute function private.guard_message();

/* BEFORE INSERT on messages: an attachment must be an existing object in the sender's folder of
   this conversation; type and size come from the stored object. Errors 22023 invalid_attachment. */
create or replace function private.check_message_attachment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  o record;
begin
  if new.attachment_path is null then
    new.attachment_name := null;
    new.attachment_type := null;
    new.attachment_size := null;
    return new;
  end if;
  if pg_catalog.split_part(new.attachment_path, '/', 1) <> new.conversation_id::text
     or pg_catalog.split_part(new.attachment_path, '/', 2) <> coalesce(new.sender_id::text, '') then
    raise exception using errcode = '22023', message = 'invalid_attachment', detail = 'The file must be uploaded into your folder of this conversation.';
  end if;
  select (metadata ->> 'size')::bigint as size, metadata ->> 'mimetype' as mimetype into o
  from storage.objects where bucket_id = 'chat-attachments' and name = new.attachment_path;
  if not found then
    raise exception using errcode = '22023', message = 'invalid_attachment', detail = 'The file was not uploaded.';
  end if;
  new.attachment_type := o.mimetype;
  new.attachment_size := o.size;
  new.attachment_name := coalesce(nullif(pg_catalog.btrim(new.attachment_name), ''), pg_catalog.regexp_replace(new.attachment_path, '^.*/', ''));
  if char_length(new.attachment_name) > 200 then
    new.attachment_name := pg_catalog.left(new.attachment_name, 200);
  end if;
  return new;
end;
$$;
comment on function private.check_message_attachment() is 'BEFORE INSERT on messages: attachment path, type and size from storage (issue 13).';
create trigger messages_check_attachment before insert on public.messages
  for each row execute function private.check_message_attachment();
create trigger conversations_updated_at before update on public.conversations
  for each row execute function private.set_updated_at();
create trigger conversations_paid_access before insert on public.conversations
  for each row execute function private.require_paid_access();
create trigger conversation_members_paid_access before insert on public.conversation_members
  for each row execute function private.require_paid_access();
create trigger messages_paid_access before insert on public.messages
  for each row execute function private.require_paid_access();

/* Messages per sender and minute: a person typing never sends this many; a script that floods a
   contact's inbox is stopped (issue 31 §9). */
create or replace function private.limit_message_rate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limit constant integer := 30;
  v_recent integer;
begin
  if auth.uid() is null then
    return new; -- the service role (system messages, tests)
  end if;
  -- one sender's inserts one after the other, so parallel requests cannot slip past the count
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('messages:' || new.sender_id::text));
  select count(*) into v_recent from public.messages m
  where m.sender_id = new.sender_id and m.created_at > pg_catalog.clock_timestamp() - interval '1 minute';
  if v_recent >= v_limit then
    raise exception using errcode = 'PT429', message = 'rate_limited',
      detail = pg_catalog.format('Too many messages: at most %s per minute.', v_limit),
      hint = 'retry_after=60';
  end if;
  return new;
end;
$$;
comment on function private.limit_message_rate() is
  'BEFORE INSERT on messages: at most 30 messages per sender and minute, else PT429 rate_limited (HTTP 429; issue 31 §9).';
create trigger messages_sender_rate_limit before insert on public.messages
  for each row execute function private.limit_message_rate();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- The helpers of the message path (policies, triggers) are PL/pgSQL: a SQL function with
-- `set search_path` is never inlined and is planned again on every call, PL/pgSQL keeps its plans
-- per session (issue 34: planning was most of a message insert).
create or replace function private.is_conversation_member(p_conversation_id uuid, p_user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return p_user_id is not null and exists (
    select 1 from public.conversation_members where conversation_id = p_conversation_id and user_id = p_user_id);
end;
$$;
comment on function private.is_conversation_member(uuid, uuid) is 'Membership test for policies.';

-- True when the caller shares the conversation with someone they blocked or who blocked them:
-- then nobody in it can write (direct chats of blocked users go silent).
create or replace function private.conversation_has_block(p_conversation_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  return exists (
    select 1 from public.conversation_members m
    where m.conversation_id = p_conversation_id and m.user_id <> me
      and private.is_blocked(m.user_id, me));
end;
$$;
comment on function private.conversation_has_block(uuid) is 'Caller is in a block relation with another member.';

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

/* The message as broadcast to conversation:<id> (same shape as a row of public.messages). */
create or replace function private.message_json(m public.messages)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return pg_catalog.jsonb_build_object('id', m.id, 'conversation_id', m.conversation_id, 'sender_id', m.sender_id,
    'body', m.body, 'created_at', m.created_at, 'edited_at', m.edited_at, 'deleted_at', m.deleted_at,
    'attachment_path', m.attachment_path, 'attachment_name', m.attachment_name,
    'attachment_type', m.attachment_type, 'attachment_size', m.attachment_size);
end;
$$;

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

/* The conversation of a chat attachment's object name (first folder), or null. */
create or replace function private.attachment_conversation(p_name text)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  return pg_catalog.split_part(p_name, '/', 1)::uuid;
exception when invalid_text_representation then
  return null;
end;
$$;
comment on function private.attachment_conversation(text) is 'uuid of the first folder of a chat-attachments object name, or null (issue 13).';

/* May the caller read this chat-attachments object? (member of its conversation, no block) */
create or replace function private.can_read_chat_attachment(p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select auth.uid() is not null
    and private.is_conversation_member(private.attachment_conversation(p_name), auth.uid())
    and not private.conversation_has_block(private.attachment_conversation(p_name))
$$;
comment on function private.can_read_chat_attachment(text) is 'Storage read rule of chat-attachments (issue 13).';

/* May the caller upload this chat-attachments object? (own folder, member, no block, paid) */
create or replace function private.can_write_chat_attachment(p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select auth.uid() is not null
    and pg_catalog.split_part(p_name, '/', 2) = auth.uid()::text
    and private.caller_can_write()
    and private.has_paid_access(auth.uid())
    and private.is_conversation_member(private.attachment_conversation(p_name), auth.uid())
    and not private.conversation_has_block(private.attachment_conversation(p_name))
$$;
comment on function private.can_write_chat_attachment(text) is 'Storage upload rule of chat-attachments (issue 13).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy conversations_select on public.conversations for select to authenticated
using (private.is_conversation_member(id, (select auth.uid())) or created_by = (select auth.uid()) or (select private.is_admin()));
-- A block stops every write to a shared conversation; a conversation holds the other person's
-- messages too, so only admins delete one (members leave it: conversation_members_delete).
-- Issue 31 §5.
create policy conversations_update on public.conversations for update to authenticated
using (created_by = (select auth.uid()) and (select private.caller_can_write()) and not private.conversation_has_block(id))
with check (created_by = (select auth.uid()));
create policy conversations_delete on public.conversations for delete to authenticated
using ((select private.is_admin()));
create policy conversation_members_select on public.conversation_members for select to authenticated
using (private.is_conversation_member(conversation_id, (select auth.uid())) or (select private.is_admin()));
create policy conversation_members_delete on public.conversation_members for delete to authenticated
using (user_id = (select auth.uid()));
-- Members read the conversation, except messages of someone in a block relation with them.
create policy messages_select on public.messages for select to authenticated
using (
  (private.is_conversation_member(conversation_id, (select auth.uid()))
   and not coalesce(sender_id = any ((select private.hidden_user_ids())::uuid[]), false))
  or (select private.is_admin())
);
create policy messages_insert on public.messages for insert to authenticated
with check (
  sender_id = (select auth.uid())
  and (select private.caller_can_write())
  and private.is_conversation_member(conversation_id, (select auth.uid()))
  and not private.conversation_has_block(conversation_id)
);
create policy messages_update on public.messages for update to authenticated
using (sender_id = (select auth.uid()) and (select private.caller_can_write()) and not private.conversation_has_block(conversation_id))
with check (sender_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* API: direct conversation with another user (reused when it exists). Returns its id. */
create or replace function public.start_direct_conversation(p_other_user_id uuid)
returns uuid
language sql
volatile
set search_path = ''
as $$
  select private.start_direct_conversation(p_other_user_id)
$$;
comment on function public.start_direct_conversation(uuid) is
  'Opens or reuses the direct chat with an accepted contact; errors 28000 not_authenticated, 22023 cannot_message_self/invalid_user_id, PT402 payment_required, P0001 blocked, PT404 user_not_found, PT403 not_a_contact.';

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
  if private.conversation_has_block(p_conversation_id) then
    -- a block stops every write to the conversation, read receipts included (issue 31 §5)
    select m.last_read_at into v_at from public.conversation_members m
    where m.conversation_id = p_conversation_id and m.user_id = auth.uid();
    if not found then
      raise exception using errcode = 'PT404', message = 'conversation_not_found';
    end if;
    return v_at;
  end if;
  update public.conversation_members
  set last_read_at = greatest(coalesce(last_read_at, '-infinity'::timestamptz), pg_catalog.now())
  where conversation_id = p_conversation_id and user_id = auth.uid()
  returning last_read_at into v_at;
  if not found then
    raise exception using errcode = 'PT404', message = 'conversation_not_found';
  end if;
  perform private.broadcast('conversation:' || p_conversation_id::text, 'read',
    pg_catalog.jsonb_build_object('user_id', auth.uid(), 'last_read_at', v_at));
  perform private.broadcast('user:' || auth.uid()::text, 'inbox', pg_catalog.jsonb_build_object('conversation_id', p_conversation_id));
  return v_at;
end;
$$;
comment on function public.mark_conversation_read(uuid) is 'Read receipt: last_read_at = now and broadcasts (issue 13).';

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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.is_conversation_member(uuid, uuid),
  private.conversation_has_block(uuid) to anon, authenticated, service_role;
grant execute on function private.start_direct_conversation(uuid),
  private.attachment_conversation(text),
  private.can_read_chat_attachment(text),
  private.can_write_chat_attachment(text) to authenticated, service_role;
grant execute on function public.start_direct_conversation(uuid),
  public.mark_conversation_read(uuid),
  public.my_inbox(integer, integer),
  public.unread_message_total(),
  public.conversation_info(uuid) to authenticated;
