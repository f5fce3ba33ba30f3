-- =============================================================================
-- Search hits carry their owner's public face (issue 18: cards for projects, portfolios, events
-- and people share one design with the owner's avatar)
-- =============================================================================
-- private.search_badges post-processes every answer of public.search (premium flag, issue 12).
-- It now also adds results[].owner = {name, img, slug}: the public display name (spec §3, no
-- e-mail fallback), the profile picture path of the public avatars bucket and the profile slug,
-- only for owners that are listed (confirmed, visible, not suspended: private.owner_listed),
-- which every hit's owner already is, since search shows nothing of hidden owners. For a person
-- hit the owner is the person. Nothing else of the profile leaves the function.

create or replace function private.search_badges(p_result jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when p_result ? 'results' and pg_catalog.jsonb_typeof(p_result -> 'results') = 'array' then
      pg_catalog.jsonb_set(p_result, '{results}', coalesce((
        select pg_catalog.jsonb_agg(
                 r.hit
                 || pg_catalog.jsonb_build_object('premium',
                      (r.hit ->> 'premium')::boolean and coalesce(p.show_premium_badge and p.user_role in ('premium', 'enterprise'), false))
                 || pg_catalog.jsonb_build_object('owner',
                      case when p.id is not null and private.owner_listed(p.id) then
                        pg_catalog.jsonb_build_object('name', private.public_display_name(p.firstname, p.lastname, p.slug),
                                                      'img', p.profile_img, 'slug', p.slug)
                      end)
                 order by r.n)
        from pg_catalog.jsonb_array_elements(p_result -> 'results') with ordinality r(hit, n)
        left join public.profiles p on p.id::text = r.hit ->> 'owner_id'), '[]'::jsonb))
    else p_result
  end
$$;
comment on function private.search_badges(jsonb) is
  'Keeps results[].premium only for owners who show the premium badge (issue 12: the plan is private) and adds results[].owner {name, img, slug} of listed owners (issue 18).';
