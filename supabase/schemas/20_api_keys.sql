-- =============================================================================
-- API keys of organisations (issue 15 "API access")
-- =============================================================================
-- Owners and admins of an organisation create named keys with scopes for the versioned HTTP API
-- (Edge Function `api`, /functions/v1/api/v1/...). The plaintext key is returned once by
-- create_api_key and never stored: the table keeps its SHA-256 (hex) and a short prefix to
-- recognise it. The function authenticates a key with authenticate_api_key (service_role only):
-- hash lookup, not revoked, last_used_at and the per-key rate limit (60 requests per minute,
-- fixed one-minute window that starts with the first request) in one atomic UPDATE.
-- API roles never see key_hash or the rate-limit state (column grants); listing is a
-- column-granted SELECT that row-level security limits to the organisation's owners and admins.

-- -----------------------------------------------------------------------------
-- Tables
-- -----------------------------------------------------------------------------

create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 80),
  scopes text[] not null check (
    cardinality(scopes) between 1 and 5
    and scopes <@ array['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write']::text[]),
  prefix text not null check (char_length(prefix) between 8 and 20),
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  rate_limit_per_minute integer not null default 60 check (rate_limit_per_minute between 1 and 100000),
  rate_window_start timestamptz,
  rate_window_count integer not null default 0
);
comment on table public.api_keys is
  'API keys of an organisation (issue 15): SHA-256 of the secret only, scopes, last use, revocation, per-key rate limit state.';
comment on column public.api_keys.prefix is 'First characters of the key (shown so owners recognise it; not enough to use it).';
comment on column public.api_keys.key_hash is 'SHA-256 (hex) of the full key; never readable by API roles.';
comment on column public.api_keys.rate_limit_per_minute is 'Requests per one-minute window (issue 15: 60); only the service role changes it.';
comment on column public.api_keys.rate_window_start is 'Start of the current rate-limit window (first request after the previous window ended).';
comment on column public.api_keys.rate_window_count is 'Requests counted in the current window, rejected ones included.';
create index api_keys_organization_idx on public.api_keys (organization_id, created_at desc);
create index api_keys_created_by_idx on public.api_keys (created_by);
alter table public.api_keys enable row level security;
revoke all on public.api_keys from anon, authenticated;
grant select (id, organization_id, name, scopes, prefix, created_by, created_at, last_used_at, revoked_at,
              rate_limit_per_minute)
  on public.api_keys to authenticated;

-- -----------------------------------------------------------------------------
-- Helper functions
-- -----------------------------------------------------------------------------

-- SHA-256 of a key as stored in key_hash.
create or replace function private.api_key_hash(p_key text)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.encode(extensions.digest(pg_catalog.convert_to(p_key, 'UTF8'), 'sha256'), 'hex')
$$;
comment on function private.api_key_hash(text) is 'SHA-256 (hex) of an API key, the form stored in api_keys.key_hash (issue 15).';

-- -----------------------------------------------------------------------------
-- Row-level security policies
-- -----------------------------------------------------------------------------

create policy api_keys_select on public.api_keys for select to authenticated
using ((select private.is_organization_admin(organization_id, (select auth.uid()))));

-- -----------------------------------------------------------------------------
-- API functions (RPCs)
-- -----------------------------------------------------------------------------

-- Creates a key for an organisation the caller owns or administers. Returns
-- {id, key, prefix, name, scopes, created_at}; `key` is the only time the secret exists in clear.
create or replace function public.create_api_key(p_organization_id uuid, p_name text, p_scopes text[])
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_key text;
  v_row public.api_keys;
begin
  if not (select private.caller_can_write()) then
    raise exception 'not_allowed' using errcode = '42501', detail = 'Sign in to manage API keys.';
  end if;
  if p_organization_id is null or not private.is_organization_admin(p_organization_id, auth.uid()) then
    raise exception 'not_allowed' using errcode = '42501', detail = 'Only owners and admins of the organisation manage API keys.';
  end if;
  if not private.organization_enterprise_active(p_organization_id) then
    raise exception 'enterprise_required' using errcode = 'PT402',
      detail = 'API access is part of the organisation''s Enterprise subscription (spec §6).';
  end if;
  if p_name is null or char_length(pg_catalog.btrim(p_name)) not between 1 and 80 then
    raise exception 'invalid_name' using errcode = '22023', detail = 'The name needs 1 to 80 characters.';
  end if;
  if p_scopes is null or cardinality(p_scopes) = 0 or array_position(p_scopes, null) is not null
     or not (p_scopes <@ array['projects:read', 'jobs:read', 'events:read', 'search:read', 'jobs:write']::text[]) then
    raise exception 'invalid_scopes' using errcode = '22023',
      detail = 'Scopes: one or more of projects:read, jobs:read, events:read, search:read, jobs:write.';
  end if;
  -- one creator at a time per organisation, so the limit below holds under concurrency
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('api_keys:' || p_organization_id::text, 0));
  if (select count(*) from public.api_keys k where k.organization_id = p_organization_id and k.revoked_at is null) >= 25 then
    raise exception 'too_many_keys' using errcode = 'P0001', detail = 'An organisation has at most 25 active API keys; revoke one first.';
  end if;
  v_key := 'twk_' || pg_catalog.encode(extensions.gen_random_bytes(24), 'hex');
  insert into public.api_keys (organization_id, name, scopes, prefix, key_hash, created_by)
  values (p_organization_id, pg_catalog.btrim(p_name),
          (select array_agg(distinct s order by s) from pg_catalog.unnest(p_scopes) s),
          pg_catalog.left(v_key, 12), private.api_key_hash(v_key), auth.uid())
  returning * into v_row;
  return pg_catalog.jsonb_build_object('id', v_row.id, 'key', v_key, 'prefix', v_row.prefix, 'name', v_row.name,
    'scopes', pg_catalog.to_jsonb(v_row.scopes), 'created_at', v_row.created_at);
end;
$$;
comment on function public.create_api_key(uuid, text, text[]) is
  'Owners/admins create an API key (issue 15); returns {id, key, prefix, name, scopes, created_at}, the key in clear only here.';

-- Revokes a key at once (the next request with it gets 401). Idempotent for a revoked key.
create or replace function public.revoke_api_key(p_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_org uuid;
begin
  select k.organization_id into v_org from public.api_keys k where k.id = p_id;
  if v_org is null or not (select private.caller_can_write()) or not private.is_organization_admin(v_org, auth.uid()) then
    raise exception 'not_found' using errcode = 'PT404', detail = 'No such API key in an organisation you administer.';
  end if;
  update public.api_keys set revoked_at = now() where id = p_id and revoked_at is null;
end;
$$;
comment on function public.revoke_api_key(uuid) is 'Owners/admins revoke an API key of their organisation (issue 15).';

-- The Edge Function's key check (service_role only). Input: the key from the Authorization
-- header. Output: null for an unknown or revoked key, else
-- {key_id, organization_id, scopes, enterprise, posted_by, allowed, limit, remaining, retry_after}
-- where allowed = false means the key used up its window (retry_after seconds until it ends),
-- enterprise = false means the organisation's Enterprise subscription is no longer paid (the API
-- answers 403), and posted_by is the author recorded on jobs created with the key: its creator
-- while a member, else the organisation's longest-standing owner (the jobs trigger requires a member).
-- Counting and last_used_at happen in one UPDATE, which locks the key's row: concurrent requests
-- are counted one after another.
create or replace function public.authenticate_api_key(p_key text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.api_keys;
begin
  if p_key is null or p_key !~ '^twk_[0-9a-f]{48}$' then
    return null;
  end if;
  update public.api_keys k set
    last_used_at = pg_catalog.clock_timestamp(),
    rate_window_start = case when k.rate_window_start is null or k.rate_window_start <= pg_catalog.clock_timestamp() - interval '1 minute'
                             then pg_catalog.clock_timestamp() else k.rate_window_start end,
    rate_window_count = case when k.rate_window_start is null or k.rate_window_start <= pg_catalog.clock_timestamp() - interval '1 minute'
                             then 1 else k.rate_window_count + 1 end
  where k.key_hash = private.api_key_hash(p_key) and k.revoked_at is null
  returning k.* into v_row;
  if v_row.id is null then
    return null;
  end if;
  return pg_catalog.jsonb_build_object(
    'key_id', v_row.id,
    'organization_id', v_row.organization_id,
    'scopes', pg_catalog.to_jsonb(v_row.scopes),
    'enterprise', private.organization_enterprise_active(v_row.organization_id),
    'posted_by', coalesce(
      (select m.user_id from public.organization_members m where m.organization_id = v_row.organization_id and m.user_id = v_row.created_by),
      (select m.user_id from public.organization_members m where m.organization_id = v_row.organization_id and m.role = 'owner'
       order by m.joined_at, m.user_id limit 1)),
    'allowed', v_row.rate_window_count <= v_row.rate_limit_per_minute,
    'limit', v_row.rate_limit_per_minute,
    'remaining', greatest(0, v_row.rate_limit_per_minute - v_row.rate_window_count),
    'retry_after', greatest(1, ceil(extract(epoch from (v_row.rate_window_start + interval '1 minute' - pg_catalog.clock_timestamp()))))::integer);
end;
$$;
comment on function public.authenticate_api_key(text) is
  'Service role only (Edge Function api, issue 15): key lookup by SHA-256, not revoked; updates last_used_at and the rate-limit window; returns org, scopes and the verdict.';

-- -----------------------------------------------------------------------------
-- Grants on functions
-- -----------------------------------------------------------------------------

-- Functions not named here are executable by service_role only (schema public) or by no API role
-- (schema private): the default privileges set in 00_extensions_private.sql.
grant execute on function public.create_api_key(uuid, text, text[]),
  public.revoke_api_key(uuid) to authenticated;
