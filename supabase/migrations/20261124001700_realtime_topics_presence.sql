-- =============================================================================
-- Realtime: who may join, read and write which topics; deletes of chat messages
-- (issue 12 finding 13)
-- =============================================================================
-- Before: every signed-in user could join the private topic `presence:online` and read every
-- online user's presence (user ids), and a DELETE of a chat message reached every subscriber of
-- `messages` with its id, also people outside the conversation.
-- Now:
--   * read  (join and receive): user:<own id>; conversation:<id> for members without a block;
--     presence:user:<id> for that user and their accepted contacts (no block either way);
--   * write (broadcast, track presence): user:<own id>; conversation:<id> for members without
--     a block; presence:user:<own id> only;
--   * `presence:online` is gone;
--   * messages has REPLICA IDENTITY FULL, so the local Realtime server can check the messages
--     policy on a deleted row and send the DELETE only to members (hosted Realtime sends deletes
--     of RLS tables with the primary key only).

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

/* The user id in a topic `<prefix><uuid>`, or null. */
create or replace function private.topic_user(p_topic text, p_prefix text)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_topic is null or pg_catalog.left(p_topic, pg_catalog.length(p_prefix)) <> p_prefix then
    return null;
  end if;
  return pg_catalog.substr(p_topic, pg_catalog.length(p_prefix) + 1)::uuid;
exception when invalid_text_representation then
  return null;
end;
$$;
comment on function private.topic_user(text, text) is 'Parses the uuid after a topic prefix; null when the prefix differs or no uuid follows.';

/* Realtime read authorisation (select on realtime.messages): may the caller join and receive? */
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
    return target = auth.uid() or private.is_accepted_contact(target);
  end if;
  conv := private.topic_user(p_topic, 'conversation:');
  if conv is not null then
    return private.is_conversation_member(conv, auth.uid()) and not private.conversation_has_block(conv);
  end if;
  return false;
end;
$$;
comment on function private.can_use_topic(text) is
  'Realtime read: user:<own id>, presence:user:<id> (self and accepted contacts without block), conversation:<id> (members, no block). Issue 12.';

/* Realtime write authorisation (insert on realtime.messages): may the caller send or track? */
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
  if p_topic = 'user:' || auth.uid()::text or p_topic = 'presence:user:' || auth.uid()::text then
    return true;
  end if;
  conv := private.topic_user(p_topic, 'conversation:');
  if conv is not null then
    return private.is_conversation_member(conv, auth.uid()) and not private.conversation_has_block(conv);
  end if;
  return false;
end;
$$;
comment on function private.can_write_topic(text) is
  'Realtime write: user:<own id>, presence:user:<own id> only, conversation:<id> (members, no block). Issue 12.';

grant execute on function private.is_accepted_contact(uuid), private.topic_user(text, text), private.can_use_topic(text),
  private.can_write_topic(text) to anon, authenticated, service_role;

drop policy teamwerk_realtime_insert on realtime.messages;
create policy teamwerk_realtime_insert on realtime.messages for insert to authenticated
with check ((select private.can_write_topic((select realtime.topic()))) and extension in ('broadcast', 'presence'));

alter table public.messages replica identity full;
