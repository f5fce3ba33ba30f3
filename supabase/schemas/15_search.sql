-- =============================================================================
-- Visible users and site search (spec §3, §6; issues 8, 12, 18)
-- =============================================================================
-- Search index: one row per searchable thing (project, portfolio, event, person, job), kept
-- current by triggers. It lives in `private`, so API rows (select=*) carry no tsvectors, and
-- search() scans one table instead of joining owners: `searchable` already folds in the content
-- status and the owner's state (confirmed, visible, not suspended).
--
-- Matching: German and English full-text search (unaccented stems); only when that finds nothing,
-- the query is spelling-corrected against private.search_words (pg_trgm) and searched again, and
-- as a last resort trigram word similarity on titles/names is used (the best 200 overall).
-- Ranking: ts_rank for one word (with its synonyms and spellings), ts_rank_cd (cover density: words
-- standing close rank higher) for several words or a phrase, or the similarity. Premium preference (spec §6): relevance x 1.25 for
-- content of premium/enterprise members, and at equal score premium first. Only searchable rows
-- of owners not in a block relation with the caller. Results tell a member's plan only when the
-- member shows the premium badge (issue 12: the role is private), and carry the owner's public
-- face (issue 18).
--
-- Speed (issue 8 benchmark: p95 <= 30 ms on 2 cores, profiled on the large data set of
-- scripts/bench/db-queries.ts). A typo query such as 'Nachbarschafshilfe' runs full-text search
-- (no hits), spelling correction and full-text search again with the corrected words, so it
-- costs a broad search plus the failed first pass. Hence:
-- 1. The GIN pending lists of the three search indexes are capped at the minimum (64 kB, a few
--    pages): every lookup scans the whole unsorted list, which with the default (4 MB, emptied
--    only by (auto)vacuum) was ~375 pages for a single word after a bulk load, paid twice by a
--    typo query. Inserts still batch: bulk insert of 20,000 rows 1.4 s (4 MB list) -> 2.2 s
--    (64 kB) vs 6.7 s with fastupdate = off, which is why the list is capped, not switched off.
-- 2. The cost of a query grows with the page, not with the number of hits (issue 34: a broad
--    word such as 'Projekt' with 100k hits took 695 ms p95 when every hit was ranked). The
--    full-text branch takes the newest v_cap + 1 hits (v_cap = 1,000 for the first 50 pages of
--    20, then whole thousands covering the page): with many hits (planner estimate above 20
--    v_cap) they are read in date order from search_items_browse_idx (or
--    search_items_city_browse_idx) and the scan stops early, with fewer the GIN indexes find them
--    all and a top-N sort keeps the newest (chosen by the estimate: the planner itself read a
--    6,400-hit word in date order, 30-230 ms instead of 5 ms). Only those
--    are ranked (ts_rank or ts_rank_cd x premium factor) and the page is the best of them. When there are
--    at most v_cap hits this is every hit: ranking, total and facets are exact, as before. With
--    more, the facets count the v_cap newest hits ("total_capped") and the total is the
--    planner's estimate (private.search_estimate, "total_estimated"; the SPA says "about").
--    Recency is the rank-independent order: the newest content is what a broad word should
--    show first among equally relevant hits. A type filter takes the hits of the requested
--    types; the type facet then reads the newest hits of every type separately (facet_hits).
--    The plans are custom (plan_cache_mode force_custom_plan): whether date order or the GIN
--    indexes are cheaper depends on how common the words are, which only the planner's
--    statistics for the actual words tell; planning costs well under a millisecond.
--    The fuzzy branch keeps its "best 200" sort and limit; both branches are in one statement
--    guarded by v_fuzzy. Per-row overhead is avoided: double precision premium factor, and the
--    city filter and the title similarity compare stored normalised columns (city_norm,
--    title_norm; the SQL wrapper private.unaccent is not inlined because of its SET clause).
--    Column references that share a name with a parameter (category, city) are qualified, so the
--    statement is unambiguous whatever the variable_conflict setting (42702 seen through
--    PostgREST otherwise).
-- 3. Spelling correction takes each word's nearest neighbour by trigram distance from the GiST
--    index (`order by word <-> token, word limit 1`) and keeps it only when similarity >= 0.45
--    (distance = 1 - similarity: highest similarity, ties by word).
-- 4. JIT is off for search(): the custom plans of a very common word (e.g. 'Projekt', ~130,000
--    hits on the benchmark data) pass jit_above_cost, and compiling the expressions would add
--    its cost to a statement that runs in milliseconds per thousand hits.

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

-- The number of listed users (confirmed, visible, not suspended) is kept in a counter by
-- triggers, so the count is O(1) plus the caller's own block list; counting through the view
-- would evaluate the profiles policy for every row.
create table private.counters (
  name text primary key,
  value bigint not null
);
comment on table private.counters is 'Maintained aggregates (listed_profiles = confirmed, visible, not suspended users); the value plus the rows of private.counter_deltas of the same name.';
alter table private.counters enable row level security;
revoke all on private.counters from public, anon, authenticated;

-- Changes of a counter are inserted here rather than written to the counter row: inserts take no
-- row lock, so sign-ups, confirmations and visibility changes never wait for each other (one
-- counter row updated by every transaction serialised them all and deadlocked with longer
-- transactions). private.compact_counters (pg_cron, every minute) folds them into the row.
create table private.counter_deltas (
  id bigint generated always as identity primary key,
  name text not null,
  delta bigint not null
);
comment on table private.counter_deltas is 'Not yet compacted changes of private.counters (private.compact_counters folds them in).';
create index counter_deltas_name_idx on private.counter_deltas (name);
alter table private.counter_deltas enable row level security;
revoke all on private.counter_deltas from public, anon, authenticated;

-- Spelling dictionary for typo tolerance: every word of titles, names and cities, unaccented
-- and lower-cased. A misspelt query word is replaced by its most similar dictionary word
-- (pg_trgm) before full-text search runs again. Words are never removed (a stale word only
-- yields an empty result). GiST trigram index for nearest-neighbour lookups.
create table private.search_words (
  word text primary key check (word ~ '^[a-z0-9]{3,40}$')
);

comment on table private.search_words is 'Distinct words of searchable titles/names/cities (unaccented, lower case) for spelling correction.';
create index search_words_trgm_gist_idx on private.search_words using gist (word extensions.gist_trgm_ops);
alter table private.search_words enable row level security;
revoke all on private.search_words from public, anon, authenticated;

-- ae/oe/ue folded (issue 33 §2): the key under which a query word and a synonym are compared
-- (private.search_synonyms.word_key, private.search_query).
create or replace function private.fold_umlaut_digraphs(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(value, '([aou])e', '\1', 'g')
$$;
comment on function private.fold_umlaut_digraphs(text) is
  'ae/oe/ue -> a/o/u, the unaccented form of a word typed with digraphs for umlauts ("koeln" -> "koln"; issue 33 §2).';

-- Synonyms (issue 33 §2): content is largely German while English users type English words and
-- the English names of the categories ("technology" for "Technologie"). A query word equal to
-- either side of a pair (unaccented, lower case; oe/ue/ae folded like the query word) also finds
-- the other side. Both sides feed the spelling dictionary, so "tecnology" is corrected to
-- "technology" and then finds "Technologie". Filled by the data migration of issue 33.
create table private.search_synonyms (
  word text not null check (word ~ '^[a-z0-9]{2,40}$'),
  synonym text not null check (synonym ~ '^[a-z0-9]{2,40}$'),
  -- the sides with ae/oe/ue folded, as search_query compares them: columns, so a lookup reads an
  -- index instead of calling the (not inlinable) function on every pair (issue 34)
  word_key text generated always as (private.fold_umlaut_digraphs(word)) stored,
  synonym_key text generated always as (private.fold_umlaut_digraphs(synonym)) stored,
  primary key (word, synonym)
);
comment on table private.search_synonyms is
  'Word pairs searched for each other (English words and category names <-> German), unaccented lower case (issue 33 §2).';
create index search_synonyms_word_key_idx on private.search_synonyms (word_key);
create index search_synonyms_synonym_key_idx on private.search_synonyms (synonym_key);
alter table private.search_synonyms enable row level security;
revoke all on private.search_synonyms from public, anon, authenticated;

create table private.search_items (
  type text not null check (type in ('project', 'portfolio', 'event', 'profile', 'job')),
  id text not null,
  owner_id uuid,
  searchable boolean not null,
  premium boolean not null default false,
  categories text[] not null default '{}',
  city text,
  date timestamptz,
  expires_at timestamptz,
  title text not null,
  search_de tsvector not null,
  search_en tsvector not null,
  -- unaccented lower case, for the city filter and the title similarity (issue 34: a column, so
  -- neither a filter nor an index recheck calls the private.unaccent wrapper per row)
  city_norm text generated always as (private.unaccent(pg_catalog.lower(city))) stored,
  title_norm text generated always as (private.unaccent(pg_catalog.lower(title))) stored,
  primary key (type, id)
);
comment on table private.search_items is
  'Search documents (German and English tsvectors, unaccented) with the filter and ranking values; maintained by triggers.';
comment on column private.search_items.searchable is
  'Published/listed content of a confirmed, visible, not suspended owner (profiles: the person is listed).';
comment on column private.search_items.premium is 'Owner on premium/enterprise (spec §6 preference).';
comment on column private.search_items.date is 'published_at, event start or job posting; null for people.';
comment on column private.search_items.expires_at is 'Jobs only: hidden after this time.';
comment on column private.search_items.city_norm is 'city unaccented and lower case (the search city filter compares it).';
comment on column private.search_items.title_norm is 'title unaccented and lower case (title similarity, the last resort of search).';
create index search_items_de_idx on private.search_items using gin (search_de) with (gin_pending_list_limit = 64) where searchable;
create index search_items_en_idx on private.search_items using gin (search_en) with (gin_pending_list_limit = 64) where searchable;
-- GiST with 64-byte signatures (issue 34): on 190,000 titles a three-word similarity query read
-- its 1,440 candidates in 16-28 ms, where the GIN index merged the long posting lists of common
-- trigrams in 56-75 ms (the default 12-byte signatures: 41-94 ms, even for words without hits)
create index search_items_title_trgm_idx on private.search_items
  using gist (title_norm extensions.gist_trgm_ops (siglen = 64)) where searchable;
create index search_items_owner_idx on private.search_items (owner_id);
-- fine date quantiles for private.search_window_start (steps of 0.1 % of the rows)
alter table private.search_items alter column date set statistics 1000;
create index search_items_browse_idx on private.search_items (date desc nulls last) where searchable;
create index search_items_type_browse_idx on private.search_items (type, date desc nulls last) where searchable;
-- the city filter, newest first (browse by city reads only that city's newest rows; issue 34)
create index search_items_city_browse_idx on private.search_items (city_norm, date desc nulls last) where searchable;
alter table private.search_items enable row level security;
revoke all on private.search_items from public, anon, authenticated;

-- -----------------------------------------------------------------------------
-- Trigger functions and triggers
-- -----------------------------------------------------------------------------

-- The listed-users counter (private.counters.listed_profiles plus its private.counter_deltas,
-- shown as the number of visible users): changes insert a delta. On a profile deletion the row
-- lock of the counter is taken in its own statement first and the recount runs in a new
-- statement. Under READ COMMITTED (PostgREST, Auth, the admin API) every statement of a volatile
-- PL/pgSQL function gets a fresh snapshot, so the recount sees every committed change; it removes
-- the deltas that snapshot sees in the same statement, and a transaction that changed a profile
-- but has not committed yet keeps its delta, which counts on top once it commits.
create or replace function private.count_listed_profiles()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_listed boolean;
  new_listed boolean;
begin
  if tg_table_name = 'account_suspensions' then
    -- a suspension hides a listed profile; lifting it shows it again (profile may be gone on cascade)
    if exists (select 1 from public.profiles p where p.id = coalesce(new.user_id, old.user_id)
               and p.authenticated = 1 and p.profile_visibility = 1) then
      perform private.bump_listed_profiles(case when tg_op = 'INSERT' then -1 else 1 end);
    end if;
    return null;
  end if;
  if tg_op = 'DELETE' then
    -- rare; the suspension row may already be gone (cascade), so recount: lock first, then count
    -- with the snapshot of the next statement (see the header of this migration)
    perform 1 from private.counters where name = 'listed_profiles' for update;
    with folded as (delete from private.counter_deltas where name = 'listed_profiles' returning 1)
    update private.counters set value = (
      select count(*) from public.profiles p
      where p.authenticated = 1 and p.profile_visibility = 1
        and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))
    where name = 'listed_profiles';
    return null;
  end if;
  new_listed := new.authenticated = 1 and new.profile_visibility = 1;
  old_listed := tg_op = 'UPDATE' and old.authenticated = 1 and old.profile_visibility = 1;
  if new_listed is distinct from old_listed
     and not exists (select 1 from public.account_suspensions s where s.user_id = new.id) then
    perform private.bump_listed_profiles(case when new_listed then 1 else -1 end);
  end if;
  return null;
end;
$$;
comment on function private.count_listed_profiles() is
  'AFTER trigger keeping the listed_profiles counter current (a delta per change); deletions recount after locking the counter row (no drift under concurrent deletions).';
create trigger profiles_count_listed after insert or delete or update of authenticated, profile_visibility on public.profiles
  for each row execute function private.count_listed_profiles();
create trigger account_suspensions_count_listed after insert or delete on public.account_suspensions
  for each row execute function private.count_listed_profiles();

-- AFTER INSERT OR UPDATE trigger; TG_ARGV are the text columns to collect.
create or replace function private.collect_search_words()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  doc jsonb := pg_catalog.to_jsonb(new);
  col text;
  words text := '';
begin
  foreach col in array tg_argv loop
    words := words || ' ' || coalesce(doc ->> col, '');
  end loop;
  perform private.add_search_words(words);
  return null;
end;
$$;
comment on function private.collect_search_words() is 'Feeds private.search_words from the named columns.';
create trigger projects_search_words after insert or update of title, city on public.projects
  for each row execute function private.collect_search_words('title', 'city');
create trigger portfolios_search_words after insert or update of title, city on public.portfolios
  for each row execute function private.collect_search_words('title', 'city');
create trigger events_search_words after insert or update of title, city on public.events
  for each row execute function private.collect_search_words('title', 'city');
create trigger profiles_search_words after insert or update of firstname, lastname, city, headline on public.profiles
  for each row execute function private.collect_search_words('firstname', 'lastname', 'city', 'headline');
create trigger search_synonyms_search_words after insert or update on private.search_synonyms
  for each row execute function private.collect_search_words('word', 'synonym');

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
create trigger projects_search_item after insert or update or delete on public.projects
  for each row execute function private.sync_search_item();
create trigger portfolios_search_item after insert or update or delete on public.portfolios
  for each row execute function private.sync_search_item();
create trigger events_search_item after insert or update or delete on public.events
  for each row execute function private.sync_search_item();
create trigger jobs_search_item after insert or update or delete on public.jobs
  for each row execute function private.sync_search_item();
create trigger profiles_search_item after insert or update or delete on public.profiles
  for each row execute function private.sync_search_item();

-- A suspension changes whether a person is listed (content follows through owner_listed).
create or replace function private.sync_profile_search_item()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.search_items set searchable = (
      select p.authenticated = 1 and p.profile_visibility = 1 and not private.is_suspended(p.id)
      from public.profiles p where p.id = coalesce(new.user_id, old.user_id))
  where type = 'profile' and id = coalesce(new.user_id, old.user_id)::text;
  return null;
end;
$$;
comment on function private.sync_profile_search_item() is 'AFTER INSERT/DELETE on account_suspensions: re-evaluates the person''s search row.';
create trigger account_suspensions_search_item after insert or delete on public.account_suspensions
  for each row execute function private.sync_profile_search_item();

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

create or replace function private.bump_listed_profiles(delta bigint)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.counter_deltas (name, delta) select 'listed_profiles', delta where delta <> 0
$$;
comment on function private.bump_listed_profiles(bigint) is 'Adds delta to the listed_profiles counter (a row of private.counter_deltas; no lock on the counter row).';

create or replace function private.counter_value(p_name text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select value from private.counters where name = p_name), 0)
    + coalesce((select sum(delta) from private.counter_deltas where name = p_name), 0)::bigint
$$;
comment on function private.counter_value(text) is 'Current value of a maintained counter: the row plus its not yet compacted deltas.';

/* Folds the deltas of every counter into its row (pg_cron, every minute): per counter, the row
   lock first, then one statement that deletes the deltas it sees and adds their sum. Runs one at a
   time (a transaction-level advisory lock, as private.compact_map_cells): a second caller waits
   and then folds what is left; a session holding the same lock keeps the cron job out. */
create or replace function private.compact_counters()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  c record;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.compact_counters'));
  for c in select name from private.counters order by name loop
    perform 1 from private.counters where name = c.name for update;
    with folded as (delete from private.counter_deltas where name = c.name returning delta)
    update private.counters set value = value + coalesce((select sum(delta) from folded), 0)
    where name = c.name;
  end loop;
end;
$$;
comment on function private.compact_counters() is 'Folds private.counter_deltas into private.counters (pg_cron, every minute).';

create or replace function private.visible_profiles_count()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select private.counter_value('listed_profiles')
    - (select count(*) from public.profiles p
       where p.id = any (private.hidden_user_ids()) and p.authenticated = 1 and p.profile_visibility = 1
         and not exists (select 1 from public.account_suspensions s where s.user_id = p.id))
$$;
comment on function private.visible_profiles_count() is
  'Implementation of public.visible_profiles_count: listed users minus those in a block relation with the caller.';

create or replace function private.add_search_words(value text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.search_words (word)
  select distinct t from pg_catalog.regexp_split_to_table(private.unaccent(pg_catalog.lower(coalesce(value, ''))), '[^a-z0-9]+') t
  where char_length(t) between 3 and 40 and t !~ '^[0-9]+$'
  on conflict do nothing
$$;
comment on function private.add_search_words(text) is 'Adds the words of a text to the spelling dictionary.';

-- Query words replaced by their closest dictionary word (similarity >= 0.45), spaces between;
-- nearest neighbour by trigram distance (GiST KNN): highest similarity, ties by word.
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

-- Transliteration (issue 33 §2): German users type oe/ue/ae for ö/ü/ä (ß -> ss is already what
-- unaccent does on both sides). The index keeps the unaccented stems ("Köln" -> koln); a query
-- word is searched as typed and in its other spelling: "Koeln" also as "koln", "Köln" also as
-- "koeln" (content written "Koeln"). Folding the documents instead would make ts_headline, which
-- parses the original text, miss every word that really contains ue/ae/oe ("Steuer", "Feuer").
create or replace function private.expand_umlauts(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.lower(value), 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue')
$$;
comment on function private.expand_umlauts(text) is 'ä/ö/ü -> ae/oe/ue, lower case ("Köln" -> "koeln"; issue 33 §2).';

/* The full-text query of search() for a configuration (issue 33 §2): websearch_to_tsquery of
   the words, in which every word is replaced by the alternatives of that word: as typed, its
   other umlaut spelling (private.fold_umlaut_digraphs, private.expand_umlauts) and its synonyms
   (private.search_synonyms, either side; also for a plural with s/es). Computed once per query,
   so the cost does not depend on the number of hits (issue 34). */
create or replace function private.search_query(p_cfg regconfig, p_q text)
returns tsquery
language plpgsql
stable
security definer
set search_path = ''
-- its statements keep their cached plans (search()'s force_custom_plan planned them again on each
-- call: 0.4 ms of each search, issue 34)
set plan_cache_mode = 'auto'
as $$
declare
  v_query tsquery := pg_catalog.websearch_to_tsquery(p_cfg, p_q);
  v_tok text;
  v_key text;
  v_target tsquery;
  v_alt tsquery;
  v_word text;
begin
  -- the parser's word tokens (ASCII, non-ASCII, with digits; parts of hyphenated words)
  for v_tok in
    select distinct pg_catalog.lower(p.token) from pg_catalog.ts_parse('default', coalesce(p_q, '')) p
    where p.tokid in (1, 2, 3, 9, 10, 11) and pg_catalog.char_length(p.token) <= 40
  loop
    v_target := pg_catalog.plainto_tsquery(p_cfg, v_tok);
    continue when pg_catalog.numnode(v_target) <> 1;
    v_key := private.fold_umlaut_digraphs(private.unaccent(v_tok));
    v_alt := v_target;
    for v_word in
      select distinct a.w from (
        select v_key
        union all select private.expand_umlauts(v_tok)
        union all select s.synonym from private.search_synonyms s
          where s.word_key in (v_key, pg_catalog.regexp_replace(v_key, 'e?s$', ''))
        union all select s.word from private.search_synonyms s
          where s.synonym_key in (v_key, pg_catalog.regexp_replace(v_key, 'e?s$', ''))
      ) a(w)
      where a.w <> v_tok and pg_catalog.plainto_tsquery(p_cfg, a.w)::text <> v_target::text
    loop
      v_alt := v_alt || pg_catalog.plainto_tsquery(p_cfg, v_word);
    end loop;
    if v_alt::text <> v_target::text then
      v_query := pg_catalog.ts_rewrite(v_query, v_target, v_alt);
    end if;
  end loop;
  return v_query;
end;
$$;
comment on function private.search_query(regconfig, text) is
  'websearch_to_tsquery with each word widened to its umlaut spellings and synonyms (issue 33 §2).';

-- Weighted document: A = title/name, B = summary, skills, roles, city, C = long text.
create or replace function private.search_vector(cfg regconfig, a text, b text, c text)
returns tsvector
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.setweight(pg_catalog.to_tsvector(cfg, coalesce(a, '')), 'A')
      || pg_catalog.setweight(pg_catalog.to_tsvector(cfg, coalesce(b, '')), 'B')
      || pg_catalog.setweight(pg_catalog.to_tsvector(cfg, coalesce(c, '')), 'C')
$$;
comment on function private.search_vector(regconfig, text, text, text) is 'Weighted tsvector (A title, B short texts, C long text).';

-- The names of a row's categories in English and German, as the SPA shows them (issue 33 §2:
-- "technology" and "Technologie" find the technology projects whatever their texts say). They
-- are the lowest weight (D) of both tsvectors.
create or replace function private.category_words(p_categories text[])
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.string_agg(case c
      when 'education' then 'Education Bildung' when 'technology' then 'Technology Technologie'
      when 'business' then 'Business Wirtschaft' when 'art' then 'Art Kunst'
      when 'community' then 'Community Gemeinschaft' when 'environment' then 'Environment Umwelt'
      when 'health' then 'Health Gesundheit' when 'science' then 'Science Wissenschaft'
      when 'social' then 'Social Soziales' when 'other' then 'Other Sonstiges'
      when 'socializing' then 'Socializing Geselligkeit' when 'movement' then 'Movement Bewegung'
      when 'creative' then 'Creative Kreatives' when 'learning_exchange' then 'Learning exchange Lernen Austausch'
      when 'cooking_eating' then 'Cooking eating Kochen Essen' when 'family_children' then 'Family children Familie Kinder'
      when 'volunteer' then 'Volunteering Ehrenamt' when 'testing_idea' then 'Testing idea Idee testen'
      when 'finding_partners' then 'Finding partners Partner finden'
      when 'gaining_visibility' then 'Gaining visibility Sichtbarkeit gewinnen'
    end, ' '), '')
  from pg_catalog.unnest(p_categories) c
$$;
comment on function private.category_words(text[]) is
  'English and German names of search categories, for weight D of the search tsvectors (issue 33 §2).';

create or replace function private.put_search_item(
  p_type text, p_id text, p_owner uuid, p_searchable boolean, p_premium boolean, p_categories text[], p_city text,
  p_date timestamptz, p_expires timestamptz, p_title text, p_a text, p_b text, p_c_de text, p_c_en text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.search_items as s (type, id, owner_id, searchable, premium, categories, city, date, expires_at, title, search_de, search_en)
  values (p_type, p_id, p_owner, coalesce(p_searchable, false), coalesce(p_premium, false), coalesce(p_categories, '{}'), p_city,
          p_date, p_expires, coalesce(p_title, ''),
          private.search_vector('private.teamwerk_de'::regconfig, p_a, p_b, p_c_de)
            || pg_catalog.setweight(pg_catalog.to_tsvector('private.teamwerk_de'::regconfig, private.category_words(p_categories)), 'D'),
          private.search_vector('private.teamwerk_en'::regconfig, p_a, p_b, p_c_en)
            || pg_catalog.setweight(pg_catalog.to_tsvector('private.teamwerk_en'::regconfig, private.category_words(p_categories)), 'D'))
  on conflict (type, id) do update set
    owner_id = excluded.owner_id, searchable = excluded.searchable, premium = excluded.premium,
    categories = excluded.categories, city = excluded.city, date = excluded.date, expires_at = excluded.expires_at,
    title = excluded.title, search_de = excluded.search_de, search_en = excluded.search_en
$$;
comment on function private.put_search_item(text, text, uuid, boolean, boolean, text[], text, timestamptz, timestamptz, text, text, text, text, text) is
  'Upserts one search document (A title, B short texts, C long text, D category names).';

-- plan_cache_mode auto (issue 34): search() forces custom plans for its own statements, and the
-- setting would otherwise hold here too, planning each lookup again for every hit of the page.
create or replace function private.search_document(p_type text, p_id text)
returns table (title text, slug text, body text)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'auto'
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

-- The number of full-text hits when there are too many to count per request (issue 34): the
-- planner's row estimate for the words and filters (the statistics of the tsvector columns:
-- most common lexemes and their frequencies), as large search engines show "about 100,000
-- results". Rounded to two significant digits. Volatile only because EXPLAIN is a utility
-- statement, which a stable function may not run; it reads nothing but the statistics.
create or replace function private.search_estimate(p_de tsquery, p_en tsquery, p_types text[], p_cat text, p_city text)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_plan jsonb;
  v_rows double precision;
begin
  execute pg_catalog.format(
    'explain (format json) select 1 from private.search_items s where s.searchable and (s.search_de @@ %L::tsquery or s.search_en @@ %L::tsquery)'
    ' and s.type = any (%L::text[]) and (%L::text is null or %L = any (s.categories)) and (%L::text is null or s.city_norm = %L)',
    p_de::text, p_en::text, p_types, p_cat, p_cat, p_city, p_city)
    into v_plan;
  v_rows := greatest((v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision, 1);
  return pg_catalog.round(v_rows::numeric, 1 - pg_catalog.floor(pg_catalog.log(v_rows::numeric))::integer)::bigint;
end;
$$;
comment on function private.search_estimate(tsquery, tsquery, text[], text, text) is
  'Estimated number of full-text hits (planner statistics, two significant digits) for search() when the hits exceed what it ranks.';

-- The start of the date window of search() that holds the newest `p_fraction` of the search
-- rows (issue 34): a bound of the histogram of search_items.date (statistics target 1000, so
-- steps of 0.1 %); null when the fraction is 1 or more, or there are no statistics yet.
create or replace function private.search_window_start(p_fraction double precision)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'auto'
as $$
begin
  -- PL/pgSQL (issue 34): as an SQL function with set search_path it was planned again on every
  -- call (0.85 ms). The bounds as text[]: only the one bound needed is read as a timestamp (the
  -- 1,001 of them as timestamptz[] cost 1.2 ms more per call).
  return (
    select case when p_fraction < 1 then
      (b.bounds)[greatest(1, pg_catalog.floor((1 - p_fraction) * pg_catalog.cardinality(b.bounds))::integer)]::timestamptz
    end
    from (select st.histogram_bounds::text::text[] as bounds
          from pg_catalog.pg_stats st
          where st.schemaname = 'private' and st.tablename = 'search_items' and st.attname = 'date') b);
end;
$$;
comment on function private.search_window_start(double precision) is
  'Date from which the newest given fraction of search rows lies (column statistics); null for all.';

-- Browse mode of search(): no query words. Same filters and result shape, newest first. To stay
-- fast on large data it looks at the 2000 newest matching rows of the requested types: counts
-- then read "at least" (result key "total_capped": true) and the type facet covers only the
-- requested types.
create or replace function private.search_browse(
  p_types text[], p_cat text, p_city text, p_from timestamptz, p_to timestamptz,
  p_dated boolean, p_hidden uuid[], p_page integer, p_size integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
as $$
declare
  result jsonb;
begin
  with base as materialized (
    select s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id
    from private.search_items s
    where s.searchable
      and s.type = any (p_types)
      and not coalesce(s.owner_id = any (p_hidden), false)
      and (s.expires_at is null or s.expires_at > pg_catalog.now())
      and (not p_dated or ((p_from is null or s.date >= p_from) and (p_to is null or s.date < p_to) and s.type <> 'profile'))
      and (p_cat is null or p_cat = any (s.categories))
      and (p_city is null or s.city_norm = p_city)
    order by s.date desc nulls last
    limit 2001
  ),
  capped as (
    select * from base order by date desc nulls last limit 2000
  ),
  page_rows as (
    select b.*, d.title, d.slug, d.body
    from (select * from capped order by date desc nulls last, premium desc, type, id
          limit p_size offset (p_page - 1) * p_size) b
    cross join lateral private.search_document(b.type, b.id) d
  )
  select pg_catalog.jsonb_build_object(
    'total', (select count(*) from capped),
    'total_capped', (select count(*) from base) > 2000,
    'page', p_page,
    'page_size', p_size,
    'facets', pg_catalog.jsonb_build_object(
      'types', (select coalesce(pg_catalog.jsonb_object_agg(t.type, t.n), '{}'::jsonb)
                from (select type, count(*) as n from capped group by type) t),
      'categories', (select coalesce(pg_catalog.jsonb_object_agg(c.category, c.n), '{}'::jsonb)
                     from (select category, count(*) as n from capped where category is not null group by category) c),
      'cities', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('city', c.city, 'count', c.n) order by c.n desc, c.city), '[]'::jsonb)
                 from (select city, count(*) as n from capped where city is not null group by city order by n desc, city limit 15) c)),
    'results', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
        'type', r.type, 'id', r.id, 'slug', r.slug, 'title', r.title,
        'title_highlight', private.html_escape(r.title),
        'snippet', private.html_escape(pg_catalog.left(r.body, 200)),
        'category', r.category, 'city', r.city, 'date', r.date, 'premium', r.premium, 'score', 0, 'owner_id', r.owner_id)
        order by r.date desc nulls last, r.premium desc, r.type, r.id)
      from page_rows r), '[]'::jsonb))
  into result;
  return result;
end;
$$;
comment on function private.search_browse(text[], text, text, timestamptz, timestamptz, boolean, uuid[], integer, integer) is
  'search() without query words: filters, counts over the 2000 newest matches, newest-first page.';

create or replace function private.search(
  q text, types text[], category text, city text, date_from date, date_to date, page integer, page_size integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'force_custom_plan'
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
  -- full-text hits ranked at most (issue 34): the newest v_cap hits; whole thousands, enough for the page
  v_cap integer;
  v_est bigint;          -- the planner's estimate of the full-text hits (private.search_estimate)
  v_since timestamptz;   -- many hits: only hits dated from then on are read (null: all)
  v_exact boolean := false; -- the window held too few hits: read them all
  v_gin boolean := false; -- few enough hits to collect from the GIN indexes and sort (not read in date order)
  v_cover boolean;       -- several words or a phrase: ranked by cover density (ts_rank_cd)
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
  tq_de := private.search_query('private.teamwerk_de'::regconfig, v_q);
  tq_en := private.search_query('private.teamwerk_en'::regconfig, v_q);
  v_cap := 1000 * ceil((v_page * v_size)::numeric / 1000)::integer;

  <<attempt>>
  loop
  -- Many hits (issue 34): the newest v_cap + 1 of them lie among the newest rows; a date window
  -- expected to hold three times as many hits bounds what is read whatever the words (the date
  -- quantile from the column statistics). The result is the same as without the window as long
  -- as the window holds more than v_cap hits; when it holds fewer, the statement runs again
  -- without it.
  v_since := null;
  -- One word (issue 34): cover density adds nothing when every cover is a single occurrence, and
  -- ts_rank ranks a broad word's 1,000 hits in a quarter of the time (1.7 ms instead of 6.4 ms on
  -- the large data set), with the title's weight counting as much as before. Several words (an
  -- AND, or a phrase from a hyphenated word) keep ts_rank_cd: words standing close rank higher.
  v_cover := pg_catalog.textregexeq(tq_de::text || ' ' || tq_en::text, ' & |<(-|[0-9]+)>');
  if not v_fuzzy then
    v_est := private.search_estimate(tq_de, tq_en, v_types, v_cat, v_city);
    -- the GIN indexes read every hit, the date-order read about 3 v_cap / selectivity rows: the
    -- first grows with the hits, the second with rows / hits, so they cross where hits² ≈ 8 v_cap
    -- × rows (measured: 30,000 hits among 950,000 rows, GIN 52 ms, date order 213 ms; 6,400
    -- among 190,000, GIN 5 ms, date order 30-230 ms); at least 20 v_cap (issue 34: 500k projects)
    v_gin := v_est <= greatest(20 * v_cap, pg_catalog.sqrt(8.0 * v_cap * greatest((select c.reltuples from pg_catalog.pg_class c where c.oid = 'private.search_items'::pg_catalog.regclass), 0)));
    -- the window only serves the date-order read: the GIN indexes collect every hit anyway, and a
    -- window with too few hits would cost a second run
    if not v_exact and not v_gin and v_est > 3 * v_cap then
      v_since := private.search_window_start(3.0 * v_cap / v_est);
    end if;
  end if;
  with hits as materialized (
    -- full-text search: the newest v_cap + 1 hits of the requested types (all of them when there
    -- are at most v_cap). Up to 20 v_cap estimated hits (v_gin) the GIN indexes collect them and a
    -- top-N sort keeps the newest (the order by an expression the date index cannot give); with
    -- more they are read in date order from search_items_browse_idx, which stops early. The
    -- planner's own choice read a 6,400-hit word in date order (30 ms in the window, 230 ms
    -- without) where the GIN indexes take 5 ms. Narrow rows: the tsvectors are read again (by
    -- ctid) only for the hits ranked.
    select s.ctid as tid, s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id
    from private.search_items s
    where not v_fuzzy
      and s.searchable
      and (s.search_de @@ tq_de or s.search_en @@ tq_en)
      and (v_all_types or s.type = any (v_types))
      and (s.type <> 'job' or v_jobs)
      and (v_no_hidden or not coalesce(s.owner_id = any (v_hidden), false))
      and (s.expires_at is null or s.expires_at > pg_catalog.now())
      and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
      and (v_cat is null or v_cat = any (s.categories))
      and (v_city is null or s.city_norm = v_city)
      and (v_since is null or s.date >= v_since)
    order by (case when v_gin then s.date + interval '0' else s.date end) desc nulls last, s.type, s.id
    limit v_cap + 1
  ),
  facet_hits as materialized (
    -- only with a type filter: the type facet counts the hits of every facet type (the newest
    -- v_cap + 1 of them, like hits)
    select s.type
    from private.search_items s
    where not v_fuzzy
      and not v_all_types
      and s.searchable
      and (s.search_de @@ tq_de or s.search_en @@ tq_en)
      and (s.type <> 'job' or v_jobs)
      and (v_no_hidden or not coalesce(s.owner_id = any (v_hidden), false))
      and (s.expires_at is null or s.expires_at > pg_catalog.now())
      and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
      and (v_cat is null or v_cat = any (s.categories))
      and (v_city is null or s.city_norm = v_city)
      and (v_since is null or s.date >= v_since)
    order by (case when v_gin then s.date + interval '0' else s.date end) desc nulls last, s.type, s.id
    limit v_cap + 1
  ),
  matches as materialized (
    -- the ranked hits with their final score (relevance x 1.25 for premium owners): every hit
    -- when there are at most v_cap, else the newest v_cap (counts then cover these, the total is
    -- an estimate)
    -- (double precision factors: the same product as the former numeric 1.25, which was
    -- converted to double precision through its text form on every row)
    select u.type, u.id, u.category, u.city, u.date, u.premium, u.owner_id,
           u.relevance * case when u.premium then 1.25::double precision else 1::double precision end as score
    from (
      (select h.type, h.id, h.category, h.city, h.date, h.premium, h.owner_id,
              case when v_cover then pg_catalog.ts_rank_cd(t.search_de, tq_de) + pg_catalog.ts_rank_cd(t.search_en, tq_en)
                   else pg_catalog.ts_rank(t.search_de, tq_de) + pg_catalog.ts_rank(t.search_en, tq_en) end as relevance
       from (select * from hits order by date desc nulls last, type, id limit v_cap) h
       join private.search_items t on t.ctid = h.tid)
      union all
      -- last resort: trigram word similarity on titles and names, the best 200
      (select s.type, s.id, s.categories[1] as category, s.city, s.date, s.premium, s.owner_id,
              extensions.word_similarity(v_norm, s.title_norm) as relevance
       from private.search_items s
       where v_fuzzy
         and s.searchable
         and v_norm operator(extensions.<%) s.title_norm
         and (s.type <> 'job' or v_jobs)
         and (v_no_hidden or not coalesce(s.owner_id = any (v_hidden), false))
         and (s.expires_at is null or s.expires_at > pg_catalog.now())
         and (not v_dated or ((v_from is null or s.date >= v_from) and (v_to is null or s.date < v_to) and s.type <> 'profile'))
         and (v_cat is null or v_cat = any (s.categories))
         and (v_city is null or s.city_norm = v_city)
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
    'total', case when (select count(*) from hits) > v_cap
                  then greatest(v_cap + 1, v_est)
                  else (select coalesce(sum(g.n), 0)::bigint from groups g where v_all_types or g.type = any (v_types)) end,
    'total_estimated', (select count(*) from hits) > v_cap,
    'total_capped', (select count(*) from hits) > v_cap or (select count(*) from facet_hits) > v_cap,
    'page', v_page,
    'page_size', v_size,
    'facets', pg_catalog.jsonb_build_object(
      'types', case when v_fuzzy or v_all_types then
                 (select coalesce(pg_catalog.jsonb_object_agg(t.type, t.n), '{}'::jsonb)
                  from (select g.type, sum(g.n)::bigint as n from groups g group by g.type) t)
               else
                 (select coalesce(pg_catalog.jsonb_object_agg(t.type, t.n), '{}'::jsonb)
                  from (select f.type, count(*) as n from (select h.type from facet_hits h limit v_cap) f group by f.type) t)
               end,
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
  if v_since is not null and not (result ->> 'total_estimated')::boolean then
    v_exact := true;
    continue attempt;
  end if;
  v_exact := false;
  -- typo tolerance when full-text search finds nothing at all: first correct the spelling
  -- against the dictionary and search again; then trigram similarity on titles and names
  exit attempt when v_fuzzy or (result -> 'facets' -> 'types') <> '{}'::jsonb;
  v_attempt := v_attempt + 1;
  if v_attempt = 1 then
    v_corrected := private.correct_spelling(v_q);
    if v_corrected is not null and v_corrected <> private.unaccent(pg_catalog.lower(v_q)) then
      tq_de := private.search_query('private.teamwerk_de'::regconfig, v_corrected);
      tq_en := private.search_query('private.teamwerk_en'::regconfig, v_corrected);
      continue attempt;
    end if;
  end if;
  -- the last resort compares the spelling-corrected words when there are any (issue 34:
  -- "Podcst Musik Senioren" finds what "Podcast Musik Senioren" finds)
  v_norm := coalesce(v_corrected, v_norm);
  v_fuzzy := true;
  end loop;
  -- "did you mean" (issue 33 §2): the spelling-corrected words, when the words as typed found
  -- nothing and a close dictionary word exists (also when the corrected words find nothing either)
  if v_corrected is not null and v_corrected <> (
       select pg_catalog.string_agg(t.tok, ' ' order by t.ord)
       from pg_catalog.regexp_split_to_table(private.unaccent(pg_catalog.lower(v_q)), '[^a-z0-9]+') with ordinality as t(tok, ord)
       where t.tok <> '') then
    result := result || pg_catalog.jsonb_build_object('suggestion', v_corrected);
  end if;
  return result;
end;
$$;
comment on function private.search(text, text[], text, text, date, date, integer, integer) is 'Implementation of public.search.';

-- private.search_badges post-processes every answer of public.search: results[].premium is kept
-- only for owners who show the premium badge, and results[].owner = {name, img, slug} is added:
-- the public display name (spec §3, no e-mail fallback), the profile picture path of the public
-- avatars bucket and the profile slug, only for listed owners (private.owner_listed), which every
-- hit's owner already is, since search shows nothing of hidden owners. For a person hit the owner
-- is the person. Nothing else of the profile leaves the function.
create or replace function private.search_badges(p_result jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = 'auto'
as $$
begin
  -- PL/pgSQL (issue 34): as an SQL function with set search_path it was planned again on every
  -- call (0.3 ms of each search); here the plan is cached
  return case
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
        -- the key compared as uuid (issue 34): `p.id::text = ...` read every profile (a sequential
        -- scan of 50,000 rows, 15-18 ms of each search on the large data set) instead of the page's owners
        left join public.profiles p on p.id = (r.hit ->> 'owner_id')::uuid), '[]'::jsonb))
    else p_result
  end;
end;
$$;
comment on function private.search_badges(jsonb) is
  'Keeps results[].premium only for owners who show the premium badge (issue 12: the plan is private) and adds results[].owner {name, img, slug} of listed owners (issue 18).';

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

/* Number of users in the visible-users list for the caller (spec §6). */
create or replace function public.visible_profiles_count()
returns bigint
language sql
stable
set search_path = ''
as $$
  select private.visible_profiles_count()
$$;
comment on function public.visible_profiles_count() is 'Spec §6: count of authenticated = 1 and profile_visibility = 1 users visible to the caller.';

/* Site search (issue 8) across projects, portfolios, events and people.
   q: words (websearch syntax: "quotes", or, -not); German and English stemming, accent- and
   umlaut-insensitive ("Koeln" finds "Köln" and back), English words and category names also
   find their German synonyms (issue 33 §2), typo-tolerant on titles (trigram word similarity).
   types: subset of project, portfolio, event, profile, job (null = the first four); category: a project or
   private-project category; city: exact city name (case/accent-insensitive); date_from/date_to:
   event start or publication date in Europe/Berlin (profiles are left out when set);
   page from 1, page_size 1..50.
   Without words (browse mode) results are newest first and counts cover the 2000 newest
   matches ("total_capped": true when there are more). With words and more than 1,000 hits
   (issue 34) the page is ranked among the newest 1,000 (for deeper pages, whole thousands
   covering the page), facets count those ("total_capped": true) and the total is an estimate
   ("total_estimated": true).
   Returns {"total", "total_capped", "total_estimated" (words only), "page", "page_size", "facets": {"types": {type: n}, "categories": {cat: n},
   "cities": [{"city", "count"}]}, "results": [{"type", "id", "slug", "title", "title_highlight",
   "snippet", "category", "city", "date", "premium", "score", "owner_id", "owner"}], "suggestion" (only when the words as typed found nothing and
   close dictionary words exist: those words, unaccented lower case, for "did you mean")}; title_highlight
   and snippet are HTML-escaped with <mark> around matches; premium only where the owner shows the
   premium badge, owner = {name, img, slug} (private.search_badges).
   Errors: 22023 invalid_type, query_too_long. */
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

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function private.visible_profiles_count(),
  private.correct_spelling(text),
  private.fold_umlaut_digraphs(text),
  private.expand_umlauts(text),
  private.search_query(regconfig, text),
  private.category_words(text[]),
  private.search_document(text, text),
  private.search_estimate(tsquery, tsquery, text[], text, text),
  private.search_window_start(double precision),
  private.search_browse(text[], text, text, timestamp with time zone, timestamp with time zone, boolean, uuid[], integer, integer),
  private.search(text, text[], text, text, date, date, integer, integer),
  private.search_badges(jsonb) to anon, authenticated, service_role;
grant execute on function public.visible_profiles_count(),
  public.search(text, text[], text, text, date, date, integer, integer) to anon, authenticated;
