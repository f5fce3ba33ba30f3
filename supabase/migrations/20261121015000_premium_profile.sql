-- Premium profile settings (spec §6 "premium profile settings", issue 7): accent colour, tagline,
-- featured project and the Premium badge. Writable only while the profile's role is premium,
-- enterprise or admin; kept but inert after a downgrade (public.premium_profile returns null).

alter table public.profiles
  add column profile_accent text check (profile_accent in ('blue', 'teal', 'green', 'violet', 'grape', 'orange', 'red')),
  add column profile_tagline text check (char_length(profile_tagline) between 1 and 120),
  add column featured_project_id bigint references public.projects (id) on delete set null,
  add column show_premium_badge boolean not null default true;

comment on column public.profiles.profile_accent is
  'Premium setting (spec §6): accent colour of the public profile, one of blue, teal, green, violet, grape, orange, red; null = none.';
comment on column public.profiles.profile_tagline is
  'Premium setting (spec §6): short tagline (1-120 characters) shown on the public profile; null = none.';
comment on column public.profiles.featured_project_id is
  'Premium setting (spec §6): the owner''s own published, non-private project featured on the profile; null = none.';
comment on column public.profiles.show_premium_badge is
  'Premium setting (spec §6): show the Premium badge on the public profile (default true).';

create index profiles_featured_project_id_idx on public.profiles (featured_project_id);

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
revoke all on function private.guard_premium_profile() from public, anon, authenticated;

create trigger profiles_premium_guard before insert or update of profile_accent, profile_tagline, featured_project_id, show_premium_badge
  on public.profiles for each row execute function private.guard_premium_profile();

-- Computed field for PostgREST (`select=...,premium_profile`): the settings only while the role is
-- premium or enterprise, else null (downgraded users keep their values, but they are inert).
-- SECURITY INVOKER: the featured project is only included when the caller may read it (RLS)
-- and it is still published and public.
create or replace function public.premium_profile(p_profile public.profiles)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select case when p_profile.user_role in ('premium', 'enterprise') then
    pg_catalog.jsonb_build_object(
      'accent', p_profile.profile_accent,
      'tagline', p_profile.profile_tagline,
      'show_badge', p_profile.show_premium_badge,
      'featured_project', (
        select pg_catalog.jsonb_build_object('id', p.id, 'slug', p.slug, 'title', p.title, 'summary', p.summary)
        from public.projects p
        where p.id = p_profile.featured_project_id and p.owner_id = p_profile.id
          and p.status = 'published' and not p.is_private))
  end
$$;
comment on function public.premium_profile(public.profiles) is
  'Computed field: {accent, tagline, show_badge, featured_project{id,slug,title,summary}|null} when the profile''s role is premium or enterprise, else null (spec §6 premium profile settings).';
revoke all on function public.premium_profile(public.profiles) from public;
grant execute on function public.premium_profile(public.profiles) to anon, authenticated, service_role;
