-- =============================================================================
-- Profiles (spec §3) and profile meta: suspension, blocking
-- =============================================================================
-- Favourite projects and jobs live next to projects and jobs (they reference them).

-- -----------------------------------------------------------------------------
-- Types
-- -----------------------------------------------------------------------------
create type public.user_role as enum ('old_user', 'free', 'basic', 'premium', 'enterprise', 'admin');
comment on type public.user_role is
  'old_user = legacy account that must reset its password; basic/premium/enterprise follow the active subscription (sync_subscription).';
create type public.profile_type as enum ('business', 'other');
create type public.project_category as enum (
  'education', 'technology', 'business', 'art', 'community', 'environment', 'health', 'science', 'social', 'other');
comment on type public.project_category is 'The ten project categories (spec §1); also used for profiles, events and jobs.';

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  firstname text not null default '' check (char_length(firstname) <= 100),
  lastname text not null default '' check (char_length(lastname) <= 100),
  authenticated smallint not null default 0 check (authenticated in (0, 1)),
  user_role public.user_role not null default 'free',
  profile_visibility smallint not null default 1 check (profile_visibility in (0, 1)),
  profile_img text check (char_length(profile_img) <= 500),
  stripe_customer_id text unique,
  type public.profile_type not null default 'other',
  street text check (char_length(street) <= 200),
  house_number text check (char_length(house_number) <= 20),
  city text check (char_length(city) <= 100),
  state text check (char_length(state) <= 100),
  zipcode text check (char_length(zipcode) <= 20),
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 100),
  headline text check (char_length(headline) <= 160),
  bio text check (char_length(bio) <= 5000),
  skills text[] not null default '{}' check (cardinality(skills) <= 50),
  looking_for text check (char_length(looking_for) <= 2000),
  offering text check (char_length(offering) <= 2000),
  categories public.project_category[] not null default '{}',
  logo text check (char_length(logo) <= 500),
  gallery text[] not null default '{}' check (cardinality(gallery) <= 20),
  social_links jsonb not null default '{}'::jsonb check (
    jsonb_typeof(social_links) = 'object'
    and social_links - array['instagram', 'facebook', 'tiktok', 'youtube', 'linkedin', 'xing', 'whatsapp', 'telegram'] = '{}'::jsonb),
  preferred_language text not null default 'de' check (preferred_language in ('de', 'en')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is
  'One row per auth.users row (created by trigger on signup). Public profile at /u/{slug} (spec §3).';
comment on column public.profiles.authenticated is
  '1 = e-mail confirmed. Set only by the confirmation trigger on auth.users (spec §3, §7).';
comment on column public.profiles.user_role is
  'Changes only through service_role functions (sync_subscription, admin RPCs); users cannot raise it.';
comment on column public.profiles.profile_visibility is
  '1 = listed in the visible-users list, search and /u/{slug} for everyone; 0 = only self, contacts and chat partners.';
comment on column public.profiles.profile_img is 'Object path in the avatars bucket, "<user id>/<file>".';
comment on column public.profiles.stripe_customer_id is 'Stripe customer (cus_...), created once before the first checkout; service_role only.';
comment on column public.profiles.type is 'business shows the full address (display_address), other only the city.';
comment on column public.profiles.slug is 'Unique URL slug for /u/{slug}; generated from the name on signup.';
comment on column public.profiles.looking_for is 'What I seek (partners, co-founders, mentors, investors ...).';
comment on column public.profiles.offering is 'What I offer (skills, capital, time ...).';
comment on column public.profiles.categories is 'Project categories the person is interested in.';
comment on column public.profiles.gallery is 'Object paths in the avatars bucket.';
comment on column public.profiles.social_links is
  'URLs keyed by instagram, facebook, tiktok, youtube, linkedin, xing, whatsapp, telegram.';
comment on column public.profiles.latitude is 'WGS84 latitude of the city (not the street address).';
comment on column public.profiles.longitude is 'WGS84 longitude of the city.';

create index profiles_visible_idx on public.profiles (created_at desc) where authenticated = 1 and profile_visibility = 1;
create index profiles_visible_city_idx on public.profiles (city, created_at desc) where authenticated = 1 and profile_visibility = 1;
create index profiles_user_role_idx on public.profiles (user_role);

create table public.account_suspensions (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  reason text not null default '' check (char_length(reason) <= 1000),
  suspended_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.account_suspensions is
  'A row means the account is suspended (spec §3 meta key "suspended"): login refused, content hidden. Admin/service_role only.';
comment on column public.account_suspensions.suspended_by is 'Admin who suspended the account.';
create index account_suspensions_suspended_by_idx on public.account_suspensions (suspended_by);

create table public.user_blocks (
  blocker_id uuid not null references public.profiles (id) on delete cascade,
  blocked_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  constraint user_blocks_not_self check (blocker_id <> blocked_id)
);
comment on table public.user_blocks is
  'Blocked users (spec §3 meta key "blocked_users"). Symmetric effect: neither side sees the other anywhere.';
create index user_blocks_blocked_idx on public.user_blocks (blocked_id);

-- -----------------------------------------------------------------------------
-- Helpers (security definer so policies never query RLS tables directly)
-- -----------------------------------------------------------------------------
create or replace function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.profiles where id = auth.uid() and user_role = 'admin'
  )
$$;
comment on function private.is_admin() is 'True when the caller''s profile has user_role admin.';

create or replace function private.is_suspended(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.account_suspensions where user_id = p_user_id)
$$;
comment on function private.is_suspended(uuid) is 'True when the account is suspended.';

create or replace function private.is_blocked(a uuid, b uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select a is not null and b is not null and exists (
    select 1 from public.user_blocks
    where (blocker_id = a and blocked_id = b) or (blocker_id = b and blocked_id = a)
  )
$$;
comment on function private.is_blocked(uuid, uuid) is 'Symmetric: true when a blocked b or b blocked a.';

-- Ids the caller must not see: suspended accounts and everyone in a block with the caller.
-- Policies use it as `(select private.hidden_user_ids())` so it runs once per statement.
create or replace function private.hidden_user_ids()
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct x), '{}')
  from (
    select user_id as x from public.account_suspensions
    union all
    select blocked_id from public.user_blocks where blocker_id = auth.uid()
    union all
    select blocker_id from public.user_blocks where blocked_id = auth.uid()
  ) s
  where x is distinct from auth.uid()
$$;
comment on function private.hidden_user_ids() is
  'Suspended users plus users in a block relation with auth.uid() (never the caller); evaluated once per statement in policies.';

-- True when the caller may write: signed in and not suspended.
create or replace function private.caller_can_write()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select auth.uid() is not null
    and not exists (select 1 from public.account_suspensions where user_id = auth.uid())
$$;
comment on function private.caller_can_write() is 'Signed in and not suspended; gate for every user write.';

-- Users the caller has a relation with (contact request either way, or a shared conversation):
-- they may see each other's profile even when it is not publicly visible. PL/pgSQL so the
-- tables (created in later migrations) are resolved at call time.
create or replace function private.related_user_ids()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result uuid[];
begin
  if auth.uid() is null then
    return '{}';
  end if;
  select coalesce(array_agg(distinct x), '{}') into result
  from (
    select case when c.requester_id = auth.uid() then c.addressee_id else c.requester_id end as x
    from public.contacts c
    where c.requester_id = auth.uid() or c.addressee_id = auth.uid()
    union all
    select other.user_id
    from public.conversation_members mine
    join public.conversation_members other
      on other.conversation_id = mine.conversation_id and other.user_id <> mine.user_id
    where mine.user_id = auth.uid()
  ) s;
  return result;
end;
$$;
comment on function private.related_user_ids() is 'Contacts (any status) and chat partners of auth.uid().';

grant execute on function private.is_admin(), private.is_suspended(uuid), private.is_blocked(uuid, uuid),
  private.hidden_user_ids(), private.caller_can_write(), private.related_user_ids()
  to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Triggers
-- -----------------------------------------------------------------------------

-- Unique slug from the name (or the e-mail's local part); a short id suffix on collision.
create or replace function private.profile_slug(p_id uuid, p_firstname text, p_lastname text, p_email text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  base text := private.slugify(nullif(pg_catalog.btrim(coalesce(p_firstname, '') || ' ' || coalesce(p_lastname, '')), ''));
  candidate text;
begin
  if base = 'n-a' then
    base := private.slugify(pg_catalog.split_part(coalesce(p_email, ''), '@', 1));
  end if;
  candidate := base;
  if exists (select 1 from public.profiles where slug = candidate and id <> p_id) then
    candidate := base || '-' || pg_catalog.left(pg_catalog.replace(p_id::text, '-', ''), 6);
  end if;
  return candidate;
end;
$$;
comment on function private.profile_slug(uuid, text, text, text) is 'Slug for /u/{slug}: name-based, unique.';

-- Signup: auth.users insert -> profile with role free, authenticated 0 (1 when the provider
-- already confirmed the address, e.g. OAuth or admin-created users).
create or replace function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_first text := coalesce(meta ->> 'firstname', meta ->> 'first_name', meta ->> 'given_name',
                           pg_catalog.split_part(coalesce(meta ->> 'full_name', meta ->> 'name', ''), ' ', 1), '');
  v_last text := coalesce(meta ->> 'lastname', meta ->> 'last_name', meta ->> 'family_name',
                          nullif(pg_catalog.regexp_replace(coalesce(meta ->> 'full_name', meta ->> 'name', ''), '^\S+\s*', ''), ''), '');
  v_lang text := case when coalesce(meta ->> 'preferred_language', meta ->> 'lang', meta ->> 'locale') like 'en%' then 'en' else 'de' end;
  v_type public.profile_type := case when meta ->> 'type' = 'business' then 'business'::public.profile_type else 'other'::public.profile_type end;
begin
  insert into public.profiles (id, email, firstname, lastname, authenticated, user_role, type, preferred_language, slug)
  values (new.id, coalesce(new.email, ''), pg_catalog.left(v_first, 100), pg_catalog.left(v_last, 100),
          case when new.email_confirmed_at is not null then 1 else 0 end, 'free', v_type, v_lang,
          private.profile_slug(new.id, v_first, v_last, new.email));
  return new;
end;
$$;
comment on function private.handle_new_user() is
  'AFTER INSERT on auth.users: creates the profile from raw_user_meta_data (firstname, lastname, type, preferred_language).';

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

-- Keeps profiles.email equal to the confirmed auth e-mail.
create or replace function private.sync_profile_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = coalesce(new.email, '') where id = new.id and email is distinct from coalesce(new.email, '');
  return new;
end;
$$;
comment on function private.sync_profile_email() is 'AFTER UPDATE OF email on auth.users: mirrors the address into profiles.';

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.sync_profile_email();

-- Column guard: API users cannot touch id, email, stripe_customer_id, created_at; only admins
-- may change user_role and authenticated. SECURITY INVOKER so current_user is the caller.
create or replace function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.slug is null or new.slug = '' then
    new.slug := private.profile_slug(new.id, new.firstname, new.lastname, new.email);
  end if;
  if private.is_privileged() then
    return new;
  end if;
  if new.id is distinct from old.id or new.email is distinct from old.email
     or new.stripe_customer_id is distinct from old.stripe_customer_id
     or new.created_at is distinct from old.created_at then
    raise exception using errcode = '42501', message = 'protected_column',
      detail = 'id, email, stripe_customer_id and created_at change only through the service.';
  end if;
  if (new.user_role is distinct from old.user_role or new.authenticated is distinct from old.authenticated) then
    if not private.is_admin() then
      raise exception using errcode = '42501', message = 'protected_column',
        detail = 'user_role and authenticated change only through the service or an admin.';
    end if;
    perform private.audit('profile.role_changed', 'profiles', new.id::text,
      pg_catalog.jsonb_build_object('old_role', old.user_role, 'new_role', new.user_role,
                                    'old_authenticated', old.authenticated, 'new_authenticated', new.authenticated));
  end if;
  return new;
end;
$$;
comment on function private.guard_profile_update() is 'BEFORE UPDATE on profiles: protected columns (issue 4).';

create trigger profiles_guard before update on public.profiles
  for each row execute function private.guard_profile_update();
create trigger profiles_updated_at before update on public.profiles
  for each row execute function private.set_updated_at();

create or replace function private.audit_suspension()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.audit('account.suspended', 'profiles', new.user_id::text, pg_catalog.jsonb_build_object('reason', new.reason));
    return new;
  end if;
  perform private.audit('account.unsuspended', 'profiles', old.user_id::text, pg_catalog.jsonb_build_object('reason', old.reason));
  return old;
end;
$$;
comment on function private.audit_suspension() is 'Writes account.suspended / account.unsuspended to audit_log.';
create trigger account_suspensions_audit after insert or delete on public.account_suspensions
  for each row execute function private.audit_suspension();

-- -----------------------------------------------------------------------------
-- Owner flags on content (projects, portfolios, events): owner_listed = owner confirmed,
-- visible and not suspended; owner_premium = premium/enterprise. Denormalised so search and
-- lists filter and rank without joining profiles; kept current by the triggers below.
-- -----------------------------------------------------------------------------
create or replace function private.owner_listed(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.profiles p
    where p.id = p_user_id and p.authenticated = 1 and p.profile_visibility = 1
      and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))
$$;
comment on function private.owner_listed(uuid) is 'Owner is confirmed, visible and not suspended (content may appear in search).';

create or replace function private.owner_premium(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles where id = p_user_id and user_role in ('premium', 'enterprise'))
$$;
comment on function private.owner_premium(uuid) is 'Owner has a premium or enterprise plan (search preference, spec §6).';

-- BEFORE INSERT OR UPDATE on content tables; TG_ARGV[0] names the owner column.
create or replace function private.set_owner_flags()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  owner_id uuid := (pg_catalog.to_jsonb(new) ->> tg_argv[0])::uuid;
begin
  new.owner_listed := private.owner_listed(owner_id);
  new.owner_premium := private.owner_premium(owner_id);
  return new;
end;
$$;
comment on function private.set_owner_flags() is 'Recomputes owner_listed/owner_premium on content rows from the owner''s profile.';

-- Pushes a changed owner state to all their content rows.
create or replace function private.refresh_owner_flags(p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  listed boolean := private.owner_listed(p_user_id);
  premium boolean := private.owner_premium(p_user_id);
begin
  -- tables are created in later migrations; skip the ones that do not exist yet
  if pg_catalog.to_regclass('public.projects') is not null then
    update public.projects set owner_listed = listed, owner_premium = premium
    where owner_id = p_user_id and (owner_listed, owner_premium) is distinct from (listed, premium);
  end if;
  if pg_catalog.to_regclass('public.portfolios') is not null then
    update public.portfolios set owner_listed = listed, owner_premium = premium
    where owner_id = p_user_id and (owner_listed, owner_premium) is distinct from (listed, premium);
  end if;
  if pg_catalog.to_regclass('public.events') is not null then
    update public.events set owner_listed = listed, owner_premium = premium
    where organizer_id = p_user_id and (owner_listed, owner_premium) is distinct from (listed, premium);
  end if;
end;
$$;
comment on function private.refresh_owner_flags(uuid) is 'Updates owner_listed/owner_premium on the user''s projects, portfolios and events.';

create or replace function private.on_owner_state_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'profiles' then
    perform private.refresh_owner_flags(new.id);
  elsif tg_op = 'DELETE' then
    perform private.refresh_owner_flags(old.user_id);
  else
    perform private.refresh_owner_flags(new.user_id);
  end if;
  return null;
end;
$$;
comment on function private.on_owner_state_changed() is 'AFTER trigger: profile visibility/confirmation/role or suspension changed -> refresh content flags.';

create trigger profiles_owner_state after update of authenticated, profile_visibility, user_role on public.profiles
  for each row
  when ((old.authenticated, old.profile_visibility, old.user_role) is distinct from (new.authenticated, new.profile_visibility, new.user_role))
  execute function private.on_owner_state_changed();
create trigger account_suspensions_owner_state after insert or delete on public.account_suspensions
  for each row execute function private.on_owner_state_changed();

-- -----------------------------------------------------------------------------
-- Row-level security
-- -----------------------------------------------------------------------------
alter table public.profiles enable row level security;
alter table public.account_suspensions enable row level security;
alter table public.user_blocks enable row level security;

-- Visible, confirmed, not suspended, not blocked; plus self, contacts/chat partners and admins.
create policy profiles_select on public.profiles for select to anon, authenticated
using (
  id = (select auth.uid())
  or (select private.is_admin())
  or (
    not (id = any ((select private.hidden_user_ids())::uuid[]))
    and ((authenticated = 1 and profile_visibility = 1) or id = any ((select private.related_user_ids())::uuid[]))
  )
);
create policy profiles_update on public.profiles for update to authenticated
using ((select private.caller_can_write()) and (id = (select auth.uid()) or (select private.is_admin())))
with check (id = (select auth.uid()) or (select private.is_admin()));
create policy profiles_delete on public.profiles for delete to authenticated
using ((select private.is_admin()) and id <> (select auth.uid()));

create policy account_suspensions_select on public.account_suspensions for select to authenticated
using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy account_suspensions_insert on public.account_suspensions for insert to authenticated
with check ((select private.is_admin()) and user_id <> (select auth.uid()) and suspended_by = (select auth.uid()));
create policy account_suspensions_update on public.account_suspensions for update to authenticated
using ((select private.is_admin())) with check ((select private.is_admin()));
create policy account_suspensions_delete on public.account_suspensions for delete to authenticated
using ((select private.is_admin()));

create policy user_blocks_select on public.user_blocks for select to authenticated
using (blocker_id = (select auth.uid()) or (select private.is_admin()));
create policy user_blocks_insert on public.user_blocks for insert to authenticated
with check (blocker_id = (select auth.uid()) and (select private.caller_can_write()));
create policy user_blocks_delete on public.user_blocks for delete to authenticated
using (blocker_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- Grants (PostgREST roles); RLS narrows them per row
-- -----------------------------------------------------------------------------
revoke all on public.profiles, public.account_suspensions, public.user_blocks, public.audit_log from anon, authenticated;
grant select on public.profiles to anon;
grant select, update, delete on public.profiles to authenticated;
grant select, insert, update, delete on public.account_suspensions to authenticated;
grant select, insert, delete on public.user_blocks to authenticated;
grant select on public.audit_log to authenticated;
grant all on public.profiles, public.account_suspensions, public.user_blocks, public.audit_log to service_role;

create policy audit_log_select on public.audit_log for select to authenticated
using ((select private.is_admin()));
