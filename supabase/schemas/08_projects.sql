-- =============================================================================
-- Projects and favourite projects, with the plan limit (spec §1, §5, §6; issue 8)
-- =============================================================================
-- Plan limit (spec §5/§6): old_user and free 0 (the payment-required guard keeps them out of
-- /user/projects), basic 3, premium/enterprise/admin unlimited. Drafts do not count (issue 33 §5; capped at
-- private.project_draft_limit() drafts).
-- The search index and the map position follow projects through triggers declared in
-- 15_search.sql and 16_cities_map.sql.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.private_project_category as enum (
  'socializing', 'movement', 'creative', 'learning_exchange', 'cooking_eating',
  'family_children', 'volunteer', 'testing_idea', 'finding_partners', 'gaining_visibility');
comment on type public.private_project_category is 'The ten private-project categories (spec §1).';

create type public.project_status as enum ('draft', 'published', 'archived');

create type public.project_stage as enum ('idea', 'concept', 'prototype', 'mvp', 'growth', 'established');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.projects (
  id bigint generated always as identity primary key,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 3 and 140),
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 100),
  summary text not null default '' check (char_length(summary) <= 500),
  description text not null default '' check (char_length(description) <= 20000),
  is_private boolean not null default false,
  category public.project_category,
  private_category public.private_project_category,
  city text check (char_length(city) <= 100),
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  roles_sought text[] not null default '{}' check (cardinality(roles_sought) <= 20),
  stage public.project_stage not null default 'idea',
  images text[] not null default '{}' check (cardinality(images) <= 12),
  status public.project_status not null default 'draft',
  published_at timestamptz,
  owner_listed boolean not null default false,
  owner_premium boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  organization_id uuid references public.organizations (id) on delete set null,
  constraint projects_category_kind check (
    (not is_private and category is not null and private_category is null)
    or (is_private and private_category is not null and category is null)),
  constraint projects_images_refs check (private.are_image_refs(images))
);
comment on table public.projects is 'Projects looking for partners; public at /{id}-{slug} once published.';
comment on column public.projects.slug is 'Readable part of /{id}-{slug}; not unique (the id is).';
comment on column public.projects.is_private is
  'Private (personal) project: uses private_category instead of category (spec §1). Still public once published.';
comment on column public.projects.description is 'Formatted text (Markdown); the SPA sanitises when rendering.';
comment on column public.projects.roles_sought is 'Roles the project is looking for, e.g. {"Co-Founder","UX-Designerin"}.';
comment on column public.projects.images is 'Object paths in the portfolio-files bucket or http(s) URLs.';
comment on column public.projects.latitude is 'WGS84 latitude of the city.';
comment on column public.projects.longitude is 'WGS84 longitude of the city.';
comment on column public.projects.owner_listed is 'Owner confirmed, visible and not suspended; maintained by trigger (search filter).';
comment on column public.projects.owner_premium is 'Owner on premium/enterprise; maintained by trigger (search preference, spec §6).';
comment on column public.projects.organization_id is 'Published under this organisation (issue 15); the owner must be a member when setting it.';
create index projects_owner_idx on public.projects (owner_id, created_at desc);
create index projects_published_idx on public.projects (published_at desc, id desc) where status = 'published';
create index projects_category_idx on public.projects (category, published_at desc) where status = 'published';
create index projects_private_category_idx on public.projects (private_category, published_at desc) where status = 'published';
create index projects_city_idx on public.projects (city, published_at desc) where status = 'published';
create index projects_map_idx on public.projects using gist (point(longitude, latitude))
  where status = 'published' and owner_listed and latitude is not null and longitude is not null;
create index projects_map_category_idx on public.projects using gist (category, point(longitude, latitude))
  where status = 'published' and owner_listed and latitude is not null and longitude is not null;
create index projects_organization_idx on public.projects (organization_id) where organization_id is not null;
-- Keyset paging of the API's lists: the organisation's rows in the API's order.
create index projects_organization_api_idx on public.projects (organization_id, id) where organization_id is not null;
alter table public.projects enable row level security;
revoke all on public.projects from anon, authenticated;
grant select (id, owner_id, title, slug, summary, description, is_private, category, private_category, city,
              latitude, longitude, roles_sought, stage, images, status, published_at, created_at, updated_at,
              organization_id)
  on public.projects to anon, authenticated;
grant insert (owner_id, title, slug, summary, description, is_private, category, private_category, city,
              latitude, longitude, roles_sought, stage, images, status, organization_id)
  on public.projects to authenticated;
grant update (title, slug, summary, description, is_private, category, private_category, city, latitude,
              longitude, roles_sought, stage, images, status, organization_id)
  on public.projects to authenticated;
grant delete on public.projects to authenticated;

create table public.favourite_projects (
  user_id uuid not null references public.profiles (id) on delete cascade,
  project_id bigint not null references public.projects (id) on delete cascade check (project_id > 0),
  created_at timestamptz not null default now(),
  primary key (user_id, project_id)
);

comment on table public.favourite_projects is
  'Favourite projects (spec §3 meta key project_favorites). The primary key makes duplicates impossible; ids > 0.';
create index favourite_projects_project_idx on public.favourite_projects (project_id);
alter table public.favourite_projects enable row level security;
revoke all on public.favourite_projects from anon, authenticated;
grant select (user_id, project_id, created_at) on public.favourite_projects to authenticated;
grant insert (user_id, project_id) on public.favourite_projects to authenticated;
grant delete on public.favourite_projects to authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

/*
 * BEFORE INSERT, and BEFORE UPDATE OF status, on projects: the plan limit (spec §5: Basic 3
 * projects; issue 33 §5: drafts do not count).
 * - Counted are the owner's projects that are not drafts (published or archived). Inserting a
 *   counted project, or turning a draft into one (publishing), at the limit raises P0001
 *   plan_limit_reached (detail names the limit, hint upgrade_plan).
 * - Drafts do not count, but a plan with a limit keeps at most private.project_draft_limit()
 *   drafts: inserting one more raises P0001 draft_limit_reached (hint discard_drafts).
 *   Unpublishing (back to draft) is always allowed.
 * - A plan without projects (free, old_user: limit 0) may not insert any project, draft or not.
 * The owner's profile row is locked so concurrent writes are counted one after another.
 */
create or replace function private.enforce_project_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_role public.user_role;
  v_limit integer;
  v_count integer;
  v_draft_limit constant integer := private.project_draft_limit();
begin
  if tg_op = 'UPDATE' and not (old.status = 'draft' and new.status <> 'draft') then
    return new;
  end if;
  select user_role into v_role from public.profiles where id = new.owner_id for update;
  v_limit := private.project_limit(v_role);
  if v_limit is null then
    return new;
  end if;
  if tg_op = 'INSERT' and new.status = 'draft' and v_limit > 0 then
    select count(*) into v_count from public.projects where owner_id = new.owner_id and status = 'draft';
    if v_count >= v_draft_limit then
      raise exception using errcode = 'P0001', message = 'draft_limit_reached',
        detail = pg_catalog.format('At most %s drafts; publish or delete one first.', v_draft_limit),
        hint = 'discard_drafts';
    end if;
    return new;
  end if;
  select count(*) into v_count from public.projects
  where owner_id = new.owner_id and status <> 'draft' and id is distinct from new.id;
  if v_count >= v_limit then
    raise exception using errcode = 'P0001', message = 'plan_limit_reached',
      detail = pg_catalog.format('Plan %s allows %s projects (drafts do not count).', v_role, v_limit),
      hint = 'upgrade_plan';
  end if;
  return new;
end;
$$;
comment on function private.enforce_project_limit() is
  'BEFORE INSERT / UPDATE OF status on projects: at most plan-limit non-draft projects (P0001 plan_limit_reached, hint upgrade_plan) and project_draft_limit() drafts (P0001 draft_limit_reached); drafts do not count (issue 33 §5).';
create trigger projects_limit before insert or update of status on public.projects
  for each row execute function private.enforce_project_limit();

create or replace function private.prepare_project()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.owner_id is distinct from old.owner_id and not private.is_privileged() then
    raise exception using errcode = '42501', message = 'protected_column', detail = 'owner_id cannot change.';
  end if;
  if new.slug is null or new.slug = ''
     or (tg_op = 'UPDATE' and new.title is distinct from old.title and new.slug = old.slug) then
    new.slug := private.slugify(new.title);
  end if;
  if new.status = 'published' and new.published_at is null then
    new.published_at := pg_catalog.now();
  end if;
  return new;
end;
$$;
comment on function private.prepare_project() is 'BEFORE INSERT/UPDATE on projects: slug from title, published_at, owner immutable.';
create trigger projects_prepare before insert or update on public.projects
  for each row execute function private.prepare_project();
create trigger projects_owner_flags before insert or update on public.projects
  for each row execute function private.set_owner_flags('owner_id');
create trigger projects_updated_at before update on public.projects
  for each row execute function private.set_updated_at();
create trigger projects_organization before insert or update of organization_id on public.projects
  for each row execute function private.check_content_organization('owner_id');

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

create or replace function private.project_limit(p_role public.user_role)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when p_role in ('old_user', 'free') then 0
    when p_role = 'admin' then null
    else (select project_limit from public.plans where id = p_role::text)
  end
$$;
comment on function private.project_limit(public.user_role) is 'Projects allowed per role; null = unlimited.';

/*
 * Drafts a member on a plan with a project limit may keep (issue 33 §5: drafts do not count
 * towards the limit, but are capped so they cannot stand in for projects). Output: a count.
 */
create or replace function private.project_draft_limit()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 10
$$;
comment on function private.project_draft_limit() is 'Drafts allowed on plans with a project limit (issue 33 §5); unlimited plans have no cap.';

/*
 * The caller's project allowance as private.enforce_project_limit applies it (spec §5, issue 33
 * §5), for the SPA to show before the wizard: used = own projects that count (all but drafts),
 * project_limit = private.project_limit of the caller's role (null = unlimited), drafts = own
 * drafts, draft_limit = private.project_draft_limit() on limited plans (0 without projects,
 * null when unlimited).
 * Errors: 28000 not_authenticated.
 */
create or replace function public.my_project_allowance()
returns table (used integer, project_limit integer, drafts integer, draft_limit integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer;
begin
  if auth.uid() is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  v_limit := private.project_limit(coalesce((select p.user_role from public.profiles p where p.id = auth.uid()), 'free'));
  return query
  select count(*) filter (where pr.status <> 'draft')::integer, v_limit,
         count(*) filter (where pr.status = 'draft')::integer,
         case when v_limit is null then null when v_limit = 0 then 0 else private.project_draft_limit() end
  from public.projects pr where pr.owner_id = auth.uid();
end;
$$;
comment on function public.my_project_allowance() is
  'Issue 33 §5: the caller''s projects that count (non-drafts), the plan''s limit (null = unlimited), drafts and the draft cap.';

create or replace function private.can_see_project(p_project_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.projects
    where id = p_project_id
      and (owner_id = auth.uid() or (status = 'published' and not (owner_id = any (private.hidden_user_ids())))))
$$;
comment on function private.can_see_project(bigint) is 'True when the caller may see the project (own, or published and owner not hidden).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy projects_select on public.projects for select to anon, authenticated
using (
  owner_id = (select auth.uid())
  or (select private.is_admin())
  or (status = 'published' and not (owner_id = any ((select private.hidden_user_ids())::uuid[])))
);
create policy projects_insert on public.projects for insert to authenticated
with check (owner_id = (select auth.uid()) and (select private.caller_can_write()));
create policy projects_update on public.projects for update to authenticated
using ((select private.caller_can_write()) and (owner_id = (select auth.uid()) or (select private.is_admin())))
with check (owner_id = (select auth.uid()) or (select private.is_admin()));
create policy projects_delete on public.projects for delete to authenticated
using ((select private.caller_can_write()) and (owner_id = (select auth.uid()) or (select private.is_admin())));
create policy favourite_projects_select on public.favourite_projects for select to authenticated
using (user_id = (select auth.uid()));
create policy favourite_projects_insert on public.favourite_projects for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()) and private.can_see_project(project_id));
create policy favourite_projects_delete on public.favourite_projects for delete to authenticated
using (user_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.can_see_project(bigint) to anon, authenticated, service_role;
grant execute on function public.my_project_allowance() to authenticated, service_role;
