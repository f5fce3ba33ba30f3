-- =============================================================================
-- Search results tell a member's plan only when the member shows the premium badge (issue 12
-- finding 1: the role is private)
-- =============================================================================
-- search() ranks content of premium and enterprise members higher (spec §6 "preference in search
-- results") and marked each such hit with premium = true, which told every visitor the plan of
-- every premium member. The ranking stays; the flag now follows the member's own choice
-- (profiles.show_premium_badge, a premium profile setting, on by default).

/* The search answer with each hit's `premium` flag kept only when its owner shows the premium
   badge. Input and output: the jsonb of private.search (results[].premium, results[].owner_id). */
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
                 case when (r.hit ->> 'premium')::boolean then
                   pg_catalog.jsonb_set(r.hit, '{premium}', pg_catalog.to_jsonb(coalesce((
                     select p.show_premium_badge and p.user_role in ('premium', 'enterprise')
                     from public.profiles p where p.id::text = r.hit ->> 'owner_id'), false)))
                 else r.hit end
                 order by r.n)
        from pg_catalog.jsonb_array_elements(p_result -> 'results') with ordinality r(hit, n)), '[]'::jsonb))
    else p_result
  end
$$;
comment on function private.search_badges(jsonb) is
  'Keeps results[].premium only for owners who show the premium badge (issue 12: the plan is private).';
grant execute on function private.search_badges(jsonb) to anon, authenticated, service_role;

create or replace function public.search(
  q text default '',
  types text[] default null,
  category text default null,
  city text default null,
  date_from date default null,
  date_to date default null,
  page integer default 1,
  page_size integer default 20)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.search_badges(private.search(q, types, category, city, date_from, date_to, page, page_size))
$$;
comment on function public.search(text, text[], text, text, date, date, integer, integer) is
  'Search with facets, highlighted snippets, premium preference and visibility/blocking rules (issue 8); premium flags only for members who show the badge (issue 12).';
