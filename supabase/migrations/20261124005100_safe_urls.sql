-- =============================================================================
-- User-supplied URLs: http(s) with a host only (issue 12, "Also: javascript: links")
-- =============================================================================
-- Profile links accepted `javascript:` URLs, which the SPA rendered as href. Every column that
-- holds a user-supplied URL now accepts only http:// or https:// URLs with a host (no user
-- info such as "https://bank.example@evil.example", no whitespace or control characters);
-- columns that hold an image may also hold a storage object path ("<user id>/<file>"), which
-- the SPA turns into a storage URL. jobs.apply_url keeps a plain mailto: address (apply by
-- e-mail; mailto cannot run script). events.online_url stays https only.
-- The SPA mirrors these rules in frontend/src/lib/safe-url.ts.

-- -----------------------------------------------------------------------------
-- Validators (immutable: used by check constraints; executable by the API roles, because a
-- check constraint calls them with the privileges of whoever writes the row)
-- -----------------------------------------------------------------------------

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

revoke all on function private.is_http_url(text), private.is_storage_path(text), private.is_image_ref(text),
  private.are_image_refs(text[]), private.are_http_url_values(jsonb), private.are_labelled_links(jsonb),
  private.is_apply_url(text) from public;
grant execute on function private.is_http_url(text), private.is_storage_path(text), private.is_image_ref(text),
  private.are_image_refs(text[]), private.are_http_url_values(jsonb), private.are_labelled_links(jsonb),
  private.is_apply_url(text) to anon, authenticated, service_role;

-- -----------------------------------------------------------------------------
-- Existing rows: drop what the new rules refuse (script or data URLs, host-less links), so
-- the constraints can be added on a database that already holds such values.
-- -----------------------------------------------------------------------------
update public.profiles set social_links = coalesce(
    (select pg_catalog.jsonb_object_agg(e.k, e.v) from pg_catalog.jsonb_each(social_links) as e(k, v)
     where pg_catalog.jsonb_typeof(e.v) = 'string' and private.is_http_url(e.v #>> '{}')), '{}'::jsonb)
  where not private.are_http_url_values(social_links);
update public.profiles set profile_img = null where profile_img is not null and not private.is_image_ref(profile_img);
update public.profiles set logo = null where logo is not null and not private.is_image_ref(logo);
update public.profiles set gallery = array(select g from pg_catalog.unnest(gallery) as g where private.is_image_ref(g))
  where not private.are_image_refs(gallery);
update public.projects set images = array(select i from pg_catalog.unnest(images) as i where private.is_image_ref(i))
  where not private.are_image_refs(images);
update public.portfolios set images = array(select i from pg_catalog.unnest(images) as i where private.is_image_ref(i))
  where not private.are_image_refs(images);
update public.portfolios set links = coalesce(
    (select pg_catalog.jsonb_agg(l) from pg_catalog.jsonb_array_elements(links) as l
     where private.are_labelled_links(pg_catalog.jsonb_build_array(l))), '[]'::jsonb)
  where not private.are_labelled_links(links);
update public.events set image = null where image is not null and not private.is_image_ref(image);
update public.jobs set company_logo = null where company_logo is not null and not private.is_image_ref(company_logo);
update public.feedback set page_url = null where page_url is not null and not private.is_http_url(page_url);
-- An online event or a job without a valid link cannot be repaired automatically; such rows
-- make the constraints below fail, so an operator decides (no silent data loss).

-- -----------------------------------------------------------------------------
-- Constraints
-- -----------------------------------------------------------------------------
alter table public.profiles
  add constraint profiles_social_links_urls check (private.are_http_url_values(social_links)),
  add constraint profiles_profile_img_ref check (profile_img is null or private.is_image_ref(profile_img)),
  add constraint profiles_logo_ref check (logo is null or private.is_image_ref(logo)),
  add constraint profiles_gallery_refs check (private.are_image_refs(gallery));
alter table public.projects
  add constraint projects_images_refs check (private.are_image_refs(images));
alter table public.portfolios
  add constraint portfolios_links_urls check (private.are_labelled_links(links)),
  add constraint portfolios_images_refs check (private.are_image_refs(images));
alter table public.events drop constraint if exists events_online_url_check;
alter table public.events
  add constraint events_online_url_https check (online_url is null or (private.is_http_url(online_url) and online_url ~* '^https://')),
  add constraint events_image_ref check (image is null or private.is_image_ref(image));
alter table public.jobs drop constraint if exists jobs_apply_url_check;
alter table public.jobs
  add constraint jobs_apply_url_safe check (private.is_apply_url(apply_url)),
  add constraint jobs_company_logo_ref check (company_logo is null or private.is_image_ref(company_logo));
alter table public.feedback
  add constraint feedback_page_url_http check (page_url is null or private.is_http_url(page_url));

comment on column public.profiles.social_links is
  'http(s) URLs keyed by instagram, facebook, tiktok, youtube, linkedin, xing, whatsapp, telegram (check: private.are_http_url_values).';
comment on column public.profiles.profile_img is 'Object path in the avatars bucket, "<user id>/<file>" (or an http(s) URL).';
comment on column public.profiles.logo is 'Logo: object path in the avatars bucket or an http(s) URL.';
comment on column public.projects.images is 'Object paths in the portfolio-files bucket or http(s) URLs.';
comment on column public.portfolios.links is 'Array of {"label": text, "url": http(s) URL}.';
comment on column public.portfolios.images is 'Object paths in the portfolio-files bucket or http(s) URLs.';
comment on column public.events.image is 'Event image: object path or http(s) URL.';
comment on column public.jobs.company_logo is 'Company logo: object path or http(s) URL.';
comment on column public.events.online_url is 'Join link for online events (https URL with a host).';
comment on column public.jobs.apply_url is 'Where to apply: http(s) URL or a plain mailto: address.';
comment on column public.feedback.page_url is 'Page the user came from, for context (http(s) URL).';
