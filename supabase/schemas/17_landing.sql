-- =============================================================================
-- The landing page shows the platform alive (issue 18): numbers, featured projects, upcoming
-- events, people, cities and the plans, from the database
-- =============================================================================
-- The snapshot is built at most every 5 minutes (pg_cron, and on demand when it is missing or
-- older than 10 minutes) into private.landing_cache, so a visit costs one primary-key read; the
-- answer also carries Cache-Control (5 minutes). It holds only what anon may see anyway: listed
-- people (confirmed, visible, not suspended) by first and last name (never the e-mail fallback),
-- slug, picture, headline and city; published projects and listed events of such people; plan
-- prices. No e-mail, address or id beyond what the public pages show. People and content hidden
-- for the caller (blocks) are filtered out when read.

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table private.landing_cache (
  id smallint primary key default 1 check (id = 1),
  data jsonb not null,
  refreshed_at timestamptz not null default now()
);
comment on table private.landing_cache is 'The landing page snapshot (issue 18); one row, refreshed by private.refresh_landing_cache().';
alter table private.landing_cache enable row level security;
revoke all on private.landing_cache from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

/* Listed: confirmed, visible and not suspended (what anon may see of people; spec §6). */
create or replace function private.is_listed_profile(p public.profiles)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p.authenticated = 1 and p.profile_visibility = 1 and not private.is_suspended(p.id)
$$;

/* Builds the landing snapshot (read only). */
create or replace function private.build_landing_snapshot()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'stats', pg_catalog.jsonb_build_object(
      'members', (select count(*) from public.profiles o where private.is_listed_profile(o)),
      'projects', (select count(*) from public.projects where status = 'published' and not is_private and owner_listed),
      'cities', (select count(distinct pg_catalog.lower(c)) from (
                   select city as c from public.profiles o where city is not null and private.is_listed_profile(o)
                   union all select city from public.projects where status = 'published' and owner_listed and city is not null
                   union all select city from public.events where status in ('published', 'upcoming', 'ongoing') and owner_listed and city is not null) x),
      'upcoming_events', (select count(*) from public.events where status in ('published', 'upcoming') and owner_listed and starts_at > pg_catalog.now())),
    'projects', coalesce((
      select pg_catalog.jsonb_agg(x order by x.published_at desc) from (
        select pr.id, pr.slug, pr.title, pr.summary, pr.category, pr.city, pr.stage, pr.roles_sought, pr.published_at,
               pg_catalog.jsonb_build_object('slug', o.slug, 'name', nullif(pg_catalog.btrim(o.firstname || ' ' || o.lastname), ''), 'img', o.profile_img, 'id', o.id) as owner
        from public.projects pr join public.profiles o on o.id = pr.owner_id
        where private.is_listed_profile(o) and pr.status = 'published' and not pr.is_private
        order by pr.owner_premium desc, pr.published_at desc nulls last limit 6) x), '[]'::jsonb),
    'events', coalesce((
      select pg_catalog.jsonb_agg(x order by x.starts_at) from (
        select e.slug, e.title, e.category, e.city, e.is_online, e.is_paid, e.price_cents, e.starts_at,
               pg_catalog.jsonb_build_object('slug', o.slug, 'name', nullif(pg_catalog.btrim(o.firstname || ' ' || o.lastname), ''), 'img', o.profile_img, 'id', o.id) as owner
        from public.events e join public.profiles o on o.id = e.organizer_id
        where private.is_listed_profile(o) and e.status in ('published', 'upcoming') and e.starts_at > pg_catalog.now()
        order by e.starts_at limit 4) x), '[]'::jsonb),
    'people', coalesce((
      select pg_catalog.jsonb_agg(x) from (
        select o.slug, nullif(pg_catalog.btrim(o.firstname || ' ' || o.lastname), '') as name, o.profile_img as img, o.headline, o.city, o.type, o.id
        from public.profiles o
        where private.is_listed_profile(o) and pg_catalog.btrim(o.firstname || o.lastname) <> ''
        order by (o.profile_img is not null) desc, (o.headline is not null) desc, o.user_role in ('premium', 'enterprise') desc, o.updated_at desc
        limit 8) x), '[]'::jsonb),
    'companies', (select count(*) from public.profiles o where o.type = 'business' and private.is_listed_profile(o)),
    'cities', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', c, 'count', n) order by n desc, c) from (
        select min(city) as c, count(*) as n from (
          select city from public.profiles o where city is not null and private.is_listed_profile(o)
          union all select city from public.projects where status = 'published' and owner_listed and city is not null
          union all select city from public.events where status in ('published', 'upcoming', 'ongoing') and owner_listed and city is not null) y
        group by pg_catalog.lower(city) order by count(*) desc, min(city) limit 10) z), '[]'::jsonb),
    'plans', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', pl.id, 'name', pl.name, 'monthly_cents', pr.amount_cents,
               'features_en', pl.features_en, 'features_de', pl.features_de) order by pl.rank)
      from public.plans pl join public.prices pr on pr.plan_id = pl.id and pr.billing_period = 'monthly' and pr.active), '[]'::jsonb)
  )
$$;

/* Stores a fresh snapshot (pg_cron every 5 minutes). Returns it. */
create or replace function private.refresh_landing_cache()
returns jsonb
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.landing_cache (id, data, refreshed_at) values (1, private.build_landing_snapshot(), pg_catalog.now())
  on conflict (id) do update set data = excluded.data, refreshed_at = excluded.refreshed_at
  returning data
$$;
comment on function private.refresh_landing_cache() is 'pg_cron every 5 minutes: rebuilds the landing snapshot (issue 18).';

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* The landing page's live content (issue 18): { stats: { members, projects, cities,
   upcoming_events }, projects[6], events[4], people[8], companies, cities[10] {name, count},
   plans[] {id, name, monthly_cents, features_en, features_de}, refreshed_at }. At most 10
   minutes old; people and content of users hidden for the caller (blocks) are left out; owner
   ids are used for that and removed from the answer. Sets Cache-Control: public, max-age=300
   for anon. Read only (GET /rest/v1/rpc/landing_snapshot): a missing or stale cache is built
   live, the cron job stores it. Callable by anon and authenticated. */
create or replace function public.landing_snapshot()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  c private.landing_cache;
  v jsonb;
  hidden uuid[] := case when auth.uid() is null then '{}'::uuid[] else private.hidden_user_ids() end;
begin
  select * into c from private.landing_cache where id = 1;
  if not found or c.refreshed_at < pg_catalog.now() - interval '10 minutes' then
    v := private.build_landing_snapshot();
    c.refreshed_at := pg_catalog.now();
  else
    v := c.data;
  end if;
  if auth.uid() is null then
    perform pg_catalog.set_config('response.headers', '[{"Cache-Control": "public, max-age=300"}]', true);
  end if;
  return v
    || pg_catalog.jsonb_build_object(
      'projects', coalesce((select pg_catalog.jsonb_agg(x - 'owner' || pg_catalog.jsonb_build_object('owner', (x -> 'owner') - 'id'))
                            from pg_catalog.jsonb_array_elements(v -> 'projects') x where not ((x #>> '{owner,id}')::uuid = any (hidden))), '[]'::jsonb),
      'events', coalesce((select pg_catalog.jsonb_agg(x - 'owner' || pg_catalog.jsonb_build_object('owner', (x -> 'owner') - 'id'))
                          from pg_catalog.jsonb_array_elements(v -> 'events') x where not ((x #>> '{owner,id}')::uuid = any (hidden))), '[]'::jsonb),
      'people', coalesce((select pg_catalog.jsonb_agg(x - 'id')
                          from pg_catalog.jsonb_array_elements(v -> 'people') x where not ((x ->> 'id')::uuid = any (hidden))), '[]'::jsonb),
      'refreshed_at', c.refreshed_at);
end;
$$;
comment on function public.landing_snapshot() is 'anon/authenticated: the landing page''s live content, cached (issue 18).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function public.landing_snapshot() to anon, authenticated;
