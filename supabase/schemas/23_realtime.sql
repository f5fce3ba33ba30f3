-- =============================================================================
-- Realtime: who may join, read and write which topics; postgres_changes of chat messages
-- (issues 12 and 13)
-- =============================================================================
--   * read  (join and receive): user:<own id>; conversation:<id> for members without a block;
--     presence:user:<id>:<epoch> for that user and their accepted contacts (no block either way,
--     both showing their online status), only the user's current epoch;
--   * write (broadcast, track presence): user:<own id>; conversation:<id> for members without
--     a block; presence:user:<own id>:<epoch> (current epoch) only, while showing the online
--     status.
-- Hosted Realtime evaluates these policies when a private channel is joined (and on a token
-- refresh) and keeps the answer for the channel's life. A removal or block therefore cannot
-- withdraw a joined channel; it moves the presence to a new epoch instead (07_contacts.sql,
-- private.move_presence; issue 31 §10), which works on hosted Realtime and the local stack alike.
-- Chat messages arrive by Broadcast from Database on conversation:<id> (private.broadcast, called
-- by the chat and contacts triggers). No table of the product is in the publication
-- supabase_realtime: hosted Realtime cannot check row-level security on a deleted row and sends
-- every DELETE of a published table to all its subscribers (issue 29 §6), and nothing in the SPA
-- listens to postgres_changes.

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

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
  target := private.presence_topic_owner(p_topic);
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
  'Realtime read: user:<own id>; current presence:user:<id>:<epoch> (self, accepted contacts when both show their status); conversation:<id> (members, no block). Issues 12, 13, 31 §10.';

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

/* The user whose CURRENT presence topic p_topic is ('presence:user:<uuid>:<epoch>' with their
   epoch, private.presence_topic), else null: an old epoch or another shape names nobody.
   Issue 31 §10. */
create or replace function private.presence_topic_owner(p_topic text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  m text[] := pg_catalog.regexp_match(p_topic, '^presence:user:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):[0-9]{1,18}$');
begin
  if m is null or p_topic <> private.presence_topic(m[1]::uuid) then
    return null;
  end if;
  return m[1]::uuid;
end;
$$;
comment on function private.presence_topic_owner(text) is 'Owner of a current presence topic presence:user:<id>:<epoch>, else null (issue 31 §10).';

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
  if private.presence_topic_owner(p_topic) = auth.uid() then
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
  'Realtime write: user:<own id>; own current presence:user:<id>:<epoch> while showing the online status; conversation:<id> (members, no block). Issues 12, 13, 31 §10.';

/* Broadcast from Database to a private topic, when the Realtime schema exists. */
create or replace function private.broadcast(p_topic text, p_event text, p_payload jsonb)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- a static call (its plan is kept per session; PL/pgSQL resolves it only when it runs)
  if pg_catalog.to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
    perform realtime.send(p_payload, p_event, p_topic, true);
  end if;
end;
$$;
comment on function private.broadcast(text, text, jsonb) is 'realtime.send to a private topic (no-op without Realtime). Issue 13.';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy teamwerk_realtime_select on realtime.messages for select to authenticated
using ((select private.can_use_topic((select realtime.topic()))) and extension in ('broadcast', 'presence'));
create policy teamwerk_realtime_insert on realtime.messages for insert to authenticated
with check ((select private.can_write_topic((select realtime.topic()))) and extension in ('broadcast', 'presence'));

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.can_use_topic(text),
  private.topic_user(text, text),
  private.presence_topic_owner(text),
  private.can_write_topic(text) to anon, authenticated, service_role;
