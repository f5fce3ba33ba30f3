-- =============================================================================
-- Storage: row-level security on storage.objects for the project's buckets
-- =============================================================================
-- The buckets themselves are rows of storage.buckets (data migration): avatars (public),
-- portfolio-files (private), chat-attachments (private), organization-logos (public). Policies on
-- storage.objects decide listing, upload, update and delete (and downloads of private buckets);
-- the first folder of an object name is its owner (auth.uid(), or the organisation / conversation).
-- Last but one: the policies call helpers of the portfolios, chat and organisations files.

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
);
create policy teamwerk_objects_update on storage.objects for update to authenticated
using (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text)
with check (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy teamwerk_objects_delete on storage.objects for delete to authenticated
using (bucket_id in ('avatars', 'portfolio-files') and (storage.foldername(name))[1] = (select auth.uid())::text);
-- chat-attachments: `<conversation id>/<sender id>/<random>-<file name>`. Members of the
-- conversation (without a block) read its objects, so the SPA gets signed URLs for them; only the
-- sender uploads into their own folder of a conversation they may write in (paid access), and
-- deletes there.
create policy teamwerk_chat_attachments_select on storage.objects for select to authenticated
using (bucket_id = 'chat-attachments' and private.can_read_chat_attachment(name));
create policy teamwerk_chat_attachments_insert on storage.objects for insert to authenticated
with check (bucket_id = 'chat-attachments' and private.can_write_chat_attachment(name));
create policy teamwerk_chat_attachments_delete on storage.objects for delete to authenticated
using (bucket_id = 'chat-attachments' and pg_catalog.split_part(name, '/', 2) = (select auth.uid())::text);
-- organization-logos: objects {organization_id}/{file}, written by the organisation's owners and
-- admins (issue 15).
create policy organization_logos_select on storage.objects for select to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));
create policy organization_logos_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));
create policy organization_logos_update on storage.objects for update to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)))
  with check (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));
create policy organization_logos_delete on storage.objects for delete to authenticated
  using (bucket_id = 'organization-logos' and (select private.can_write_organization_logo(name)));
