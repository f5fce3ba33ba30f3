-- =============================================================================
-- search(): faster full-text and typo paths (issue 8 benchmark: p95 <= 30 ms on 2 cores)
-- =============================================================================
-- Profiled on the large data set of scripts/bench/db-queries.ts (perf + EXPLAIN ANALYZE as
-- anon). A typo query such as 'Nachbarschafshilfe' runs: full-text search (no hits), spelling
-- correction, full-text search again with the corrected words (about 6,400 hits). Its cost is
-- therefore the cost of a broad search plus the failed first pass. Where the time went:
--
-- 1. GIN pending lists. The three search GIN indexes used the default fast-update pending list
--    (up to gin_pending_list_limit = 4 MB, emptied only by (auto)vacuum). Every lookup scans the
--    whole unsorted list: ~375 pages for a single word on the English index after a bulk load,
--    paid twice by a typo query (both passes). Content updates rewrite search rows, so in normal
--    operation the list also fills up between autovacuum runs. The lists are now capped at the
--    minimum (64 kB, a few pages); inserts still batch. Measured: bulk insert of 20,000 rows
--    1.4 s (4 MB list) -> 2.2 s (64 kB) vs 6.7 s with fastupdate = off, which is why the list is
--    capped rather than switched off.
-- 2. The main statement. Matches were sorted by relevance although no LIMIT applied (full
--    sort of every hit), then copied into two more materialised CTEs (scoped, filtered) and
--    read four times for the total and the facets. Now: one materialised set of hits with the
--    final score, the full-text branch unsorted; one hash aggregation by (type, category, city)
--    whose few groups give the total and the three facets; the page is a top-N sort of the hits.
--    The fuzzy (title similarity) branch keeps its "best 200" sort and limit. Both branches are
--    in one statement guarded by v_fuzzy, so the branch not taken is never executed (and the
--    statement's plan can be cached: parameters only, no branch folded away at plan time).
--    Per-row work that was pure overhead is gone: `type = any (array variable)` flattened the
--    PL/pgSQL (expanded) array again for every row (now boolean flags where the array is the
--    default); the numeric premium factor 1.25 was converted to double precision through
--    its text form for every hit (now double precision constants; the product is the same);
--    the city filter called the SQL wrapper private.unaccent for every hit, which runs as a
--    nested statement (executor start/end per call) because its SET clause keeps it from being
--    inlined; it now calls extensions.unaccent with the same pinned dictionary directly (same
--    result). Only the title condition keeps the wrapper, as written in the trigram index.
-- 3. Spelling correction looked up each word with `%` (GIN) and computed similarity() for every
--    candidate before sorting. The dictionary now has a GiST trigram index and each word takes
--    its nearest neighbour by trigram distance (`order by word <-> token, word limit 1`), then
--    keeps it only when similarity >= 0.45. distance = 1 - similarity, so this picks the same
--    word as before (highest similarity, ties by word) without scoring every candidate.
-- 4. JIT is off for search(): the custom plans of a very common word (e.g. 'Projekt', ~130,000
--    hits on the benchmark data) pass jit_above_cost, and compiling the expressions would add
--    its cost to a statement that runs in milliseconds per thousand hits. (Not measurable
--    locally: the embedded PostgreSQL has no JIT provider; the hosted one has.)
--
-- Unchanged: signature, result shape, matching (German and English stems, unaccented), the
-- order (score desc, premium desc, date desc nulls last, type, id), the premium factor 1.25,
-- visibility/blocking filters, facets (types over the four site-search types plus the
-- requested ones; categories, cities and total over the requested types), and the typo
-- fallback (correct the spelling only when full-text search finds nothing; the word
-- similarity on titles only when the corrected query finds nothing either).

-- 1. GIN pending lists: at most 64 kB, and empty now.
alter index private.search_items_de_idx set (gin_pending_list_limit = 64);
alter index private.search_items_en_idx set (gin_pending_list_limit = 64);
alter index private.search_items_title_trgm_idx set (gin_pending_list_limit = 64);
select pg_catalog.gin_clean_pending_list('private.search_items_de_idx'::regclass),
       pg_catalog.gin_clean_pending_list('private.search_items_en_idx'::regclass),
       pg_catalog.gin_clean_pending_list('private.search_items_title_trgm_idx'::regclass);

-- 3. Dictionary: GiST trigram index for nearest-neighbour lookups (the GIN index served only `%`).
create index search_words_trgm_gist_idx on private.search_words using gist (word extensions.gist_trgm_ops);
drop index private.search_words_trgm_idx;

-- Query words replaced by their closest dictionary word (similarity >= 0.45), spaces between.
-- Nearest neighbour by trigram distance (GiST KNN); same choice as the earlier `%` + similarity
-- ranking: highest similarity, ties by word.
create or replace function private.correct_spelling(value text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select string_agg(coalesce(
           (select k.word
            from (select w.word from private.search_words w
                  order by w.word operator(extensions.<->) t.tok, w.word
                  limit 1) k
            where extensions.similarity(k.word, t.tok) >= 0.45),
           t.tok), ' ' order by t.ord)
  from pg_catalog.regexp_split_to_table(private.unaccent(pg_catalog.lower(coalesce(value, ''))), '[^a-z0-9]+')
       with ordinality as t(tok, ord)
  where t.tok <> ''
$$;
comment on function private.correct_spelling(text) is
  'Spelling correction of a search query against private.search_words (nearest trigram neighbour, similarity >= 0.45).';

-- 2. + 4. The search itself.
create or replace function private.search(
  q text, types text[], category text, city text, date_from date, date_to date, page integer, page_size integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'auto'
set jit = off
as $$
#variable_conflict use_column
declare
  v_q text := nullif(pg_catalog.btrim(coalesce(q, '')), '');
  v_norm text := private.unaccent(pg_catalog.lower(coalesce(pg_catalog.btrim(q), '')));
  v_types text[] := coalesce(nullif(types, '{}'), array['project', 'portfolio', 'event', 'profile']);
  v_facet_types text[];
  v_jobs boolean;        -- jobs are among the facet types (the other four always are)
  v_all_types boolean;   -- every facet type was requested (no type filter on counts and page)
  v_no_hidden boolean;   -- the caller hides nobody (anon, no blocks)
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
  -- The statement below tests these flags instead of the arrays per row where it can: PL/pgSQL
  -- keeps array variables in expanded form, and `= any (array variable)` flattens the array again
  -- for every row it is evaluated on.
  v_jobs := 'job' = any (v_types);
  v_all_types := v_types @> v_facet_types;
  v_no_hidden := coalesce(cardinality(v_hidden), 0) = 0;
  if v_q is null then
    -- browse mode (no words): newest first, counts over the 2000 newest matches
    return private.search_browse(v_types, v_cat, v_city, v_from, v_to, v_dated, v_hidden, v_page, v_size);
  end if;
  tq_de := pg_catalog.websearch_to_tsquery('private.teamwerk_de'::regconfig, v_q);
  tq_en := pg_catalog.websearch_to_tsquery('private.teamwerk_en'::regconfig, v_q);

  <<attempt>>
  loop
  with matches as materialized (
    -- every hit once, with its final score (relevance x 1.25 for premium owners)
    -- (double precision factors: the same product as the former numeric 1.25, which was
    -- converted to double precision through its text form on every row)
    select u.type, u.id, u.category, u.city, u.date, u.premium, u.owner_id,
           u.relevance * case when u.premium then 1.25::double precision else 1::double precision end as score
    from (
      -- full-text search: all hits, unsorted (the page is a top-N sort below)
      select s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id,
             pg_catalog.ts_rank_cd(s.search_de, tq_de) + pg_catalog.ts_rank_cd(s.search_en, tq_en) as relevance
      from private.search_items s
      where not v_fuzzy
        and s.searchable
        and (s.search_de @@ tq_de or s.search_en @@ tq_en)
        and (s.type <> 'job' or v_jobs)
        and (v_no_hidden or not coalesce(s.owner_id = any (v_hidden), false))
        and (s.expires_at is null or s.expires_at > pg_catalog.now())
        and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
        and (v_cat is null or v_cat = any (s.categories))
        and (v_city is null or extensions.unaccent('extensions.unaccent'::regdictionary, pg_catalog.lower(coalesce(s.city, ''))) = v_city)
      union all
      -- last resort: trigram word similarity on titles and names, the best 200
      (select s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id,
              extensions.word_similarity(v_norm, extensions.unaccent('extensions.unaccent'::regdictionary, pg_catalog.lower(s.title))) as relevance
       from private.search_items s
       where v_fuzzy
         and s.searchable
         -- written as in the index search_items_title_trgm_idx, so that index answers it
         and v_norm operator(extensions.<%) private.unaccent(pg_catalog.lower(s.title))
         and (s.type <> 'job' or v_jobs)
         and (v_no_hidden or not coalesce(s.owner_id = any (v_hidden), false))
         and (s.expires_at is null or s.expires_at > pg_catalog.now())
         and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
         and (v_cat is null or v_cat = any (s.categories))
         and (v_city is null or extensions.unaccent('extensions.unaccent'::regdictionary, pg_catalog.lower(coalesce(s.city, ''))) = v_city)
       order by relevance desc
       limit 200)
    ) u
  ),
  -- one hash aggregation over the hits; the facets and the total are sums over its (few) groups
  groups as materialized (
    select m.type, m.category, m.city, count(*) as n
    from matches m
    group by m.type, m.category, m.city
  ),
  page_rows as (
    select p.*, d.title, d.slug, d.body
    from (select m.* from matches m
          where v_all_types or m.type = any (v_types)
          order by m.score desc, m.premium desc, m.date desc nulls last, m.type, m.id
          limit v_size offset (v_page - 1) * v_size) p
    cross join lateral private.search_document(p.type, p.id) d
  )
  select pg_catalog.jsonb_build_object(
    'total', (select coalesce(sum(g.n), 0)::bigint from groups g where v_all_types or g.type = any (v_types)),
    'page', v_page,
    'page_size', v_size,
    'facets', pg_catalog.jsonb_build_object(
      'types', (select coalesce(pg_catalog.jsonb_object_agg(t.type, t.n), '{}'::jsonb)
                from (select g.type, sum(g.n)::bigint as n from groups g group by g.type) t),
      'categories', (select coalesce(pg_catalog.jsonb_object_agg(c.category, c.n), '{}'::jsonb)
                     from (select g.category, sum(g.n)::bigint as n from groups g
                           where g.category is not null and (v_all_types or g.type = any (v_types))
                           group by g.category) c),
      'cities', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('city', c.city, 'count', c.n) order by c.n desc, c.city), '[]'::jsonb)
                 from (select g.city, sum(g.n)::bigint as n from groups g
                       where g.city is not null and (v_all_types or g.type = any (v_types))
                       group by g.city order by n desc, g.city limit 15) c)),
    'results', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
        'type', r.type, 'id', r.id, 'slug', r.slug, 'title', r.title,
        'title_highlight', pg_catalog.ts_headline('private.teamwerk_de'::regconfig, private.html_escape(r.title), tq_de || tq_en,
            'StartSel=<mark>, StopSel=</mark>, HighlightAll=true'),
        'snippet', pg_catalog.ts_headline('private.teamwerk_de'::regconfig, private.html_escape(r.body), tq_de || tq_en,
            'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "'),
        'category', r.category, 'city', r.city, 'date', r.date, 'premium', r.premium,
        'score', round(r.score::numeric, 4), 'owner_id', r.owner_id)
        order by r.score desc, r.premium desc, r.date desc nulls last, r.type, r.id)
      from page_rows r), '[]'::jsonb)
  ) into result;
  -- typo tolerance when full-text search finds nothing at all: first correct the spelling
  -- against the dictionary and search again; then trigram similarity on titles and names
  exit attempt when v_fuzzy or (result -> 'facets' -> 'types') <> '{}'::jsonb;
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
