-- =============================================================================
-- Chat attachments: images and PDF up to 10 MB in a private bucket (issue 13)
-- =============================================================================
-- * Bucket `chat-attachments` (private, 10 MB, JPEG/PNG/WebP/GIF/PDF). Object names are
--   `<conversation id>/<sender id>/<random>-<file name>`.
-- * Storage RLS: members of the conversation (without a block) read its objects, so the SPA gets
--   signed URLs for them; only the sender uploads into their own folder of a conversation they
--   may write in (paid access), and deletes there.
-- * A message may carry one attachment (columns and constraints in 20261124010000; then the text
--   may be empty). The database fills name-independent facts from the stored object itself
--   (size, content type) and refuses a path outside the sender's folder of that conversation or
--   an object that does not exist.
-- * Deleting a message (soft, within 15 minutes; private.guard_message) also drops its attachment
--   reference; the SPA removes the object through the Storage API.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
  ('chat-attachments', 'chat-attachments', false, 10485760,
   array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'])
on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

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

grant execute on function private.attachment_conversation(text), private.can_read_chat_attachment(text),
  private.can_write_chat_attachment(text) to authenticated, service_role;

create policy teamwerk_chat_attachments_select on storage.objects for select to authenticated
using (bucket_id = 'chat-attachments' and private.can_read_chat_attachment(name));
create policy teamwerk_chat_attachments_insert on storage.objects for insert to authenticated
with check (bucket_id = 'chat-attachments' and private.can_write_chat_attachment(name));
create policy teamwerk_chat_attachments_delete on storage.objects for delete to authenticated
using (bucket_id = 'chat-attachments' and pg_catalog.split_part(name, '/', 2) = (select auth.uid())::text);

-- -----------------------------------------------------------------------------
-- Messages: one optional attachment
-- -----------------------------------------------------------------------------

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


