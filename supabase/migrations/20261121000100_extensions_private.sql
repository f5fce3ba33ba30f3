-- =============================================================================
-- Extensions, the private schema and generic helpers
-- =============================================================================
-- Everything that is not part of the API lives in schema `private` (not exposed by PostgREST).
-- Policies call small security-definer helpers from there (STYLE.md), so they never query
-- another RLS-protected table directly.

create extension if not exists pg_trgm with schema extensions;
create extension if not exists unaccent with schema extensions;

create schema if not exists private;
comment on schema private is 'Helpers used by policies, triggers and RPCs; not exposed through the API.';
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Least privilege: functions created from here on are not executable by PUBLIC, anon or
-- authenticated unless a migration grants it explicitly.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges in schema private revoke execute on functions from anon, authenticated;

-- -----------------------------------------------------------------------------
-- Text helpers
-- -----------------------------------------------------------------------------

-- unaccent() is only STABLE (its dictionary could change); generated columns and index
-- expressions need an IMMUTABLE function, so we pin the dictionary explicitly.
create or replace function private.unaccent(value text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select extensions.unaccent('extensions.unaccent'::regdictionary, value)
$$;
comment on function private.unaccent(text) is
  'Immutable unaccent with a pinned dictionary, for generated tsvector columns and indexes ("Gründer" -> "Grunder").';

-- Joins a text array with spaces (array_to_string is not immutable for every element type).
create or replace function private.join_words(words text[])
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.array_to_string(words, ' '), '')
$$;
comment on function private.join_words(text[]) is 'Immutable array join for generated search columns.';

-- URL slug: German transliteration first (ä -> ae, ß -> ss), then unaccent, then a-z0-9 and dashes.
create or replace function private.slugify(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(nullif(
    pg_catalog.left(
      pg_catalog.btrim(
        pg_catalog.regexp_replace(
          pg_catalog.lower(private.unaccent(
            pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
            pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(coalesce(value, ''),
              'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'Ä', 'Ae'), 'Ö', 'Oe'), 'Ü', 'Ue'), 'ß', 'ss'))),
          '[^a-z0-9]+', '-', 'g'),
        '-'),
      80),
    ''), 'n-a')
$$;
comment on function private.slugify(text) is 'URL slug from free text (German transliteration, max 80 chars).';

-- Full-text configurations that fold accents and umlauts before stemming, so "Grunder" and
-- "Gründer" produce the same lexeme and ts_headline can highlight the original spelling.
create text search configuration private.teamwerk_de (copy = pg_catalog.german);
alter text search configuration private.teamwerk_de
  alter mapping for hword, hword_part, word with extensions.unaccent, pg_catalog.german_stem;
comment on text search configuration private.teamwerk_de is 'German stemming on unaccented words (search_de columns).';
create text search configuration private.teamwerk_en (copy = pg_catalog.english);
alter text search configuration private.teamwerk_en
  alter mapping for hword, hword_part, word with extensions.unaccent, pg_catalog.english_stem;
comment on text search configuration private.teamwerk_en is 'English stemming on unaccented words (search_en columns).';

-- Escapes text for HTML so ts_headline output contains no markup except our <mark> tags.
create or replace function private.html_escape(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(coalesce(value, ''),
    '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;')
$$;
comment on function private.html_escape(text) is 'HTML-escapes &, <, >, " (search snippets).';

-- -----------------------------------------------------------------------------
-- Trigger helpers
-- -----------------------------------------------------------------------------

create or replace function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;
comment on function private.set_updated_at() is 'BEFORE UPDATE trigger: keeps updated_at current.';

-- True when the statement runs with more rights than an API user: service_role (Edge
-- Functions), the postgres owner (migrations, seed, security-definer RPCs) or an admin role.
-- Used by guard triggers that must be SECURITY INVOKER so current_user is the real caller.
create or replace function private.is_privileged()
returns boolean
language sql
stable
set search_path = ''
as $$
  select current_user not in ('anon', 'authenticated')
$$;
comment on function private.is_privileged() is
  'True unless the current role is anon or authenticated (service_role, postgres, security-definer code).';

-- For SECURITY DEFINER triggers (where current_user is the owner): true when the statement
-- that fired the trigger came straight from an API role. The `role` setting keeps the
-- PostgREST role inside definer functions; trigger depth 1 excludes writes made by our own
-- triggers (e.g. waitlist promotion).
create or replace function private.is_api_statement()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(pg_catalog.current_setting('role', true), 'none') in ('anon', 'authenticated')
    and pg_catalog.pg_trigger_depth() <= 1
$$;
comment on function private.is_api_statement() is
  'In triggers: the firing statement was issued by anon/authenticated directly (not by our own triggers or RPCs).';

grant execute on function private.is_api_statement() to anon, authenticated, service_role;
grant execute on function private.unaccent(text), private.join_words(text[]), private.slugify(text), private.html_escape(text),
  private.is_privileged() to anon, authenticated, service_role;
