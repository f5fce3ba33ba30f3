-- =============================================================================
-- Jobs and favourite jobs (issue 8)
-- =============================================================================

create type public.employment_type as enum (
  'full_time', 'part_time', 'contract', 'freelance', 'internship', 'working_student', 'mini_job');

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
  apply_url text not null check (apply_url ~ '^(https://|mailto:)'),
  salary_min_cents integer check (salary_min_cents > 0),
  salary_max_cents integer check (salary_max_cents > 0),
  language text not null default 'de' check (language in ('de', 'en')),
  posted_by uuid references public.profiles (id) on delete set null,
  posted_at timestamptz not null default now(),
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint jobs_location check (remote or city is not null),
  constraint jobs_salary_range check (salary_max_cents is null or salary_min_cents is null or salary_max_cents >= salary_min_cents),
  constraint jobs_expiry check (expires_at is null or expires_at > posted_at)
);
comment on table public.jobs is 'Job ads at /jobs/{id}; remote ones also at /working-remote-jobs.';
comment on column public.jobs.id is 'Readable text id used in /jobs/{id} and favourite_jobs.';
comment on column public.jobs.remote is 'Fully remote possible (city may still name the office).';
comment on column public.jobs.salary_min_cents is 'Yearly gross salary range lower bound in cents (EUR), optional.';
comment on column public.jobs.salary_max_cents is 'Yearly gross salary range upper bound in cents (EUR), optional.';
comment on column public.jobs.language is 'Language the ad is written in.';
comment on column public.jobs.posted_by is 'Admin or enterprise member who posted it; null for imported ads.';
comment on column public.jobs.expires_at is 'Ad disappears from lists after this time.';

create index jobs_posted_idx on public.jobs (posted_at desc, id);
create index jobs_remote_idx on public.jobs (posted_at desc) where remote;
create index jobs_city_idx on public.jobs (city, posted_at desc);
create index jobs_type_idx on public.jobs (employment_type, posted_at desc);
create index jobs_category_idx on public.jobs (category, posted_at desc);
create index jobs_posted_by_idx on public.jobs (posted_by);
create trigger jobs_updated_at before update on public.jobs
  for each row execute function private.set_updated_at();

create table public.favourite_jobs (
  user_id uuid not null references public.profiles (id) on delete cascade,
  job_id text not null references public.jobs (id) on update cascade on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, job_id)
);
comment on table public.favourite_jobs is 'Favourite jobs (spec §3 meta key job_favorites); the primary key prevents duplicates.';
create index favourite_jobs_job_idx on public.favourite_jobs (job_id);

alter table public.jobs enable row level security;
alter table public.favourite_jobs enable row level security;

revoke all on public.jobs, public.favourite_jobs from anon, authenticated;
grant select on public.jobs to anon;
grant select, insert, update, delete on public.jobs to authenticated;
grant select, insert, delete on public.favourite_jobs to authenticated;
grant all on public.jobs, public.favourite_jobs to service_role;

create policy jobs_select on public.jobs for select to anon, authenticated
using (expires_at is null or expires_at > now() or (select private.is_admin()));
create policy jobs_insert on public.jobs for insert to authenticated
with check ((select private.is_admin()) and posted_by = (select auth.uid()));
create policy jobs_update on public.jobs for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy jobs_delete on public.jobs for delete to authenticated
using ((select private.is_admin()));

create policy favourite_jobs_select on public.favourite_jobs for select to authenticated
using (user_id = (select auth.uid()));
create policy favourite_jobs_insert on public.favourite_jobs for insert to authenticated
with check (user_id = (select auth.uid()) and (select private.caller_can_write()));
create policy favourite_jobs_delete on public.favourite_jobs for delete to authenticated
using (user_id = (select auth.uid()));
