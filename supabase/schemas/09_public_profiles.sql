-- =============================================================================
-- Reading profiles (spec §3, §6; issue 12): the public profile card with the premium settings,
-- the visible-users list and the person's own profile
-- =============================================================================
-- Premium profile settings (spec §6 "premium profile settings", issue 7): accent colour,
-- tagline, featured project and the Premium badge, stored on public.profiles (01_profiles.sql,
-- guarded by private.guard_premium_profile). They show only while the profile's role is premium
-- or enterprise; after a downgrade they are kept but inert. This file follows the projects
-- because the card shows the featured project, and profiles.featured_project_id references
-- projects while projects.owner_id references profiles: the one foreign key of that cycle is
-- declared here.
--
-- The views run with the caller's rights (security_invoker), so the profiles policy and the
-- column grants of the caller apply; the private address parts and the premium settings come
-- from security-definer helpers by id.

-- -----------------------------------------------------------------------------
-- The featured project's foreign key
-- -----------------------------------------------------------------------------

-- profiles.featured_project_id: the owner's own published, non-private project (checked by
-- private.guard_premium_profile); null when the project goes.
alter table public.profiles
  add constraint profiles_featured_project_id_fkey foreign key (featured_project_id)
  references public.projects (id) on delete set null;

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

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

-- -----------------------------------------------------------------------------
-- Views
-- -----------------------------------------------------------------------------

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
revoke select, insert, update, delete, truncate, references, trigger on public.visible_profiles from anon, authenticated;
revoke all on public.visible_profiles from service_role;
grant select (id, slug, firstname, lastname, display_name, display_address, type, profile_img, headline, city,
              latitude, longitude, skills, categories, looking_for, offering, created_at, updated_at)
  on public.visible_profiles to anon, authenticated;
grant select on public.visible_profiles to service_role;

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
revoke select, insert, update, delete, truncate, references, trigger on public.public_profiles from anon, authenticated;
revoke all on public.public_profiles from service_role;
grant select (id, slug, firstname, lastname, display_name, display_address, type, profile_img, headline, bio,
              skills, looking_for, offering, categories, logo, gallery, social_links, city, state, latitude,
              longitude, listed, premium_profile, created_at, updated_at)
  on public.public_profiles to anon, authenticated;
grant select on public.public_profiles to service_role;

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.public_premium_profile(uuid) to anon, authenticated, service_role;
grant execute on function private.my_profile() to authenticated, service_role;
grant execute on function public.my_profile() to authenticated;
