-- =============================================================================
-- Jobs published by organisation members (issue 15, "members publish projects, jobs and events
-- under the organisation's name"). Until now only admins wrote jobs (20261121000800_jobs.sql).
-- Now also: a member of an organisation inserts a job with organization_id = that organisation and
-- posted_by = themselves (private.check_content_organization already refuses an organisation the
-- poster is not a member of); the poster (while still a member) and the organisation's owners and
-- admins update or delete the organisation's jobs. Admins keep full access. Removing a member keeps
-- their jobs under the organisation (organization_id stays), but they lose write access at once.
-- =============================================================================

drop policy if exists jobs_insert on public.jobs;
create policy jobs_insert on public.jobs for insert to authenticated
with check (
  posted_by = (select auth.uid())
  and (
    (select private.is_admin())
    or (organization_id is not null and (select private.is_organization_member(organization_id, (select auth.uid()))))
  )
);

drop policy if exists jobs_update on public.jobs;
create policy jobs_update on public.jobs for update to authenticated
using (
  (select private.is_admin())
  or (organization_id is not null and (
    (select private.is_organization_admin(organization_id, (select auth.uid())))
    or (posted_by = (select auth.uid()) and (select private.is_organization_member(organization_id, (select auth.uid()))))))
)
with check (
  (select private.is_admin())
  or (organization_id is not null and (
    (select private.is_organization_admin(organization_id, (select auth.uid())))
    or (posted_by = (select auth.uid()) and (select private.is_organization_member(organization_id, (select auth.uid()))))))
);

drop policy if exists jobs_delete on public.jobs;
create policy jobs_delete on public.jobs for delete to authenticated
using (
  (select private.is_admin())
  or (organization_id is not null and (
    (select private.is_organization_admin(organization_id, (select auth.uid())))
    or (posted_by = (select auth.uid()) and (select private.is_organization_member(organization_id, (select auth.uid()))))))
);
