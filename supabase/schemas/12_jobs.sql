-- =============================================================================
-- Jobs and favourite jobs (issue 8; issue 15: jobs of organisations)
-- =============================================================================
-- The search index and the map position follow jobs through triggers declared in 15_search.sql
-- and 16_cities_map.sql.

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------

create type public.employment_type as enum (
  'full_time', 'part_time', 'contract', 'freelance', 'internship', 'working_student', 'mini_job');

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.jobs (
  id text primary key check (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(id) <= 120),
  title text not null check (char_length(title) between 3 and 140),
  company text not null check (char_length(company) between 1 and 140),
  company_logo text,
  city text check (char_length(city) <= 100),
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  remote boolean not null default false,
  employment_type public.employment_type not null,
  category public.project_category not null default 'other',
  description text not null check (char_length(description) <= 20000),
  apply_url text not null,
  salary_min_cents integer check (salary_min_cents > 0),
  salary_max_cents integer check (salary_max_cents > 0),
  language text not null default 'de' check (language in ('de', 'en')),
  posted_by uuid references public.profiles (id) on delete set null,
  posted_at timestamptz not null default now(),
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  organization_id uuid references public.organizations (id) on delete set null,
  constraint jobs_location check (remote or city is not null),
  constraint jobs_salary_range check (salary_max_cents is null or salary_min_cents is null or salary_max_cents >= salary_min_cents),
  constraint jobs_expiry check (expires_at is null or expires_at > posted_at),
  constraint jobs_apply_url_safe check (private.is_apply_url(apply_url)),
  constraint jobs_company_logo_ref check (company_logo is null or private.is_image_ref(company_logo))
);
comment on table public.jobs is 'Job ads at /jobs/{id}; remote ones also at /working-remote-jobs.';
comment on column public.jobs.id is 'Readable text id used in /jobs/{id} and favourite_jobs.';
comment on column public.jobs.remote is 'Fully remote possible (city may still name the office).';
comment on column public.jobs.salary_min_cents is 'Yearly gross salary range lower bound in cents (EUR), optional.';
comment on column public.jobs.salary_max_cents is 'Yearly gross salary range upper bound in cents (EUR), optional.';
comment on column public.jobs.language is 'Language the ad is written in.';
comment on column public.jobs.posted_by is 'Admin or enterprise member who posted it; null for imported ads.';
comment on column public.jobs.expires_at is 'Ad disappears from lists after this time.';
comment on column public.jobs.company_logo is 'Company logo: object path or http(s) URL.';
comment on column public.jobs.apply_url is 'Where to apply: http(s) URL or a plain mailto: address.';
comment on column public.jobs.organization_id is 'Published under this organisation (issue 15); the poster must be a member when setting it.';
create index jobs_posted_idx on public.jobs (posted_at desc, id);
create index jobs_remote_idx on public.jobs (posted_at desc) where remote;
create index jobs_city_idx on public.jobs (city, posted_at desc);
create index jobs_type_idx on public.jobs (employment_type, posted_at desc);
create index jobs_category_idx on public.jobs (category, posted_at desc);
create index jobs_posted_by_idx on public.jobs (posted_by);
create index jobs_map_idx on public.jobs using gist (point(longitude, latitude))
  where latitude is not null and longitude is not null;
create index jobs_map_category_idx on public.jobs using gist (category, point(longitude, latitude))
  where latitude is not null and longitude is not null;
create index jobs_organization_idx on public.jobs (organization_id) where organization_id is not null;
create index jobs_organization_api_idx on public.jobs (organization_id, created_at, id) where organization_id is not null;
alter table public.jobs enable row level security;
revoke all on public.jobs from anon, authenticated;
grant select (id, title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, posted_by, posted_at,
              expires_at, created_at, updated_at, organization_id)
  on public.jobs to anon, authenticated;
-- posted_at orders every job list: the database sets it (default now()), never the client (issue 31 §4)
grant insert (id, title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, posted_by,
              expires_at, organization_id)
  on public.jobs to authenticated;
grant update (title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, expires_at,
              organization_id)
  on public.jobs to authenticated;
grant delete on public.jobs to authenticated;

create table public.favourite_jobs (
  user_id uuid not null references public.profiles (id) on delete cascade,
  job_id text not null references public.jobs (id) on update cascade on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, job_id)
);
comment on table public.favourite_jobs is 'Favourite jobs (spec §3 meta key job_favorites); the primary key prevents duplicates.';
create index favourite_jobs_job_idx on public.favourite_jobs (job_id);
alter table public.favourite_jobs enable row level security;
revoke all on public.favourite_jobs from anon, authenticated;
grant select (user_id, job_id, created_at) on public.favourite_jobs to authenticated;
grant insert (user_id, job_id) on public.favourite_jobs to authenticated;
grant delete on public.favourite_jobs to authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

create trigger jobs_updated_at before update on public.jobs
  for each row execute function private.set_updated_at();
create trigger jobs_organization before insert or update of organization_id on public.jobs
  for each row execute function private.check_content_organization('posted_by');

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy jobs_select on public.jobs for select to anon, authenticated
using (expires_at is null or expires_at > now() or (select private.is_admin()));
-- Platform admins write every job; members of an organisation post jobs under it and edit their
-- own ones while they are members; the organisation's owners and admins edit and delete all of its
-- jobs (one policy per action holds both rules).
create policy jobs_insert on public.jobs for insert to authenticated
  with check (posted_by = (select auth.uid()) and (
    (select private.is_admin())
    or (organization_id is not null and (select private.caller_can_write())
        and (select private.is_organization_member(organization_id, (select auth.uid()))))));
create policy jobs_update on public.jobs for update to authenticated
  using ((select private.is_admin())
    or (organization_id is not null and (select private.caller_can_write())
        and ((posted_by = (select auth.uid()) and (select private.is_organization_member(organization_id, (select auth.uid()))))
             or (select private.is_organization_admin(organization_id, (select auth.uid()))))))
  with check ((select private.is_admin())
    or (organization_id is not null and (select private.is_organization_member(organization_id, (select auth.uid())))));
create policy jobs_delete on public.jobs for delete to authenticated
  using ((select private.is_admin())
    or (organization_id is not null and (select private.caller_can_write())
        and ((posted_by = (select auth.uid()) and (select private.is_organization_member(organization_id, (select auth.uid()))))
             or (select private.is_organization_admin(organization_id, (select auth.uid()))))));
create policy favourite_jobs_select on public.favourite_jobs for select to authenticated
using (user_id = (select auth.uid()));
create policy favourite_jobs_insert on public.favourite_jobs for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()));
create policy favourite_jobs_delete on public.favourite_jobs for delete to authenticated
using (user_id = (select auth.uid()));
