-- =============================================================================
-- Column-level privileges on every API table (issue 12, findings 1 and 6)
-- =============================================================================
-- Row-level security filters rows, not columns: a table readable by anon exposed every column of
-- the rows RLS let through (e-mail, street, Stripe ids, role of every visible profile). From here
-- on no API role holds a table-wide SELECT, INSERT or UPDATE privilege on a table with columns
-- that are not for everyone: each table grants exactly the columns each role may read and write.
-- The declared list lives next to the schema in supabase/exposure.ts and the test
-- supabase/tests/exposure.test.ts compares it with the database, so a new column or table is
-- private until someone declares it.
--
-- Private profile fields (e-mail, street, house number, zipcode, Stripe customer id, role,
-- confirmation state, visibility, language) reach only:
--   * the person:  public.my_profile()           (security definer, rows of auth.uid() only)
--   * admins:      public.admin_list_users(...)  (security definer, is_admin() checked)
--   * service_role (Edge Functions), which keeps every privilege.
--
-- Columns that decide order, ownership or state (created_at, published_at, owner ids after
-- insert, counters, owner_listed/owner_premium, confirmation, role) get no INSERT/UPDATE grant;
-- triggers and security-definer RPCs maintain them.

-- -----------------------------------------------------------------------------
-- Profiles: `listed` = confirmed and visible, a public fact (it decides whether the person is in
-- public lists) and the filter of public.visible_profiles; the raw columns stay private.
-- -----------------------------------------------------------------------------
alter table public.profiles
  add column listed boolean generated always as (authenticated = 1 and profile_visibility = 1) stored;
comment on column public.profiles.listed is
  'authenticated = 1 and profile_visibility = 1: the person appears in public lists (spec §6). Readable by everyone; the two source columns are private.';

-- -----------------------------------------------------------------------------
-- Public display helpers (spec §3) that need no private column from the caller
-- -----------------------------------------------------------------------------

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

/* Premium profile settings (spec §6) of profile p_id while its plan is premium or enterprise, else
   null: {accent, tagline, show_badge, featured_project{id,slug,title,summary}|null}. The featured
   project appears only while it is published and not private. */
create or replace function private.public_premium_profile(p_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when o.user_role in ('premium', 'enterprise') then
    pg_catalog.jsonb_build_object(
      'accent', o.profile_accent,
      'tagline', o.profile_tagline,
      'show_badge', o.show_premium_badge,
      'featured_project', (
        select pg_catalog.jsonb_build_object('id', p.id, 'slug', p.slug, 'title', p.title, 'summary', p.summary)
        from public.projects p
        where p.id = o.featured_project_id and p.owner_id = o.id
          and p.status = 'published' and not p.is_private))
  end
  from public.profiles o where o.id = p_id
$$;
comment on function private.public_premium_profile(uuid) is
  'Premium profile settings of p_id while premium/enterprise, else null (spec §6).';

grant execute on function private.public_display_name(text, text, text), private.public_display_address(uuid),
  private.public_premium_profile(uuid) to anon, authenticated, service_role;

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
grant execute on function private.display_name(public.profiles) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Search documents of people use the public display name (the e-mail fallback leaked through
-- search for people without a name).
-- -----------------------------------------------------------------------------
create or replace function private.sync_search_item()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_type text := case tg_table_name when 'projects' then 'project' when 'portfolios' then 'portfolio'
                   when 'events' then 'event' when 'jobs' then 'job' else 'profile' end;
begin
  if tg_op = 'DELETE' then
    delete from private.search_items where type = v_type and id = old.id::text;
    return null;
  end if;
  case tg_table_name
  when 'projects' then
    perform private.put_search_item('project', new.id::text, new.owner_id, new.status = 'published' and new.owner_listed,
      new.owner_premium, array[coalesce(new.category::text, new.private_category::text)], new.city, new.published_at, null,
      new.title, new.title, new.summary || ' ' || private.join_words(new.roles_sought) || ' ' || coalesce(new.city, ''),
      new.description, new.description);
  when 'portfolios' then
    perform private.put_search_item('portfolio', new.id::text, new.owner_id, new.status = 'published' and new.owner_listed,
      new.owner_premium, array_remove(array[new.category::text], null), new.city, new.published_at, null,
      new.title, new.title, private.join_words(new.skills) || ' ' || coalesce(new.city, ''), new.description_de, new.description_en);
  when 'events' then
    perform private.put_search_item('event', new.id::text, new.organizer_id,
      new.status in ('published', 'upcoming', 'ongoing') and new.owner_listed, new.owner_premium, array[new.category::text],
      new.city, new.starts_at, null, new.title, new.title,
      new.summary || ' ' || coalesce(new.venue_name, '') || ' ' || coalesce(new.city, ''), new.description, new.description);
  when 'jobs' then
    perform private.put_search_item('job', new.id, new.posted_by, true, false, array[new.category::text], new.city,
      new.posted_at, new.expires_at, new.title, new.title,
      new.company || ' ' || coalesce(new.city, '') || case when new.remote then ' remote' else '' end,
      new.description, new.description);
  else
    perform private.put_search_item('profile', new.id::text, new.id,
      new.authenticated = 1 and new.profile_visibility = 1 and not private.is_suspended(new.id),
      new.user_role in ('premium', 'enterprise'), new.categories::text[], new.city, null, null,
      private.public_display_name(new.firstname, new.lastname, new.slug), new.firstname || ' ' || new.lastname,
      coalesce(new.headline, '') || ' ' || private.join_words(new.skills) || ' ' || coalesce(new.city, ''),
      coalesce(new.bio, '') || ' ' || coalesce(new.looking_for, '') || ' ' || coalesce(new.offering, ''),
      coalesce(new.bio, '') || ' ' || coalesce(new.looking_for, '') || ' ' || coalesce(new.offering, ''));
  end case;
  return null;
end;
$$;
comment on function private.sync_search_item() is 'Keeps private.search_items in step with the searchable tables (people under their public display name).';

create or replace function private.search_document(p_type text, p_id text)
returns table (title text, slug text, body text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  case p_type
  when 'project' then
    return query select p.title, p.slug, p.summary || E'\n' || p.description from public.projects p where p.id = p_id::bigint;
  when 'portfolio' then
    return query select f.title, f.slug, f.description_de || E'\n' || f.description_en from public.portfolios f where f.id = p_id::bigint;
  when 'event' then
    return query select e.title, e.slug, e.summary || E'\n' || e.description from public.events e where e.id = p_id::bigint;
  when 'job' then
    return query select j.title, j.id, j.company || E'\n' || j.description from public.jobs j where j.id = p_id;
  else
    return query select private.public_display_name(o.firstname, o.lastname, o.slug), o.slug,
                        coalesce(o.headline, '') || E'\n' || coalesce(o.bio, '')
                 from public.profiles o where o.id = p_id::uuid;
  end case;
end;
$$;
comment on function private.search_document(text, text) is 'Title, slug and text of a search hit, for ts_headline (people under their public display name).';

update private.search_items s
set title = private.public_display_name(p.firstname, p.lastname, p.slug)
from public.profiles p
where s.type = 'profile' and s.id = p.id::text
  and s.title is distinct from private.public_display_name(p.firstname, p.lastname, p.slug);

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

-- -----------------------------------------------------------------------------
-- Views: public profile cards and the visible-users list (spec §3, §6). security_invoker, so the
-- profiles policy and the column grants of the caller apply; the private address parts and the
-- premium settings come from the security-definer helpers above by id.
-- -----------------------------------------------------------------------------
drop view public.visible_profiles;

create view public.public_profiles
with (security_invoker = true)
as
select p.id, p.slug, p.firstname, p.lastname,
       private.public_display_name(p.firstname, p.lastname, p.slug) as display_name,
       private.public_display_address(p.id) as display_address,
       p.type, p.profile_img, p.headline, p.bio, p.skills, p.looking_for, p.offering, p.categories,
       p.logo, p.gallery, p.social_links, p.city, p.state, p.latitude, p.longitude, p.listed,
       private.public_premium_profile(p.id) as premium_profile,
       p.created_at, p.updated_at
from public.profiles p;
comment on view public.public_profiles is
  'What others may read of a profile (issue 12): public fields, the spec §3 display name/address and premium settings; rows as the profiles policy allows.';

create view public.visible_profiles
with (security_invoker = true)
as
select p.id, p.slug, p.firstname, p.lastname,
       private.public_display_name(p.firstname, p.lastname, p.slug) as display_name,
       private.public_display_address(p.id) as display_address,
       p.type, p.profile_img, p.headline, p.city, p.latitude, p.longitude, p.skills, p.categories,
       p.looking_for, p.offering, p.created_at, p.updated_at
from public.profiles p
where p.listed;
comment on view public.visible_profiles is
  'The visible-users list (spec §6): confirmed and profile_visibility = 1 (listed), minus suspended/blocked (RLS). No private column.';

drop index public.profiles_visible_idx;
drop index public.profiles_visible_city_idx;
create index profiles_listed_idx on public.profiles (created_at desc) where listed;
create index profiles_listed_city_idx on public.profiles (city, created_at desc) where listed;

drop function public.display_name(public.profiles);
drop function public.display_address(public.profiles);
drop function public.premium_profile(public.profiles);

-- -----------------------------------------------------------------------------
-- The person's own profile, private fields included, and the admins' user list
-- -----------------------------------------------------------------------------

/* The caller's own profile with every private field (spec §3), the display fields and the account
   state the SPA needs (suspended, payment-required guard). No rows for anon. */
create or replace function private.my_profile()
returns table (
  id uuid, email text, firstname text, lastname text, authenticated smallint, user_role public.user_role,
  profile_visibility smallint, profile_img text, stripe_customer_id text, type public.profile_type,
  street text, house_number text, city text, state text, zipcode text, latitude double precision,
  longitude double precision, slug text, headline text, bio text, skills text[], looking_for text,
  offering text, categories public.project_category[], logo text, gallery text[], social_links jsonb,
  preferred_language text, profile_accent text, profile_tagline text, featured_project_id bigint,
  show_premium_badge boolean, listed boolean, created_at timestamptz, updated_at timestamptz,
  display_name text, display_address text, premium_profile jsonb, suspended boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.email, p.firstname, p.lastname, p.authenticated, p.user_role, p.profile_visibility,
         p.profile_img, p.stripe_customer_id, p.type, p.street, p.house_number, p.city, p.state,
         p.zipcode, p.latitude, p.longitude, p.slug, p.headline, p.bio, p.skills, p.looking_for,
         p.offering, p.categories, p.logo, p.gallery, p.social_links, p.preferred_language,
         p.profile_accent, p.profile_tagline, p.featured_project_id, p.show_premium_badge, p.listed,
         p.created_at, p.updated_at, private.display_name(p), private.public_display_address(p.id),
         private.public_premium_profile(p.id), private.is_suspended(p.id)
  from public.profiles p
  where p.id = auth.uid()
$$;
comment on function private.my_profile() is 'Implementation of public.my_profile.';
revoke all on function private.my_profile() from public, anon;
grant execute on function private.my_profile() to authenticated, service_role;

/* The caller's own profile including private fields (e-mail, address, Stripe customer id, role,
   confirmation, visibility, language), display_name / display_address (spec §3),
   premium_profile (spec §6) and suspended. One row for a signed-in caller, none otherwise.
   The only API path to one's own private fields (issue 12 finding 1). */
create or replace function public.my_profile()
returns table (
  id uuid, email text, firstname text, lastname text, authenticated smallint, user_role public.user_role,
  profile_visibility smallint, profile_img text, stripe_customer_id text, type public.profile_type,
  street text, house_number text, city text, state text, zipcode text, latitude double precision,
  longitude double precision, slug text, headline text, bio text, skills text[], looking_for text,
  offering text, categories public.project_category[], logo text, gallery text[], social_links jsonb,
  preferred_language text, profile_accent text, profile_tagline text, featured_project_id bigint,
  show_premium_badge boolean, listed boolean, created_at timestamptz, updated_at timestamptz,
  display_name text, display_address text, premium_profile jsonb, suspended boolean
)
language sql
stable
set search_path = ''
as $$
  select * from private.my_profile()
$$;
comment on function public.my_profile() is
  'The caller''s own profile with private fields, display fields and suspended (issue 12: the owner''s path to private fields).';
revoke all on function public.my_profile() from public, anon;
grant execute on function public.my_profile() to authenticated, service_role;

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
revoke all on function private.admin_list_users(text, integer, integer) from public, anon;
grant execute on function private.admin_list_users(text, integer, integer) to authenticated, service_role;

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
revoke all on function public.admin_list_users(text, integer, integer) from public, anon;
grant execute on function public.admin_list_users(text, integer, integer) to authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Online events: the join link (issue 12 "paid online events show their join link to anonymous
-- visitors"). Free events: everyone who may see the event. Paid events: the organiser, admins and
-- attendees with a seat (going).
-- -----------------------------------------------------------------------------
create or replace function private.event_join_link(p_event_id bigint)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select e.online_url
  from public.events e
  where e.id = p_event_id
    and (
      e.organizer_id = auth.uid()
      or private.is_admin()
      or (private.event_is_visible(e.id) and (
            not e.is_paid
            or exists (select 1 from public.event_attendees a
                       where a.event_id = e.id and a.user_id = auth.uid() and a.status = 'going'))))
$$;
comment on function private.event_join_link(bigint) is 'Implementation of public.event_join_link.';
revoke all on function private.event_join_link(bigint) from public;
grant execute on function private.event_join_link(bigint) to anon, authenticated, service_role;

/* Join link of an online event, or null: free events for everyone who may see the event; paid
   events only for the organiser, admins and attendees with a seat (status going). */
create or replace function public.event_join_link(p_event_id bigint)
returns text
language sql
stable
set search_path = ''
as $$
  select private.event_join_link(p_event_id)
$$;
comment on function public.event_join_link(bigint) is
  'Online link of an event: free events for all who see it; paid events for organiser, admins and going attendees (issue 12).';
revoke all on function public.event_join_link(bigint) from public;
grant execute on function public.event_join_link(bigint) to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Grants: the columns each API role may read and write. Table-wide rights are revoked first;
-- DELETE stays table-wide where a policy allows it. service_role keeps everything.
-- -----------------------------------------------------------------------------
revoke select, insert, update, delete, truncate, references, trigger on
  public.profiles, public.account_suspensions, public.user_blocks, public.audit_log,
  public.email_types, public.email_templates, public.email_queue,
  public.plans, public.prices, public.subscriptions, public.stripe_events,
  public.contacts, public.projects, public.favourite_projects, public.portfolios, public.portfolio_files,
  public.event_status_transitions, public.events, public.event_attendees, public.jobs, public.favourite_jobs,
  public.conversations, public.conversation_members, public.messages,
  public.feedback, public.newsletter_subscribers, public.contact_messages, public.cancellation_requests,
  public.visible_profiles, public.public_profiles
from anon, authenticated;

-- profiles
grant select (id, slug, firstname, lastname, profile_img, type, city, state, latitude, longitude, headline, bio,
              skills, looking_for, offering, categories, logo, gallery, social_links, listed, created_at, updated_at)
  on public.profiles to anon, authenticated;
grant update (firstname, lastname, profile_visibility, profile_img, type, street, house_number, city, state, zipcode,
              latitude, longitude, slug, headline, bio, skills, looking_for, offering, categories, logo, gallery,
              social_links, preferred_language, profile_accent, profile_tagline, featured_project_id, show_premium_badge)
  on public.profiles to authenticated;
grant delete on public.profiles to authenticated;
grant select (id, slug, firstname, lastname, display_name, display_address, type, profile_img, headline, bio, skills,
              looking_for, offering, categories, logo, gallery, social_links, city, state, latitude, longitude, listed,
              premium_profile, created_at, updated_at)
  on public.public_profiles to anon, authenticated;
grant select (id, slug, firstname, lastname, display_name, display_address, type, profile_img, headline, city, latitude,
              longitude, skills, categories, looking_for, offering, created_at, updated_at)
  on public.visible_profiles to anon, authenticated;
revoke all on public.public_profiles, public.visible_profiles from service_role;
grant select on public.public_profiles, public.visible_profiles to service_role;

-- account state (rows: the person and admins)
grant select (user_id, reason, suspended_by, created_at) on public.account_suspensions to authenticated;
grant insert (user_id, reason, suspended_by) on public.account_suspensions to authenticated;
grant update (reason) on public.account_suspensions to authenticated;
grant delete on public.account_suspensions to authenticated;

grant select (blocker_id, blocked_id, created_at) on public.user_blocks to authenticated;
grant insert (blocker_id, blocked_id) on public.user_blocks to authenticated;
grant delete on public.user_blocks to authenticated;

grant select (id, actor_id, actor_role, action, target_table, target_id, details, created_at) on public.audit_log to authenticated;

-- e-mail (rows: admins; the person may queue their own welcome mail)
grant select (key, description) on public.email_types to authenticated;
grant select (key, lang, subject, body, updated_at) on public.email_templates to authenticated;
grant update (subject, body) on public.email_templates to authenticated;
grant select (id, user_id, email, email_type, lang, user_metadata, payload, status, attempts, next_attempt_at,
              locked_at, locked_until, last_error, provider_message_id, sent_at, created_at, updated_at)
  on public.email_queue to authenticated;
grant insert (user_id, email, email_type, lang, user_metadata) on public.email_queue to authenticated;

-- billing (plans and prices are the public catalogue; subscriptions: the person and admins)
grant select (id, name, rank, project_limit, features_de, features_en, contact_sales, active) on public.plans to anon, authenticated;
grant select (id, plan_id, billing_period, months, amount_cents, currency, stripe_price_id, active) on public.prices to anon, authenticated;
grant select (id, user_id, plan_id, price_id, billing_period, status, current_period_start, current_period_end,
              cancel_at_period_end, canceled_at, ended_at, stripe_customer_id, stripe_subscription_id,
              stripe_checkout_session_id, last_synced_at, created_at, updated_at)
  on public.subscriptions to authenticated;
grant select (id, type, stripe_created_at, received_at, processed_at, error) on public.stripe_events to authenticated;
grant select (id, name, email, plan_id, contract, reason, requested_date, lang, user_id, status,
              stripe_subscription_ids, effective_at, error, created_at, processed_at)
  on public.cancellation_requests to authenticated;

-- contacts (rows: the two people)
grant select (id, requester_id, addressee_id, status, message, created_at, responded_at) on public.contacts to authenticated;
grant insert (requester_id, addressee_id, message) on public.contacts to authenticated;
grant update (status) on public.contacts to authenticated;
grant delete on public.contacts to authenticated;

-- projects: owner_listed / owner_premium are internal (the latter would tell the owner's plan)
grant select (id, owner_id, title, slug, summary, description, is_private, category, private_category, city,
              latitude, longitude, roles_sought, stage, images, status, published_at, created_at, updated_at)
  on public.projects to anon, authenticated;
grant insert (owner_id, title, slug, summary, description, is_private, category, private_category, city, latitude,
              longitude, roles_sought, stage, images, status)
  on public.projects to authenticated;
grant update (title, slug, summary, description, is_private, category, private_category, city, latitude, longitude,
              roles_sought, stage, images, status)
  on public.projects to authenticated;
grant delete on public.projects to authenticated;
grant select (user_id, project_id, created_at) on public.favourite_projects to authenticated;
grant insert (user_id, project_id) on public.favourite_projects to authenticated;
grant delete on public.favourite_projects to authenticated;

-- portfolios
grant select (id, owner_id, title, slug, description_de, description_en, skills, links, images, category, city,
              file_access, status, published_at, created_at, updated_at)
  on public.portfolios to anon, authenticated;
grant insert (owner_id, title, slug, description_de, description_en, skills, links, images, category, city, file_access, status)
  on public.portfolios to authenticated;
grant update (title, slug, description_de, description_en, skills, links, images, category, city, file_access, status)
  on public.portfolios to authenticated;
grant delete on public.portfolios to authenticated;
grant select (id, portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes, created_at)
  on public.portfolio_files to anon, authenticated;
grant insert (portfolio_id, owner_id, object_path, file_name, mime_type, size_bytes) on public.portfolio_files to authenticated;
grant update (file_name) on public.portfolio_files to authenticated;
grant delete on public.portfolio_files to authenticated;

-- events: online_url only through public.event_join_link
grant select (from_status, to_status) on public.event_status_transitions to anon, authenticated;
grant select (id, organizer_id, title, slug, summary, description, category, status, is_paid, price_cents, currency,
              starts_at, ends_at, timezone, is_online, venue_name, street, zipcode, city, latitude, longitude,
              capacity, going_count, waitlist_count, image, created_at, updated_at)
  on public.events to anon, authenticated;
grant insert (organizer_id, title, slug, summary, description, category, status, is_paid, price_cents, currency,
              starts_at, ends_at, timezone, is_online, venue_name, street, zipcode, city, latitude, longitude,
              online_url, capacity, image)
  on public.events to authenticated;
grant update (title, summary, description, category, status, is_paid, price_cents, currency, starts_at, ends_at,
              timezone, is_online, venue_name, street, zipcode, city, latitude, longitude, online_url, capacity, image)
  on public.events to authenticated;
grant delete on public.events to authenticated;
-- RSVPs: created_at is the waitlist order and never writable by users
grant select (event_id, user_id, status, created_at, updated_at) on public.event_attendees to authenticated;
grant insert (event_id, user_id) on public.event_attendees to authenticated;
grant update (status) on public.event_attendees to authenticated;
grant delete on public.event_attendees to authenticated;

-- jobs (written by admins)
grant select (id, title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, posted_by, posted_at,
              expires_at, created_at, updated_at)
  on public.jobs to anon, authenticated;
grant insert (id, title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, posted_by, posted_at, expires_at)
  on public.jobs to authenticated;
grant update (title, company, company_logo, city, latitude, longitude, remote, employment_type, category,
              description, apply_url, salary_min_cents, salary_max_cents, language, expires_at)
  on public.jobs to authenticated;
grant delete on public.jobs to authenticated;
grant select (user_id, job_id, created_at) on public.favourite_jobs to authenticated;
grant insert (user_id, job_id) on public.favourite_jobs to authenticated;
grant delete on public.favourite_jobs to authenticated;

-- chat (rows: members)
grant select (id, kind, title, created_by, last_message_at, created_at, updated_at) on public.conversations to authenticated;
grant insert (kind, title, created_by) on public.conversations to authenticated;
grant update (title) on public.conversations to authenticated;
grant delete on public.conversations to authenticated;
grant select (conversation_id, user_id, role, joined_at, last_read_at) on public.conversation_members to authenticated;
grant insert (conversation_id, user_id) on public.conversation_members to authenticated;
grant update (last_read_at) on public.conversation_members to authenticated;
grant delete on public.conversation_members to authenticated;
grant select (id, conversation_id, sender_id, body, created_at, edited_at) on public.messages to authenticated;
grant insert (conversation_id, sender_id, body) on public.messages to authenticated;
grant update (body) on public.messages to authenticated;
grant delete on public.messages to authenticated;

-- feedback, newsletter, contact form (rows: the sender and admins)
grant select (id, user_id, category, rating, message, page_url, status, created_at) on public.feedback to authenticated;
grant insert (user_id, category, rating, message, page_url) on public.feedback to authenticated;
grant update (status) on public.feedback to authenticated;
grant delete on public.feedback to authenticated;
grant select (id, email, lang, status, user_id, source, created_at, confirmed_at, unsubscribed_at)
  on public.newsletter_subscribers to authenticated;
grant update (status) on public.newsletter_subscribers to authenticated;
grant delete on public.newsletter_subscribers to authenticated;
grant insert (user_id, name, email, topic, plan_id, subject, message, lang) on public.contact_messages to anon, authenticated;
grant select (id, user_id, name, email, topic, plan_id, subject, message, lang, status, created_at) on public.contact_messages to authenticated;
grant update (status) on public.contact_messages to authenticated;
grant delete on public.contact_messages to authenticated;
