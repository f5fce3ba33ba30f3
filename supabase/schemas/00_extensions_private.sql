-- =============================================================================
-- Extensions, the private schema and generic helpers
-- =============================================================================
-- Everything that is not part of the API lives in schema `private` (not exposed by PostgREST).
-- Policies call small security-definer helpers from there (STYLE.md), so they never query
-- another RLS-protected table directly.
-- Loaded first: every later file relies on the extensions, the schema, the default privileges
-- and the immutable helpers used by generated columns, index expressions and check constraints.

create extension if not exists pg_trgm with schema extensions;
create extension if not exists unaccent with schema extensions;
-- map_items: GiST indexes that combine a point with equality columns (issue 14)
create extension if not exists btree_gist with schema extensions;

-- pg_cron runs the scheduled jobs (see the data migration) and pg_net lets them call Edge
-- Functions; both are created where the server offers them (hosted Supabase, the local stack).
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
  end if;
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net with schema extensions;
  end if;
end;
$$;

create schema if not exists private;
comment on schema private is 'Helpers used by policies, triggers and RPCs; not exposed through the API.';
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Least privilege: functions are not executable by PUBLIC, anon or authenticated unless a
-- schema file grants it explicitly.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges in schema private revoke execute on functions from anon, authenticated;

-- -----------------------------------------------------------------------------
-- Text search configurations
-- -----------------------------------------------------------------------------

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

-- Slugs nobody may take for a profile (/u/{slug}) or an organisation (/org/{slug}): every
-- top-level path of the site, the locale prefixes, the API paths of the platform and names that
-- look official (issue 31). supabase/tests/rules.test.ts holds that every top-level path of the
-- SPA (frontend/src/config/paths.ts) is in this list.
create or replace function private.is_reserved_slug(p_slug text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.lower(coalesce(p_slug, '')) = any (array[
    'about', 'account', 'admin', 'administrator', 'api', 'app', 'assets', 'auth', 'billing', 'cancel-subscription',
    'confirm', 'confirm-email', 'contact', 'dashboard', 'de', 'developers', 'en', 'events', 'functions', 'help',
    'impressum', 'index', 'invitations', 'jobs', 'legal', 'login', 'logout', 'map', 'matches', 'me', 'moderator', 'newsletter',
    'newsletter-thankyou', 'newsletter-unsubscribe', 'null', 'o', 'org', 'organization', 'organizations',
    'our-guidelines', 'password-reset', 'password-update', 'payment', 'portfolio', 'portfolios', 'prices',
    'privacy', 'project', 'projects', 'realtime', 'register', 'registration', 'rest', 'robots', 'root', 'search',
    'security', 'settings', 'signup', 'sitemap', 'static', 'storage', 'subscription-required', 'support', 'system',
    'teamwerk', 'test', 'u', 'ueber-teamwerk', 'undefined', 'unified-search', 'unsubscribe', 'user', 'users',
    'working-remote-jobs', 'www'
  ]::text[])
$$;
comment on function private.is_reserved_slug(text) is
  'True for slugs no profile or organisation may take: top-level paths, locale prefixes, platform paths (issue 31).';
-- the CHECK constraints on profiles.slug and organizations.slug run it as the writing role
grant execute on function private.is_reserved_slug(text) to anon, authenticated, service_role;

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
-- User-supplied URLs: http(s) with a host only (issue 12, "Also: javascript: links")
-- -----------------------------------------------------------------------------

-- Every column that holds a user-supplied URL accepts only http:// or https:// URLs with a host
-- (no user info such as "https://bank.example@evil.example", no whitespace or control
-- characters); columns that hold an image may also hold a storage object path
-- ("<user id>/<file>"), which the SPA turns into a storage URL. jobs.apply_url keeps a plain
-- mailto: address (apply by e-mail; mailto cannot run script). events.online_url stays https only.
-- The SPA's forms and rendered links apply the same rule before a write (isHttpUrl, safeHref in
-- supabase/functions/_shared/site/url.ts); supabase/tests/safe-urls.test.ts runs each case through both.
-- The validators are immutable (check constraints use them) and executable by the API roles,
-- because a check constraint calls them with the privileges of whoever writes the row.

/* True for an absolute http(s) URL with a host name (letters, digits, hyphens, dots; or an
   IPv6 literal), an optional port and an optional path/query/fragment without whitespace or
   control characters; at most 2048 characters. False for null. */
create or replace function private.is_http_url(value text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(
    pg_catalog.char_length(value) <= 2048
    and value ~* '^https?://(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?)(:[0-9]{1,5})?([/?#][^[:space:][:cntrl:]]*)?$',
    false)
$$;
comment on function private.is_http_url(text) is
  'http(s) URL with a host, no user info, no whitespace/control characters, <= 2048 chars (issue 12).';

/* True for a storage object path: segments of letters, digits, ".", "_" and "-" separated by
   "/", no "." or ".." segment, no scheme, at most 500 characters. False for null. */
create or replace function private.is_storage_path(value text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(
    pg_catalog.char_length(value) <= 500
    and value ~ '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$'
    and value !~ '(^|/)\.{1,2}(/|$)',
    false)
$$;
comment on function private.is_storage_path(text) is 'Storage object path "<folder>/<file>" without scheme or dot segments (issue 12).';

/* An image reference: an http(s) URL or a storage object path. */
create or replace function private.is_image_ref(value text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select private.is_http_url(value) or private.is_storage_path(value)
$$;
comment on function private.is_image_ref(text) is 'http(s) URL or storage object path (issue 12).';

/* Every element of an array of image references is valid (an empty array is). */
create or replace function private.are_image_refs(value text[])
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(bool_and(private.is_image_ref(v)), true) from pg_catalog.unnest(value) as v
$$;
comment on function private.are_image_refs(text[]) is 'All elements are image references (issue 12).';

/* profiles.social_links: every value is a string holding an http(s) URL. */
create or replace function private.are_http_url_values(value jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when pg_catalog.jsonb_typeof(value) <> 'object' then false else
    (select coalesce(bool_and(pg_catalog.jsonb_typeof(e.v) = 'string' and private.is_http_url(e.v #>> '{}')), true)
     from pg_catalog.jsonb_each(value) as e(k, v)) end
$$;
comment on function private.are_http_url_values(jsonb) is 'Object whose values are all http(s) URLs (issue 12).';

/* portfolios.links: an array of {"label": string, "url": http(s) URL}. */
create or replace function private.are_labelled_links(value jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case when pg_catalog.jsonb_typeof(value) <> 'array' then false else
    (select coalesce(bool_and(
        pg_catalog.jsonb_typeof(l) = 'object'
        and pg_catalog.jsonb_typeof(l -> 'label') = 'string'
        and pg_catalog.jsonb_typeof(l -> 'url') = 'string'
        and private.is_http_url(l ->> 'url')), true)
     from pg_catalog.jsonb_array_elements(value) as l) end
$$;
comment on function private.are_labelled_links(jsonb) is 'Array of {label, url} with http(s) URLs (issue 12).';

/* jobs.apply_url: an http(s) URL or a plain "mailto:<address>" (no headers such as ?body=). */
create or replace function private.is_apply_url(value text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select private.is_http_url(value)
    or coalesce(pg_catalog.char_length(value) <= 330 and value ~* '^mailto:[a-z0-9._%+-]+@[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$', false)
$$;
comment on function private.is_apply_url(text) is 'http(s) URL or plain mailto: address (issue 12).';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

grant execute on function private.unaccent(text),
  private.join_words(text[]),
  private.slugify(text),
  private.html_escape(text),
  private.is_privileged(),
  private.is_api_statement(),
  private.is_http_url(text),
  private.is_storage_path(text),
  private.is_image_ref(text),
  private.are_image_refs(text[]),
  private.are_http_url_values(jsonb),
  private.are_labelled_links(jsonb),
  private.is_apply_url(text) to anon, authenticated, service_role;
