-- =============================================================================
-- Profiles and accounts (spec §3, §4, §5; issues 4, 6, 12, 13): profiles, suspension,
-- blocking, settings, single-use account tokens, the Auth hooks, account deletion and the
-- data export (DSGVO Art. 17 and 20)
-- =============================================================================
-- Favourite projects and jobs live next to projects and jobs (they reference them). What
-- others read of a profile (public_profiles, visible_profiles) and the person's own profile
-- (my_profile) live in 09_public_profiles.sql: the premium card shows a featured project.
--
-- Column privileges (issue 12): row-level security filters rows, not columns, so no API role
-- holds a table-wide SELECT, INSERT or UPDATE; each table grants exactly the columns each role
-- may read and write (declared in supabase/exposure.ts, checked by
-- supabase/tests/exposure.test.ts). Private profile fields (e-mail, street, house number,
-- zipcode, Stripe customer id, role, confirmation state, visibility, language) reach only the
-- person (public.my_profile), admins (public.admin_list_users) and service_role. Columns that
-- decide order, ownership or state (created_at, counters, role, confirmation) get no
-- INSERT/UPDATE grant; triggers and security-definer functions maintain them.

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
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 100)
    constraint profiles_slug_not_reserved check (not private.is_reserved_slug(slug)),
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
  updated_at timestamptz not null default now(),
  profile_accent text check (profile_accent in ('blue', 'teal', 'green', 'violet', 'grape', 'orange', 'red')),
  profile_tagline text check (char_length(profile_tagline) between 1 and 120),
  -- references public.projects: the foreign key is declared with projects (40_public_profiles.sql)
  featured_project_id bigint,
  show_premium_badge boolean not null default true,
  listed boolean generated always as (authenticated = 1 and profile_visibility = 1) stored,
  show_exact_location boolean not null default false,
  constraint profiles_social_links_urls check (private.are_http_url_values(social_links)),
  constraint profiles_profile_img_ref check (profile_img is null or private.is_image_ref(profile_img)),
  constraint profiles_logo_ref check (logo is null or private.is_image_ref(logo)),
  constraint profiles_gallery_refs check (private.are_image_refs(gallery))
);
comment on table public.profiles is
  'One row per auth.users row (created by trigger on signup). Public profile at /u/{slug} (spec §3).';
comment on column public.profiles.authenticated is
  '1 = e-mail confirmed. Set only by the confirmation trigger on auth.users (spec §3, §7).';
comment on column public.profiles.user_role is
  'Changes only through service_role functions (sync_subscription, admin RPCs); users cannot raise it.';
comment on column public.profiles.profile_visibility is
  '1 = listed in the visible-users list, search and /u/{slug} for everyone; 0 = only self, contacts and chat partners.';
comment on column public.profiles.profile_img is 'Object path in the avatars bucket, "<user id>/<file>" (or an http(s) URL).';
comment on column public.profiles.stripe_customer_id is 'Stripe customer (cus_...), created once before the first checkout; service_role only.';
comment on column public.profiles.type is 'business shows the full address (display_address), other only the city.';
comment on column public.profiles.slug is 'Unique URL slug for /u/{slug}; generated from the name on signup.';
comment on column public.profiles.looking_for is 'What I seek (partners, co-founders, mentors, investors ...).';
comment on column public.profiles.offering is 'What I offer (skills, capital, time ...).';
comment on column public.profiles.categories is 'Project categories the person is interested in.';
comment on column public.profiles.gallery is 'Object paths in the avatars bucket.';
comment on column public.profiles.social_links is
  'http(s) URLs keyed by instagram, facebook, tiktok, youtube, linkedin, xing, whatsapp, telegram (check: private.are_http_url_values).';
comment on column public.profiles.latitude is 'WGS84 latitude of the city (not the street address).';
comment on column public.profiles.longitude is 'WGS84 longitude of the city.';
comment on column public.profiles.profile_accent is
  'Premium setting (spec §6): accent colour of the public profile, one of blue, teal, green, violet, grape, orange, red; null = none.';
comment on column public.profiles.profile_tagline is
  'Premium setting (spec §6): short tagline (1-120 characters) shown on the public profile; null = none.';
comment on column public.profiles.featured_project_id is
  'Premium setting (spec §6): the owner''s own published, non-private project featured on the profile; null = none.';
comment on column public.profiles.show_premium_badge is
  'Premium setting (spec §6): show the Premium badge on the public profile (default true).';
comment on column public.profiles.listed is
  'authenticated = 1 and profile_visibility = 1: the person appears in public lists (spec §6). Readable by everyone; the two source columns are private.';
comment on column public.profiles.logo is 'Logo: object path in the avatars bucket or an http(s) URL.';
comment on column public.profiles.show_exact_location is
  'Business profiles only: true = the map shows the written coordinates (the business address); otherwise the city''s (issue 14).';
create index profiles_user_role_idx on public.profiles (user_role);
create index profiles_featured_project_id_idx on public.profiles (featured_project_id);
create index profiles_listed_idx on public.profiles (created_at desc) where listed;
create index profiles_listed_city_idx on public.profiles (city, created_at desc) where listed;
create index profiles_map_idx on public.profiles using gist (point(longitude, latitude))
  where listed and latitude is not null and longitude is not null;
alter table public.profiles enable row level security;
revoke all on public.profiles from anon, authenticated;
grant select (id, firstname, lastname, profile_img, type, city, state, latitude, longitude, slug, headline,
              bio, skills, looking_for, offering, categories, logo, gallery, social_links, created_at,
              updated_at, listed, show_exact_location)
  on public.profiles to anon, authenticated;
grant update (firstname, lastname, profile_visibility, profile_img, type, street, house_number, city, state,
              zipcode, latitude, longitude, slug, headline, bio, skills, looking_for, offering, categories,
              logo, gallery, social_links, preferred_language, profile_accent, profile_tagline,
              featured_project_id, show_premium_badge, show_exact_location)
  on public.profiles to authenticated;
grant delete on public.profiles to authenticated;

-- `listed` is a public fact (it decides whether the person is in public lists); the raw
-- authenticated/profile_visibility columns stay private.

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
alter table public.account_suspensions enable row level security;
revoke all on public.account_suspensions from anon, authenticated;
grant select (user_id, reason, suspended_by, created_at) on public.account_suspensions to authenticated;
grant insert (user_id, reason, suspended_by) on public.account_suspensions to authenticated;
grant update (reason) on public.account_suspensions to authenticated;
grant delete on public.account_suspensions to authenticated;

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
alter table public.user_blocks enable row level security;
revoke all on public.user_blocks from anon, authenticated;
grant select (blocker_id, blocked_id, created_at) on public.user_blocks to authenticated;
grant insert (blocker_id, blocked_id) on public.user_blocks to authenticated;
grant delete on public.user_blocks to authenticated;

create table public.user_settings (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  show_online_status boolean not null default true,
  email_contact_requests boolean not null default true,
  email_messages boolean not null default true,
  updated_at timestamptz not null default now(),
  email_event_updates boolean not null default true,
  email_match_digest boolean not null default true
);
comment on table public.user_settings is
  'Per-user privacy and notification switches (issue 13). No row = defaults (all true). Only the owner reads and writes.';
comment on column public.user_settings.show_online_status is
  'Show my online status: when false the user appears offline to everyone and sees no one''s presence or last seen (reciprocity).';
comment on column public.user_settings.email_contact_requests is 'E-mail when someone sends me a contact request.';
comment on column public.user_settings.email_messages is 'E-mail when chat messages stay unread for 15 minutes (at most one per conversation and day).';
comment on column public.user_settings.email_event_updates is
  'E-mail when an event I attend or wait for changes its time, place or link, is cancelled, and a reminder 24 hours before (issue 16).';
comment on column public.user_settings.email_match_digest is
  'Weekly "new matches" e-mail (issue 19, Premium and Enterprise); off = none. Also switched off by the mail''s one-click unsubscribe.';
alter table public.user_settings enable row level security;
revoke all on public.user_settings from anon, authenticated;
grant select (user_id, show_online_status, email_contact_requests, email_messages, updated_at,
              email_event_updates, email_match_digest)
  on public.user_settings to authenticated;
grant insert (user_id, show_online_status, email_contact_requests, email_messages, email_event_updates,
              email_match_digest)
  on public.user_settings to authenticated;
grant update (show_online_status, email_contact_requests, email_messages, email_event_updates,
              email_match_digest)
  on public.user_settings to authenticated;

-- Single-use account tokens (issue 6: "old tokens stop working after use"). Confirm and reset
-- tokens are stateless HMAC-signed values (supabase/functions/_shared/tokens.ts); a reset token
-- must work only once: complete-password-reset records its nonce here before it sets the
-- password, and a second use of the same token finds the nonce and is refused.
-- Not exposed (schema private); only public.consume_auth_token() (security definer) reads and
-- writes it. RLS without policies makes that explicit: no API role can touch it.
create table private.consumed_auth_tokens (
  nonce text primary key check (char_length(nonce) between 16 and 64),
  user_id uuid not null references auth.users (id) on delete cascade,
  purpose text not null check (purpose in ('confirm', 'reset', 'cancel_contract')),
  consumed_at timestamptz not null default now(),
  expires_at timestamptz not null
);
comment on table private.consumed_auth_tokens is
  'Nonces of used confirm/reset tokens; a token whose nonce is here is refused. Rows past expires_at (+1 day) are pruned.';
comment on column private.consumed_auth_tokens.expires_at is 'When the token would have expired anyway; after that the row is no longer needed.';
create index consumed_auth_tokens_user_idx on private.consumed_auth_tokens (user_id);
create index consumed_auth_tokens_expires_idx on private.consumed_auth_tokens (expires_at);
alter table private.consumed_auth_tokens enable row level security;
revoke all on private.consumed_auth_tokens from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

-- Sign-up and Auth user changes (auth.users -> profiles)
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
comment on function private.sync_profile_email() is 'AFTER UPDATE OF email on auth.users: copies the address into profiles.';
create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.sync_profile_email();

-- Confirmation -> welcome mail and password change -> free live with the e-mail queue (03_email.sql).

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

-- BEFORE INSERT/UPDATE guard. Security definer so it can check the project regardless of the
-- caller's RLS view. Errors: P0001 premium_required, P0001 featured_project_invalid.
create or replace function private.guard_premium_profile()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed boolean;
begin
  if tg_op = 'INSERT' then
    changed := new.profile_accent is not null or new.profile_tagline is not null
      or new.featured_project_id is not null or new.show_premium_badge is distinct from true;
  else
    changed := (new.profile_accent is distinct from old.profile_accent and new.profile_accent is not null)
      or (new.profile_tagline is distinct from old.profile_tagline and new.profile_tagline is not null)
      or (new.featured_project_id is distinct from old.featured_project_id and new.featured_project_id is not null)
      or (new.show_premium_badge is distinct from old.show_premium_badge and new.show_premium_badge is distinct from true);
  end if;
  if changed and new.user_role not in ('premium', 'enterprise', 'admin') then
    raise exception using errcode = 'P0001', message = 'premium_required',
      detail = 'Premium profile settings need the premium or enterprise plan (spec §6).';
  end if;
  if new.featured_project_id is not null
     and (tg_op = 'INSERT' or new.featured_project_id is distinct from old.featured_project_id)
     and not exists (select 1 from public.projects p
                     where p.id = new.featured_project_id and p.owner_id = new.id
                       and p.status = 'published' and not p.is_private) then
    raise exception using errcode = 'P0001', message = 'featured_project_invalid',
      detail = 'The featured project must be one of your own published, non-private projects.';
  end if;
  return new;
end;
$$;
comment on function private.guard_premium_profile() is
  'BEFORE INSERT/UPDATE on profiles: premium settings need role premium/enterprise/admin (P0001 premium_required); featured project must be the owner''s published project (P0001 featured_project_invalid). Spec §6.';
create trigger profiles_premium_guard before insert or update of profile_accent, profile_tagline, featured_project_id, show_premium_badge
  on public.profiles for each row execute function private.guard_premium_profile();
create trigger profiles_updated_at before update on public.profiles
  for each row execute function private.set_updated_at();
create trigger user_settings_updated_at before update on public.user_settings
  for each row execute function private.set_updated_at();

-- Suspension: audited, and the account's sessions end at once (the custom access token hook
-- refuses new sign-ins after the password check, see public.custom_access_token_hook).
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

/* AFTER INSERT on account_suspensions: ends the account's sessions (refresh tokens go with them),
   so no new access token is issued; the hook refuses new sign-ins. */
create or replace function private.end_sessions_on_suspension()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from auth.sessions where user_id = new.user_id;
  return new;
end;
$$;
comment on function private.end_sessions_on_suspension() is
  'AFTER INSERT on account_suspensions: deletes the auth sessions of the suspended account (issue 12).';
create trigger account_suspensions_end_sessions
  after insert on public.account_suspensions
  for each row execute function private.end_sessions_on_suspension();

-- Owner flags on content (projects, portfolios, events): owner_listed = owner confirmed, visible
-- and not suspended; owner_premium = premium/enterprise. Denormalised so search and lists filter
-- and rank without joining profiles; kept current by these triggers (the BEFORE trigger on each
-- content table lives with that table).
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
-- Helper functions
-- -----------------------------------------------------------------------------

-- Security definer helpers, so policies never query RLS tables directly (STYLE.md).
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

-- PL/pgSQL like caller_can_write: it runs for every chat message (issue 34), and a SQL function
-- with `set search_path` is planned again on every call while PL/pgSQL keeps its plan.
create or replace function private.is_blocked(a uuid, b uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return a is not null and b is not null and exists (
    select 1 from public.user_blocks
    where (blocker_id = a and blocked_id = b) or (blocker_id = b and blocked_id = a)
  );
end;
$$;
comment on function private.is_blocked(uuid, uuid) is 'Symmetric: true when a blocked b or b blocked a.';

-- Ids the caller must not see: suspended accounts and everyone in a block with the caller.
-- Policies use it as `(select private.hidden_user_ids())` so it runs once per statement.
-- PL/pgSQL (issue 34): as a SQL function with `set search_path` it was planned again on every
-- call (0.8 ms of each search and map_items call); PL/pgSQL keeps the plan of its statement,
-- which has no parameters, per session (even inside functions that force custom plans).
create or replace function private.hidden_user_ids()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(pg_catalog.array_agg(distinct x), '{}')
    from (
      select user_id as x from public.account_suspensions
      union all
      select blocked_id from public.user_blocks where blocker_id = auth.uid()
      union all
      select blocker_id from public.user_blocks where blocked_id = auth.uid()
    ) s
    where x is distinct from auth.uid());
end;
$$;
comment on function private.hidden_user_ids() is
  'Suspended users plus users in a block relation with auth.uid() (never the caller); evaluated once per statement in policies.';

-- True when the caller may write: signed in and not suspended. PL/pgSQL: it gates every write
-- (every chat message, issue 34), and a SQL function with `set search_path` is never inlined and
-- planned again on every call, while PL/pgSQL keeps its plan per session.
create or replace function private.caller_can_write()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  return me is not null
    and not exists (select 1 from public.account_suspensions where user_id = me);
end;
$$;
comment on function private.caller_can_write() is 'Signed in and not suspended; gate for every user write.';

create or replace function private.related_user_ids()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  result uuid[];
begin
  if me is null then
    return '{}';
  end if;
  select coalesce(array_agg(distinct x), '{}') into result
  from (
    select case when c.requester_id = me then c.addressee_id else c.requester_id end as x
    from public.contacts c
    where (c.requester_id = me or c.addressee_id = me) and c.status = 'accepted'
    union all
    select c.requester_id
    from public.contacts c
    where c.addressee_id = me and c.status = 'pending'
    union all
    select other.user_id
    from public.conversation_members mine
    join public.conversation_members other
      on other.conversation_id = mine.conversation_id and other.user_id <> mine.user_id
    where mine.user_id = me
      and (exists (select 1 from public.conversations c where c.id = other.conversation_id and c.created_by = other.user_id)
           or exists (select 1 from public.messages m where m.conversation_id = other.conversation_id and m.sender_id = other.user_id))
  ) s;
  return result;
end;
$$;
comment on function private.related_user_ids() is
  'People whose hidden profile auth.uid() may see because they agreed: accepted contacts, senders of requests to me, chat partners who took part (issue 12 finding 4).';

/* The profiles policy as a function: may the caller see profile p_user_id? (self, admins, or not
   hidden and either listed or related by the other's consent). */
create or replace function private.can_see_profile(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and (
    p_user_id = auth.uid()
    or private.is_admin()
    or (not (p_user_id = any (private.hidden_user_ids()))
        and (exists (select 1 from public.profiles p where p.id = p_user_id and p.listed)
             or p_user_id = any (private.related_user_ids()))))
$$;
comment on function private.can_see_profile(uuid) is 'True when the profiles policy lets auth.uid() read profile p_user_id.';

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
  if private.is_reserved_slug(candidate) or exists (select 1 from public.profiles where slug = candidate and id <> p_id) then
    candidate := base || '-' || pg_catalog.left(pg_catalog.replace(p_id::text, '-', ''), 6);
  end if;
  return candidate;
end;
$$;
comment on function private.profile_slug(uuid, text, text, text) is 'Slug for /u/{slug}: name-based, unique, never a reserved slug (a short id suffix then).';

-- PL/pgSQL (issue 34): search calls it for every hit of a page, and as a SQL function with `set
-- search_path` it was planned again on every call (0.16 ms each, 3 ms of a 20-hit page).
create or replace function private.owner_listed(p_user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.profiles p
    where p.id = p_user_id and p.authenticated = 1 and p.profile_visibility = 1
      and not exists (select 1 from public.account_suspensions s where s.user_id = p.id));
end;
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

/* Display name for everyone but the person and admins: "firstname lastname", else the slug.
   Spec §3 falls back to the e-mail, which is private since issue 12; the slug is already public
   (and derived from the same name or the e-mail's local part). */
create or replace function private.public_display_name(p_firstname text, p_lastname text, p_slug text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(nullif(pg_catalog.btrim(coalesce(p_firstname, '') || ' ' || coalesce(p_lastname, '')), ''), p_slug)
$$;
comment on function private.public_display_name(text, text, text) is
  'Spec §3 display name without the e-mail fallback (slug instead): what others see.';

/* Display address (spec §3) of a profile by id: business profiles show street + house number,
   city, state, zipcode; everyone else only the city. Security definer because street, house
   number and zipcode are not readable by API roles; callers pass only ids of rows they can see. */
create or replace function private.public_display_address(p_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when p.type = 'business' then pg_catalog.array_to_string(array_remove(array[
      nullif(pg_catalog.btrim(coalesce(pg_catalog.btrim(p.street), '') || ' ' || coalesce(pg_catalog.btrim(p.house_number), '')), ''),
      nullif(pg_catalog.btrim(p.city), ''),
      nullif(pg_catalog.btrim(p.state), ''),
      nullif(pg_catalog.btrim(p.zipcode), '')], null), ', ')
    else coalesce(pg_catalog.btrim(p.city), '')
  end
  from public.profiles p where p.id = p_id
$$;
comment on function private.public_display_address(uuid) is
  'Spec §3 display address of profile p_id (business: full address; otherwise the city).';

-- Computed fields that took the whole row would need every column (a whole-row reference checks
-- SELECT on all columns), so they leave the API; internal callers use the private copies.
create or replace function private.display_name(p public.profiles)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(nullif(pg_catalog.btrim(coalesce(p.firstname, '') || ' ' || coalesce(p.lastname, '')), ''), p.email)
$$;
comment on function private.display_name(public.profiles) is
  'Spec §3 display name with the e-mail fallback: only for the person, admins and mails.';

-- Account deletion (DSGVO Art. 17; issue 6). Deleting the auth.users row removes the profile and
-- everything that references it (on delete cascade), as the Auth admin API's deleteUser would.
-- The profile's deletion queues the Stripe cancellation of its subscriptions and the confirmation
-- mail (trigger profiles_delete_cancels_subscriptions, 04_billing.sql; issue 32 §1); the SPA calls
-- these through the delete-account function, which cancels at Stripe right away.
create or replace function private.delete_my_account(p_email text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  my_email text;
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  select u.email into my_email from auth.users u where u.id = me;
  if my_email is null or pg_catalog.lower(pg_catalog.btrim(coalesce(p_email, ''))) <> pg_catalog.lower(my_email) then
    raise exception using errcode = '22023', message = 'email_mismatch',
      detail = 'Type the e-mail address of your account to confirm the deletion.';
  end if;
  delete from auth.users where id = me;
end;
$$;
comment on function private.delete_my_account(text) is 'Implementation of public.delete_my_account.';

/* Errors: 42501 forbidden (not an admin; 403); 22023 cannot_delete_self (400); PT404 not_found (404). */
create or replace function private.admin_delete_user(p_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception using errcode = '42501', message = 'forbidden', detail = 'Only administrators may delete users.';
  end if;
  if p_user_id is null or p_user_id = auth.uid() then
    raise exception using errcode = '22023', message = 'cannot_delete_self', detail = 'Administrators cannot delete their own account here.';
  end if;
  delete from auth.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'PT404', message = 'not_found', detail = 'User not found.';
  end if;
end;
$$;
comment on function private.admin_delete_user(uuid) is 'Implementation of public.admin_delete_user.';

-- The caller's own block list (issue 8 "Blocking and unblocking from a profile"). A block hides
-- both people from each other (private.hidden_user_ids in the profiles policy), so once the
-- blocker leaves the profile page they could no longer reach the person to unblock them. This
-- lists the people the CALLER blocked, with just enough to recognise them (name, slug, avatar)
-- and when. It never lists who blocked the caller, and RLS stays as it is. Security definer in
-- private (reads profiles past the block), security invoker wrapper in public like the other RPCs
-- (advisors: no security definer function in an exposed schema).
create or replace function private.my_blocked_users(p_slug text)
returns table (user_id uuid, display_name text, slug text, profile_img text, blocked_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, private.public_display_name(p.firstname, p.lastname, p.slug), p.slug, p.profile_img, b.created_at
  from public.user_blocks b
  join public.profiles p on p.id = b.blocked_id
  where b.blocker_id = auth.uid()
    and auth.uid() is not null
    and (p_slug is null or p.slug = p_slug)
  order by b.created_at desc, p.id
$$;
comment on function private.my_blocked_users(text) is
  'Implementation of public.my_blocked_users (rows of user_blocks where blocker_id = auth.uid(); public display name).';

/* Admin user list (spec §2 /admin/users): newest first, filtered by e-mail or name (case
   insensitive substring), with suspension. total = all matching rows (for paging).
   p_limit 1..100 (default 20), p_offset >= 0. Errors: 42501 forbidden (not an admin),
   22023 invalid_paging. */
create or replace function private.admin_list_users(p_search text, p_limit integer, p_offset integer)
returns table (
  id uuid, email text, firstname text, lastname text, user_role public.user_role, authenticated smallint,
  created_at timestamptz, suspended boolean, total bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_term text := nullif(pg_catalog.btrim(coalesce(p_search, '')), '');
begin
  if not private.is_admin() then
    raise exception using errcode = '42501', message = 'forbidden', detail = 'Only administrators may list users.';
  end if;
  if coalesce(p_limit, 20) not between 1 and 100 or coalesce(p_offset, 0) < 0 then
    raise exception using errcode = '22023', message = 'invalid_paging', detail = 'p_limit 1..100, p_offset >= 0.';
  end if;
  return query
    select p.id, p.email, p.firstname, p.lastname, p.user_role, p.authenticated, p.created_at,
           private.is_suspended(p.id), pg_catalog.count(*) over ()
    from public.profiles p
    where v_term is null
       or pg_catalog.strpos(pg_catalog.lower(p.email), pg_catalog.lower(v_term)) > 0
       or pg_catalog.strpos(pg_catalog.lower(p.firstname), pg_catalog.lower(v_term)) > 0
       or pg_catalog.strpos(pg_catalog.lower(p.lastname), pg_catalog.lower(v_term)) > 0
    order by p.created_at desc, p.id
    limit coalesce(p_limit, 20) offset coalesce(p_offset, 0);
end;
$$;
comment on function private.admin_list_users(text, integer, integer) is 'Implementation of public.admin_list_users.';

-- DSGVO Art. 20 data export, built in three layers: the base export (profile, content,
-- favourites, blocks, contacts, messages sent, subscriptions, feedback, newsletter, mails), then
-- the caller's tickets and settings (issue 16), then the organisation memberships and the
-- invitations to the caller's address (issue 15). public.export_my_data returns the outer layer.
create or replace function private.export_my_data_base()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception using errcode = '28000', message = 'not_authenticated';
  end if;
  return pg_catalog.jsonb_build_object(
    'exported_at', pg_catalog.now(),
    'profile', (select pg_catalog.to_jsonb(p) - 'search_de' - 'search_en' from public.profiles p where p.id = me),
    'suspension', (select pg_catalog.to_jsonb(s) from public.account_suspensions s where s.user_id = me),
    'subscriptions', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(s) order by s.created_at), '[]') from public.subscriptions s where s.user_id = me),
    'projects', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.projects x where x.owner_id = me),
    'portfolios', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.portfolios x where x.owner_id = me),
    'portfolio_files', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.id), '[]') from public.portfolio_files x where x.owner_id = me),
    'events', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'search_de' - 'search_en' order by x.id), '[]') from public.events x where x.organizer_id = me),
    'event_rsvps', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.event_attendees x where x.user_id = me),
    'favourite_projects', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.favourite_projects x where x.user_id = me),
    'favourite_jobs', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.favourite_jobs x where x.user_id = me),
    'blocked_users', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.user_blocks x where x.blocker_id = me),
    'contacts', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.contacts x where me in (x.requester_id, x.addressee_id)),
    'conversations', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.joined_at), '[]') from public.conversation_members x where x.user_id = me),
    'messages_sent', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.messages x where x.sender_id = me),
    'feedback', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.feedback x where x.user_id = me),
    'contact_messages', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) order by x.created_at), '[]') from public.contact_messages x where x.user_id = me),
    'newsletter', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) - 'token' order by x.created_at), '[]') from public.newsletter_subscribers x
                   where x.user_id = me or pg_catalog.lower(x.email) = (select pg_catalog.lower(p.email) from public.profiles p where p.id = me)),
    'emails', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('type', x.email_type, 'status', x.status, 'created_at', x.created_at, 'sent_at', x.sent_at) order by x.created_at), '[]')
               from public.email_queue x where x.user_id = me)
  );
end;
$$;
comment on function private.export_my_data_base() is 'Implementation of public.export_my_data.';

create or replace function private.export_my_data_before_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  return private.export_my_data_base() || pg_catalog.jsonb_build_object(
    'event_tickets', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t) - 'refund_error' - 'refund_attempts' - 'refund_next_attempt_at' order by t.created_at), '[]')
                      from public.event_tickets t where t.user_id = me),
    'settings', (select pg_catalog.to_jsonb(s) from public.user_settings s where s.user_id = me));
end;
$$;
comment on function private.export_my_data_before_organizations() is 'Implementation of public.export_my_data: the base export (20261121001400) plus tickets and settings (issue 16).';

create or replace function private.export_my_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  return private.export_my_data_before_organizations() || pg_catalog.jsonb_build_object(
    'organization_memberships', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('organization_id', o.id, 'slug', o.slug, 'name', o.name,
               'role', m.role, 'listed', m.listed, 'joined_at', m.joined_at) order by m.joined_at), '[]')
      from public.organization_members m join public.organizations o on o.id = m.organization_id where m.user_id = me),
    'organization_invitations_received', (
      select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('organization', o.name, 'email', i.email, 'role', i.role,
               'created_at', i.created_at, 'expires_at', i.expires_at, 'accepted_at', i.accepted_at, 'declined_at', i.declined_at,
               'revoked_at', i.revoked_at) order by i.created_at), '[]')
      from public.organization_invitations i join public.organizations o on o.id = i.organization_id
      join public.profiles p on p.id = me and pg_catalog.lower(p.email) = pg_catalog.lower(i.email)));
end;
$$;
comment on function private.export_my_data() is
  'Implementation of public.export_my_data: the earlier export plus organisation memberships and invitations to the caller''s address (issue 15).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

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
create policy user_settings_select on public.user_settings for select to authenticated
using (user_id = (select auth.uid()));
create policy user_settings_insert on public.user_settings for insert to authenticated
with check (user_id = (select auth.uid()));
create policy user_settings_update on public.user_settings for update to authenticated
using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* DSGVO Art. 20: everything stored about the caller as one JSON document (profile, content,
   favourites, blocks, contacts, messages sent, subscriptions, feedback, newsletter, mails).
   Errors: 28000 not_authenticated. */
create or replace function public.export_my_data()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.export_my_data()
$$;
comment on function public.export_my_data() is 'DSGVO Art. 20 data export of the caller (JSON).';

/* Records a token's nonce. Returns true on first use, false when the nonce was already used.
   Also prunes rows expired for more than a day (cheap: index on expires_at). */
create or replace function public.consume_auth_token(p_nonce text, p_user_id uuid, p_purpose text, p_expires_at timestamptz)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  inserted integer;
begin
  delete from private.consumed_auth_tokens where expires_at < pg_catalog.now() - interval '1 day';
  insert into private.consumed_auth_tokens (nonce, user_id, purpose, expires_at)
  values (p_nonce, p_user_id, p_purpose, p_expires_at)
  on conflict (nonce) do nothing;
  get diagnostics inserted = row_count;
  return inserted = 1;
end;
$$;
comment on function public.consume_auth_token(text, uuid, text, timestamptz) is
  'service_role: mark a confirm/reset token as used; true on first use, false on reuse (issue 6).';

/* DSGVO Art. 17: deletes the caller's account and all their data. p_email must repeat the
   account's e-mail address (case-insensitive) as confirmation.
   Errors: 28000 not_authenticated; 22023 email_mismatch. */
create or replace function public.delete_my_account(p_email text)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.delete_my_account(p_email)
$$;
comment on function public.delete_my_account(text) is 'DSGVO Art. 17: deletes the caller''s own account (confirmed by the typed e-mail).';

/* Admin user management (spec §2 /admin/users): deletes a user's auth account, profile and data.
   Errors: 42501 forbidden (not an admin); 22023 cannot_delete_self; P0002 not_found. */
create or replace function public.admin_delete_user(p_user_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.admin_delete_user(p_user_id)
$$;
comment on function public.admin_delete_user(uuid) is
  'Admins: delete a user (auth account, profile and data). Errors 42501 forbidden, 22023 cannot_delete_self, PT404 not_found.';

/* The users the caller has blocked (issue 8, spec §3 meta key "blocked_users"), newest block
   first: user_id, display_name (spec §3 rule), slug, profile_img (avatars bucket path) and
   blocked_at. p_slug (optional) narrows the list to the person behind one /u/{slug}, so that
   page can offer "Unblock" although RLS hides the profile. Only blocks made BY the caller:
   someone who blocked the caller never appears. anon: 42501 (no execute grant). */
create or replace function public.my_blocked_users(p_slug text default null)
returns table (user_id uuid, display_name text, slug text, profile_img text, blocked_at timestamptz)
language sql
stable
set search_path = ''
as $$
  select * from private.my_blocked_users(p_slug)
$$;
comment on function public.my_blocked_users(text) is
  'Users the caller blocked (newest first), optionally only the one with slug p_slug; never who blocked the caller. Authenticated only.';

/* Admins: one page of users with their private fields (see private.admin_list_users). */
create or replace function public.admin_list_users(p_search text default null, p_limit integer default 20, p_offset integer default 0)
returns table (
  id uuid, email text, firstname text, lastname text, user_role public.user_role, authenticated smallint,
  created_at timestamptz, suspended boolean, total bigint
)
language sql
stable
set search_path = ''
as $$
  select * from private.admin_list_users(p_search, p_limit, p_offset)
$$;
comment on function public.admin_list_users(text, integer, integer) is
  'Admins: users with e-mail, role and state, newest first, filtered by e-mail/name; 42501 for everyone else.';

-- Auth hooks (issue 12 findings 10 and 12; supabase/config.toml [auth.hook.*]). The custom access
-- token hook decides for every token Auth issues (password, refresh, PKCE, OAuth, magic link),
-- i.e. only after the password was verified:
--   * suspended account  -> HTTP 403 (and a suspension ends the account's sessions at once);
--   * legacy old_user    -> HTTP 409 until the password reset (complete-password-reset) makes
--                           the account `free`.
-- Wrong passwords get Auth's usual 400 invalid_credentials, the same as unknown addresses.
/* GoTrue custom access token hook. Input `{ user_id, claims, authentication_method }`; output
   `{ claims }` (unchanged) or `{ error: { http_code, message } }`, which refuses the token.
   Executed by Auth only (supabase_auth_admin), never by API roles. */
create or replace function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user uuid;
  v_role public.user_role;
begin
  begin
    v_user := (event ->> 'user_id')::uuid;
  exception when invalid_text_representation then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object('http_code', 400, 'message', 'Invalid user id'));
  end;
  if exists (select 1 from public.account_suspensions s where s.user_id = v_user) then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 403, 'message', 'Your account has been suspended. Please contact support.'));
  end if;
  select p.user_role into v_role from public.profiles p where p.id = v_user;
  if v_role = 'old_user' then
    return pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 409, 'message', 'Please set a new password (legacy account).'));
  end if;
  return pg_catalog.jsonb_build_object('claims', event -> 'claims');
end;
$$;
comment on function public.custom_access_token_hook(jsonb) is
  'Auth hook: refuses tokens of suspended (403) and legacy old_user (409) accounts after the password check (issue 12).';

/* GoTrue before-user-created hook (issue 12 finding 12): sign-ups through Auth itself with e-mail
   (password or magic link) or anonymously skip the product's password rules and terms, so they
   are refused (HTTP 403); the product's sign-up is the register function (admin API, not seen by
   this hook). OAuth sign-ins still create accounts. Output `{}` or `{ error: { http_code,
   message } }`. */
create or replace function public.before_user_created_hook(event jsonb)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case
    when coalesce((event #>> '{user,is_anonymous}')::boolean, false)
      or coalesce(event #>> '{user,app_metadata,provider}', 'email') = 'email'
    then pg_catalog.jsonb_build_object('error', pg_catalog.jsonb_build_object(
      'http_code', 403, 'message', 'Please sign up on the registration page.'))
    else '{}'::jsonb
  end
$$;
comment on function public.before_user_created_hook(jsonb) is
  'Auth hook: refuses self sign-ups with e-mail or anonymous ones (register is the sign-up); OAuth passes (issue 12).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.is_admin(),
  private.is_suspended(uuid),
  private.is_blocked(uuid, uuid),
  private.hidden_user_ids(),
  private.caller_can_write(),
  private.related_user_ids(),
  private.public_display_name(text, text, text),
  private.public_display_address(uuid) to anon, authenticated, service_role;
grant execute on function public.export_my_data(),
  private.delete_my_account(text),
  public.delete_my_account(text),
  private.admin_delete_user(uuid),
  public.admin_delete_user(uuid),
  public.my_blocked_users(text),
  public.admin_list_users(text, integer, integer),
  private.export_my_data() to authenticated;
grant execute on function private.my_blocked_users(text),
  private.display_name(public.profiles),
  private.admin_list_users(text, integer, integer),
  private.can_see_profile(uuid) to authenticated, service_role;
grant execute on function public.custom_access_token_hook(jsonb),
  public.before_user_created_hook(jsonb) to supabase_auth_admin;
-- Auth calls its Postgres-function hooks as supabase_auth_admin, which needs usage on their schema
-- (docs "Auth Hooks", Postgres hooks: hosted projects have no such grant by default; issue 29 §7).
grant usage on schema public to supabase_auth_admin;
