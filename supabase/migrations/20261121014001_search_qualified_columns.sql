-- =============================================================================
-- search(): column references qualified (issue 8)
-- =============================================================================
-- private.search has parameters named like result columns (category, city). It relies on
-- `#variable_conflict use_column`; through PostgREST some sessions still failed intermittently
-- with 42702 "column reference "category" is ambiguous" (seen from the SPA on /search with a
-- city filter). Every column reference that shares a name with a parameter is now qualified
-- with its table alias, so the statement is unambiguous whatever the conflict setting.
-- Behaviour, signature, grants and result shape are unchanged.

create or replace function private.search(
  q text, types text[], category text, city text, date_from date, date_to date, page integer, page_size integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
#variable_conflict use_column
declare
  v_q text := nullif(pg_catalog.btrim(coalesce(q, '')), '');
  v_norm text := private.unaccent(pg_catalog.lower(coalesce(pg_catalog.btrim(q), '')));
  v_types text[] := coalesce(nullif(types, '{}'), array['project', 'portfolio', 'event', 'profile']);
  v_facet_types text[];
  v_cat text := nullif(pg_catalog.btrim(coalesce(category, '')), '');
  v_city text := nullif(private.unaccent(pg_catalog.lower(pg_catalog.btrim(coalesce(city, '')))), '');
  v_page integer := greatest(coalesce(page, 1), 1);
  v_size integer := least(greatest(coalesce(page_size, 20), 1), 50);
  v_hidden uuid[] := private.hidden_user_ids();
  v_from timestamptz := (date_from::timestamp at time zone 'Europe/Berlin');
  v_to timestamptz := ((date_to + 1)::timestamp at time zone 'Europe/Berlin');
  v_dated boolean := date_from is not null or date_to is not null;
  tq_de tsquery;
  tq_en tsquery;
  v_fuzzy boolean := false;
  v_attempt integer := 0;
  v_corrected text;
  v_limit integer;
  result jsonb;
begin
  if v_types <@ array['project', 'portfolio', 'event', 'profile', 'job'] is not true then
    raise exception using errcode = '22023', message = 'invalid_type', detail = 'types: project, portfolio, event, profile, job';
  end if;
  if char_length(coalesce(q, '')) > 200 then
    raise exception using errcode = '22023', message = 'query_too_long', detail = 'At most 200 characters.';
  end if;
  -- type facet: the four site-search types, plus jobs when asked for
  v_facet_types := array(select distinct unnest(array['project', 'portfolio', 'event', 'profile'] || v_types));
  if v_q is null then
    -- browse mode (no words): newest first, counts over the 2000 newest matches
    return private.search_browse(v_types, v_cat, v_city, v_from, v_to, v_dated, v_hidden, v_page, v_size);
  end if;
  tq_de := pg_catalog.websearch_to_tsquery('private.teamwerk_de'::regconfig, v_q);
  tq_en := pg_catalog.websearch_to_tsquery('private.teamwerk_en'::regconfig, v_q);

  <<attempt>>
  loop
  v_limit := case when v_fuzzy then 200 end;
  with matches as materialized (
    select s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id,
           case when v_q is null then 0::real
                when v_fuzzy then extensions.word_similarity(v_norm, private.unaccent(pg_catalog.lower(s.title)))
                else pg_catalog.ts_rank_cd(s.search_de, tq_de) + pg_catalog.ts_rank_cd(s.search_en, tq_en) end as relevance
    from private.search_items s
    where s.searchable
      and s.type = any (v_facet_types)
      and not coalesce(s.owner_id = any (v_hidden), false)
      and (s.expires_at is null or s.expires_at > pg_catalog.now())
      and (v_q is null
           or (not v_fuzzy and (s.search_de @@ tq_de or s.search_en @@ tq_en))
           or (v_fuzzy and v_norm operator(extensions.<%) private.unaccent(pg_catalog.lower(s.title))))
      and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
      and (v_cat is null or v_cat = any (s.categories))
      and (v_city is null or private.unaccent(pg_catalog.lower(coalesce(s.city, ''))) = v_city)
    order by relevance desc
    limit v_limit
  ),
  scoped as materialized (
    select m.*, m.relevance * case when m.premium then 1.25 else 1 end as score from matches m
  ),
  filtered as (
    select * from scoped sc where sc.type = any (v_types)
  ),
  page_rows as (
    select f.*, d.title, d.slug, d.body
    from (select * from filtered
          order by score desc, premium desc, date desc nulls last, type, id
          limit v_size offset (v_page - 1) * v_size) f
    cross join lateral private.search_document(f.type, f.id) d
  )
  select pg_catalog.jsonb_build_object(
    'total', (select count(*) from filtered),
    'page', v_page,
    'page_size', v_size,
    'facets', pg_catalog.jsonb_build_object(
      'types', (select coalesce(pg_catalog.jsonb_object_agg(t.type, t.n), '{}'::jsonb)
                from (select sc.type, count(*) as n from scoped sc group by sc.type) t),
      'categories', (select coalesce(pg_catalog.jsonb_object_agg(c.category, c.n), '{}'::jsonb)
                     from (select f.category, count(*) as n from filtered f where f.category is not null group by f.category) c),
      'cities', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('city', c.city, 'count', c.n) order by c.n desc, c.city), '[]'::jsonb)
                 from (select f.city, count(*) as n from filtered f where f.city is not null group by f.city order by n desc, f.city limit 15) c)),
    'results', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
        'type', r.type, 'id', r.id, 'slug', r.slug, 'title', r.title,
        'title_highlight', case when v_q is null then private.html_escape(r.title) else
          pg_catalog.ts_headline('private.teamwerk_de'::regconfig, private.html_escape(r.title), tq_de || tq_en,
            'StartSel=<mark>, StopSel=</mark>, HighlightAll=true') end,
        'snippet', case when v_q is null then private.html_escape(pg_catalog.left(r.body, 200)) else
          pg_catalog.ts_headline('private.teamwerk_de'::regconfig, private.html_escape(r.body), tq_de || tq_en,
            'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "') end,
        'category', r.category, 'city', r.city, 'date', r.date, 'premium', r.premium,
        'score', round(r.score::numeric, 4), 'owner_id', r.owner_id)
        order by r.score desc, r.premium desc, r.date desc nulls last, r.type, r.id)
      from page_rows r), '[]'::jsonb)
  ) into result;
  -- typo tolerance when full-text search finds nothing at all: first correct the spelling
  -- against the dictionary and search again; then trigram similarity on titles and names
  exit attempt when v_q is null or v_fuzzy or (result -> 'facets' -> 'types') <> '{}'::jsonb;
  v_attempt := v_attempt + 1;
  if v_attempt = 1 then
    v_corrected := private.correct_spelling(v_q);
    if v_corrected is not null and v_corrected <> private.unaccent(pg_catalog.lower(v_q)) then
      tq_de := pg_catalog.websearch_to_tsquery('private.teamwerk_de'::regconfig, v_corrected);
      tq_en := pg_catalog.websearch_to_tsquery('private.teamwerk_en'::regconfig, v_corrected);
      continue attempt;
    end if;
  end if;
  v_fuzzy := true;
  end loop;
  return result;
end;
$$;
comment on function private.search(text, text[], text, text, date, date, integer, integer) is 'Implementation of public.search.';
