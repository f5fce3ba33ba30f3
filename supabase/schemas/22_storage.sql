-- =============================================================================
-- Storage: row-level security on storage.objects for the project's buckets
-- =============================================================================
-- The buckets themselves are rows of storage.buckets (data migration): avatars (public),
-- portfolio-files (private), chat-attachments (private), organization-logos (public). Policies on
-- storage.objects decide listing, upload, update and delete (and downloads of private buckets);
-- the first folder of an object name is its owner (auth.uid(), or the organisation / conversation).
-- Last but one: the policies call helpers of the portfolios, chat and organisations files.
--
-- Uploads (issue 29 §5): hosted storage-api checks only an upload's declared Content-Type, so files
-- reach Storage through the `upload` Edge Function, which reads the bytes first and then uploads
-- with the caller's own session. Every insert and update policy below also requires an upload
-- grant the function created a moment before for that user and object (private.upload_grants),
-- so a file sent straight to the Storage API is refused and nobody can overwrite a checked object
-- with other bytes.

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table private.upload_grants (
  bucket_id text not null,
  name text not null,
  user_id uuid not null,
  expires_at timestamptz not null default (pg_catalog.now() + interval '2 minutes'),
  primary key (bucket_id, name)
);
comment on table private.upload_grants is
  'Uploads the upload function checked (issue 29): Storage accepts this object from this user until expires_at.';
alter table private.upload_grants enable row level security;

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* Storage policy helper: the caller holds an unexpired upload grant for this object. */
create or replace function private.has_upload_grant(p_bucket_id text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.upload_grants g
    where g.bucket_id = p_bucket_id and g.name = p_name and g.user_id = auth.uid() and g.expires_at > pg_catalog.now())
$$;
comment on function private.has_upload_grant(text, text) is
  'The caller may store this object: the upload function checked its bytes (issue 29).';

/* AFTER INSERT OR UPDATE on storage.objects: the grant of a stored object is used up, so the
   object cannot be overwritten with other bytes later (issue 29). */
create or replace function private.consume_upload_grant()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.upload_grants g where g.bucket_id = new.bucket_id and g.name = new.name;
  return null;
end;
$$;
comment on function private.consume_upload_grant() is
  'AFTER INSERT OR UPDATE on storage.objects: an upload grant serves one write (issue 29).';

-- -----------------------------------------------------------------------------
-- Triggers
-- -----------------------------------------------------------------------------

create trigger teamwerk_consume_upload_grant after insert or update on storage.objects
  for each row execute function private.consume_upload_grant();

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

-- avatars is public: objects are served by URL without RLS; listing is limited to the own folder.
create policy teamwerk_objects_select on storage.objects for select to anon, authenticated
using (
  (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  or (bucket_id = 'portfolio-files'
      and ((storage.foldername(name))[1] = (select auth.uid())::text or private.can_read_portfolio_file(name)))
);
create policy teamwerk_objects_insert on storage.objects for insert to authenticated
with check (
  bucket_id in ('avatars', 'portfolio-files')
  and (storage.foldername(name))[1] = (select auth.uid())::text
  and (select private.caller_can_write())
  and private.has_upload_grant(bucket_id, name)
);
create policy teamwerk_objects_update on storage.objects for update to authenticated
using (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text)
with check (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text
  and private.has_upload_grant(bucket_id, name));
create policy teamwerk_objects_delete on storage.objects for delete to authenticated
using (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text);
-- chat-attachments: `<conversation id>/<sender id>/<random>-<file name>`. Members of the
-- conversation (without a block) read its objects, so the SPA gets signed URLs for them; only the
-- sender uploads into their own folder of a conversation they may write in (paid access), and
-- deletes there.
create policy teamwerk_chat_attachments_select on storage.objects for select to authenticated
using (bucket_id = 'chat-attachments' and private.can_read_chat_attachment(name));
create policy teamwerk_chat_attachments_insert on storage.objects for insert to authenticated
with check (bucket_id = 'chat-attachments' and private.can_write_chat_attachment(name) and private.has_upload_grant(bucket_id, name));
create policy teamwerk_chat_attachments_delete on storage.objects for delete to authenticated
using (bucket_id = 'chat-attachments' and pg_catalog.split_part(name, '/', 2) = (select auth.uid())::text);
-- organization-logos: objects {organization_id}/{file}, written by the organisation's owners and
-- admins (issue 15).
create policy organization_logos_select on storage.objects for select to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));
create policy organization_logos_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name))
    and private.has_upload_grant(bucket_id, name));
create policy organization_logos_update on storage.objects for update to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)))
  with check (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name))
    and private.has_upload_grant(bucket_id, name));
create policy organization_logos_delete on storage.objects for delete to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* The upload function (service role) lets p_user_id store p_bucket_id/p_name for two minutes,
   after it checked the bytes; expired grants are dropped on the way. */
create or replace function public.grant_upload(p_user_id uuid, p_bucket_id text, p_name text)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.upload_grants where expires_at < pg_catalog.now();
  insert into private.upload_grants (bucket_id, name, user_id) values (p_bucket_id, p_name, p_user_id)
  on conflict (bucket_id, name) do update set user_id = excluded.user_id, expires_at = excluded.expires_at;
$$;
comment on function public.grant_upload(uuid, text, text) is
  'service_role (the upload function): the user may store this object for two minutes (issue 29).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

grant execute on function private.has_upload_grant(text, text) to authenticated;
