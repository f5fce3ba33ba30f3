-- =============================================================================
-- Chat: conversations, members, messages; realtime (spec §1 chat; issue 4)
-- =============================================================================

create type public.conversation_kind as enum ('direct', 'group');
create type public.member_role as enum ('owner', 'member');

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
create trigger conversations_updated_at before update on public.conversations
  for each row execute function private.set_updated_at();

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

create table public.messages (
  id bigint generated always as identity primary key,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  sender_id uuid references public.profiles (id) on delete set null,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now(),
  edited_at timestamptz
);
comment on table public.messages is 'Chat messages; in publication supabase_realtime (postgres_changes) and broadcast to conversation:<id>.';
comment on column public.messages.edited_at is 'Set when the sender edits the body.';
create index messages_conversation_idx on public.messages (conversation_id, created_at desc, id desc);
create index messages_sender_idx on public.messages (sender_id);

-- -----------------------------------------------------------------------------
-- Helpers
-- -----------------------------------------------------------------------------
create or replace function private.is_conversation_member(p_conversation_id uuid, p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and exists (
    select 1 from public.conversation_members where conversation_id = p_conversation_id and user_id = p_user_id)
$$;
comment on function private.is_conversation_member(uuid, uuid) is 'Membership test for policies.';

-- True when the caller shares the conversation with someone they blocked or who blocked them:
-- then nobody in it can write (direct chats of blocked users go silent).
create or replace function private.conversation_has_block(p_conversation_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.conversation_members m
    where m.conversation_id = p_conversation_id and m.user_id <> auth.uid()
      and private.is_blocked(m.user_id, auth.uid()))
$$;
comment on function private.conversation_has_block(uuid) is 'Caller is in a block relation with another member.';

create or replace function private.created_conversation(p_conversation_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.conversations where id = p_conversation_id and created_by = auth.uid())
$$;
comment on function private.created_conversation(uuid) is 'True when auth.uid() created the conversation.';

-- Realtime topic 'conversation:<uuid>' -> member of that conversation?
create or replace function private.can_use_topic(p_topic text)
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
  if p_topic = 'user:' || auth.uid()::text or p_topic = 'presence:online' then
    return true;
  end if;
  if p_topic like 'conversation:%' then
    begin
      conv := pg_catalog.substr(p_topic, 14)::uuid;
    exception when invalid_text_representation then
      return false;
    end;
    return private.is_conversation_member(conv, auth.uid()) and not private.conversation_has_block(conv);
  end if;
  return false;
end;
$$;
comment on function private.can_use_topic(text) is
  'Realtime authorisation: user:<own id>, presence:online (any signed-in user), conversation:<id> (members, no block).';

grant execute on function private.is_conversation_member(uuid, uuid), private.conversation_has_block(uuid),
  private.created_conversation(uuid), private.can_use_topic(text) to anon, authenticated, service_role;

/* Opens (or reuses) the direct conversation between the caller and p_other_user_id.
   Errors: 28000 not_authenticated, P0001 blocked (either side blocked), P0002 user_not_found
   (unknown, suspended or hidden). Returns the conversation id. */
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
  if p_other_user_id is null or p_other_user_id = me
     or not exists (select 1 from public.profiles where id = p_other_user_id)
     or private.is_suspended(p_other_user_id) then
    raise exception using errcode = 'P0002', message = 'user_not_found';
  end if;
  if private.is_blocked(me, p_other_user_id) then
    raise exception using errcode = 'P0001', message = 'blocked';
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
    insert into public.conversation_members (conversation_id, user_id, role)
    values (conv, me, 'owner'), (conv, p_other_user_id, 'member');
  end if;
  return conv;
end;
$$;
comment on function private.start_direct_conversation(uuid) is 'Implementation of public.start_direct_conversation.';
grant execute on function private.start_direct_conversation(uuid) to authenticated, service_role;

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
  'Opens or reuses the direct chat with p_other_user_id; errors P0001 blocked, P0002 user_not_found, 28000 not_authenticated.';
revoke all on function public.start_direct_conversation(uuid) from public, anon;
grant execute on function public.start_direct_conversation(uuid) to authenticated, service_role;

-- Message trigger: conversation order + broadcast to the private topic when realtime.send exists.
create or replace function private.after_message_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.conversations set last_message_at = new.created_at where id = new.conversation_id;
  if pg_catalog.to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
    execute 'select realtime.send($1, $2, $3, true)'
      using pg_catalog.jsonb_build_object('id', new.id, 'conversation_id', new.conversation_id, 'sender_id', new.sender_id,
                                          'body', new.body, 'created_at', new.created_at),
            'message_created', 'conversation:' || new.conversation_id::text;
  end if;
  return null;
end;
$$;
comment on function private.after_message_insert() is 'AFTER INSERT on messages: last_message_at and realtime broadcast.';
create trigger messages_after_insert after insert on public.messages
  for each row execute function private.after_message_insert();

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
     or new.created_at <> old.created_at then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'Only the body of a message can be edited.';
  end if;
  if new.body <> old.body then
    new.edited_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.guard_message() is 'BEFORE UPDATE on messages: only body changes; sets edited_at.';
create trigger messages_guard before update on public.messages
  for each row execute function private.guard_message();

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.conversations enable row level security;
alter table public.conversation_members enable row level security;
alter table public.messages enable row level security;

revoke all on public.conversations, public.conversation_members, public.messages from anon, authenticated;
grant select, insert, update, delete on public.conversations, public.conversation_members, public.messages to authenticated;
grant all on public.conversations, public.conversation_members, public.messages to service_role;

create policy conversations_select on public.conversations for select to authenticated
using (private.is_conversation_member(id, (select auth.uid())) or created_by = (select auth.uid()) or (select private.is_admin()));
create policy conversations_insert on public.conversations for insert to authenticated
with check (created_by = (select auth.uid()) and (select private.caller_can_write()));
create policy conversations_update on public.conversations for update to authenticated
using (created_by = (select auth.uid()) and (select private.caller_can_write()))
with check (created_by = (select auth.uid()));
create policy conversations_delete on public.conversations for delete to authenticated
using (created_by = (select auth.uid()) or (select private.is_admin()));

create policy conversation_members_select on public.conversation_members for select to authenticated
using (private.is_conversation_member(conversation_id, (select auth.uid())) or (select private.is_admin()));
create policy conversation_members_insert on public.conversation_members for insert to authenticated
with check (
  (select private.caller_can_write())
  and private.created_conversation(conversation_id)
  and not (user_id = any ((select private.hidden_user_ids())::uuid[]))
);
create policy conversation_members_update on public.conversation_members for update to authenticated
using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy conversation_members_delete on public.conversation_members for delete to authenticated
using (user_id = (select auth.uid()) or private.created_conversation(conversation_id));

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
using (sender_id = (select auth.uid()) and (select private.caller_can_write()))
with check (sender_id = (select auth.uid()));
create policy messages_delete on public.messages for delete to authenticated
using (sender_id = (select auth.uid()) or (select private.is_admin()));

-- -----------------------------------------------------------------------------
-- Realtime: postgres_changes on messages, private broadcast/presence topics
-- -----------------------------------------------------------------------------
do $$
begin
  if exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime')
     and not exists (select 1 from pg_catalog.pg_publication_tables
                     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'messages') then
    alter publication supabase_realtime add table public.messages;
  end if;
end;
$$;

create policy teamwerk_realtime_select on realtime.messages for select to authenticated
using ((select private.can_use_topic((select realtime.topic()))) and extension in ('broadcast', 'presence'));
create policy teamwerk_realtime_insert on realtime.messages for insert to authenticated
with check ((select private.can_use_topic((select realtime.topic()))) and extension in ('broadcast', 'presence'));
